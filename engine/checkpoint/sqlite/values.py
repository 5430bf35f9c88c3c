"""Reading channel values back: the `blobs` rows a set of checkpoints needs, in few queries.

`ValueReader.fetch` takes the (channel, version) pairs of one or many checkpoints of a thread:
one keyed query for the rows themselves, one range scan per list channel for the chains of
deltas (from the rows' `chain_start`), and keyed look-ups only for a base outside that range (a
fork's chain, or a file of schema 1). `value` then builds each checkpoint's value, a delta
chain decoded from its joined bytes in one go.

Values of immutable content (an atom, or a list of atoms such as strings) are decoded once:
`ValueCache` keeps them across reads, and in one listing an older version of a list is a
prefix of a newer one already decoded, so reading a growing list's history decodes each chain
once; every checkpoint still gets its own list. Other values are decoded afresh for each use,
so no two checkpoints share a mutable object.
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any, NamedTuple

from engine.checkpoint.serde.base import SerializerProtocol
from engine.checkpoint.serde.jsonplus import DeserializationError
from engine.checkpoint.serde.msgpack_arrays import array_header, pack_array_header
from engine.checkpoint.sqlite.deltas import DELTA, MAX_CHAIN

_ATOMS = frozenset({str, int, float, bool, bytes, type(None)})
_NULL = type("Null", (), {"__slots__": (), "__repr__": lambda self: "<cached None>"})()
ABSENT = type("Absent", (), {"__slots__": (), "__repr__": lambda self: "<not stored>"})()
"""In a ValueCache: a (channel, version) a checkpoint names but no row holds (an empty
channel), so the next read of that checkpoint needs no query to learn it again."""
_CHUNK = 400  # (channel, version) pairs per keyed query (two parameters each)
_COLUMNS = "b.channel, b.version, b.type, b.base_version, b.items, b.chain_start, b.value"
_KEYED = (
    "WITH want(channel, version) AS (VALUES {pairs}) SELECT " + _COLUMNS + " FROM want "
    "CROSS JOIN blobs AS b ON b.thread_id = ? AND b.checkpoint_ns = ? "
    "AND b.channel = want.channel AND b.version = want.version"
)  # CROSS JOIN: the wanted pairs drive, each one a primary-key look-up
_RANGE = (
    "SELECT " + _COLUMNS + " FROM blobs AS b WHERE b.thread_id = ? AND b.checkpoint_ns = ? "
    "AND b.channel = ? AND b.version >= ? AND b.version <= ?"
)


class Row(NamedTuple):
    type: Any
    base: Any
    items: Any
    start: Any
    value: Any


class ValueReader:
    """The stored values of one (thread, namespace), fetched in batches, decoded on demand."""

    def __init__(
        self, serde: SerializerProtocol, cache: ValueCache, thread_id: str, ns: str
    ) -> None:
        self.serde, self.cache, self.key = serde, cache, (thread_id, ns)
        self.rows: dict[tuple[str, str], Row] = {}
        # chain root -> (its newest list decoded, a list of atoms; item count at each version)
        self.chains: dict[tuple[str, str], tuple[tuple, dict]] = {}
        self.absent: set[tuple[str, str]] = set()  # looked up, not stored

    # ------------------------------------------------------------------ fetching
    def fetch(self, conn: sqlite3.Connection, pairs: Iterable[tuple[str, str]]) -> None:
        """Fetch the rows of `pairs` and the delta chains they need (rows already held are
        kept: a (thread, namespace, channel, version) row never changes)."""
        cached = self.cache.entries
        wanted = [p for p in pairs if p not in self.rows and (*self.key, *p) not in cached]
        new = self._keyed(conn, wanted)
        if len(new) < len(wanted):
            for pair in set(wanted).difference(new):
                self.cache.keep((*self.key, *pair), ABSENT)
        ranges: dict[str, list[str]] = {}  # channel -> [lowest chain start, highest base]
        for channel, version in new:
            row = self.rows[(channel, version)]
            if row.type == DELTA and isinstance(row.base, str):
                low = row.start if isinstance(row.start, str) and row.start < row.base else row.base
                span = ranges.setdefault(channel, [low, row.base])
                span[0], span[1] = min(span[0], low), max(span[1], row.base)
        for channel, (low, high) in ranges.items():
            for channel_, version, *rest in conn.execute(_RANGE, (*self.key, channel, low, high)):
                if (channel_, version) not in self.rows:
                    self.rows[(channel_, version)] = Row(*rest)
                    new.append((channel_, version))
        for _ in range(MAX_CHAIN):  # bases outside those ranges (forks, old files): by key
            missing = set()
            for channel, version in new:
                row = self.rows[(channel, version)]
                if row.type == DELTA and isinstance(row.base, str):
                    missing.add((channel, row.base))
            missing = {m for m in missing if m not in self.rows and m not in self.absent}
            if not missing:
                break
            new = self._keyed(conn, list(missing))
            self.absent |= missing.difference(new)

    def _keyed(self, conn: sqlite3.Connection, pairs: list[tuple[str, str]]) -> list:
        found = []
        for i in range(0, len(pairs), _CHUNK):
            chunk = pairs[i : i + _CHUNK]
            sql = _KEYED.format(pairs=", ".join(["(?, ?)"] * len(chunk)))
            params = [x for pair in chunk for x in pair]
            for channel, version, *rest in conn.execute(sql, (*params, *self.key)):
                self.rows[(channel, version)] = Row(*rest)
                found.append((channel, version))
        return found

    # ------------------------------------------------------------------ decoding
    def has(self, channel: str, version: str) -> bool:
        """Whether a value is stored (a channel without one is empty in that checkpoint)."""
        if (channel, version) in self.rows:
            return True
        return self.cache.entries.get((*self.key, channel, version), ABSENT) is not ABSENT

    def holds(self, pairs: Iterable[tuple[str, str]]) -> bool:
        """Whether `fetch(pairs)` would need no query (every pair read or cached)."""
        rows, cached, key = self.rows, self.cache.entries, self.key
        return all(p in rows or (*key, *p) in cached for p in pairs)

    def values_of(self, versions: dict) -> dict:
        """channel -> value of a checkpoint's `versions` (fetched), the empty ones left out."""
        rows, entries, (thread_id, ns) = self.rows, self.cache.entries, self.key
        out = {}
        for channel, version in versions.items():
            if type(version) is not str:
                version = str(version)
            key = (thread_id, ns, channel, version)
            cached = entries.get(key)
            if cached is not None and cached is not ABSENT:
                entries.move_to_end(key)
                out[channel] = _handed_out(cached)
            elif (channel, version) in rows:
                try:
                    out[channel] = self._value((channel, version))
                except DeserializationError as exc:
                    raise DeserializationError(f"the value of channel {channel!r}: {exc}") from None
        return out

    def value(self, channel: str, version: str) -> Any:
        """The value stored for `channel` at `version`; DeserializationError if it is bad."""
        cached = self.cache.get((*self.key, channel, version))
        if cached is not None:
            return _handed_out(cached)
        try:
            return self._value((channel, version))
        except DeserializationError as exc:
            raise DeserializationError(f"the value of channel {channel!r}: {exc}") from None

    def _value(self, key: tuple[str, str]) -> Any:
        row = self.rows[key]
        if row.type != DELTA:
            value = self.serde.loads_typed((row.type, row.value))
            self.cache.keep((*self.key, *key), value)
            return value
        chain = self._chain(key, row)
        root = chain[-1][0]
        shared = self.chains.get(root)
        if shared is not None and key in shared[1]:  # a prefix of a list already decoded
            return list(shared[0][: shared[1][key]])
        value, counts = self._joined(chain)
        if self.cache.keep((*self.key, *key), value):
            self.chains[root] = (self.cache.entries[(*self.key, *key)], counts)
        return value

    def _chain(self, key: tuple[str, str], row: Row) -> list[tuple[tuple[str, str], Row]]:
        """The rows of a delta chain, newest first, ending at the full copy."""
        chain = [(key, row)]
        while row.type == DELTA:
            if len(chain) > MAX_CHAIN:
                raise DeserializationError(f"a list delta chain longer than {MAX_CHAIN} rows")
            base = (key[0], row.base)
            row = self.rows.get(base) if isinstance(row.base, str) else None
            if row is None:
                raise DeserializationError("incomplete: a list delta lost its base")
            chain.append((base, row))
        return chain

    def _joined(self, chain: list[tuple[tuple[str, str], Row]]) -> tuple[Any, dict]:
        """The chain's list decoded from its joined bytes, and the item count at each row."""
        root_key, root = chain[-1]
        head = array_header(root.value) if root.type != DELTA else None
        if head is None:  # the chain must start at a full copy of a list
            raise DeserializationError("incomplete: a list delta lost its base")
        total, counts = head[0], {root_key: head[0]}
        pieces = [memoryview(root.value)[head[1] :]]
        for key, row in reversed(chain[:-1]):
            total += _delta_items(row)
            counts[key] = total
            pieces.append(row.value)
        if not 0 <= total < 2**32:
            raise DeserializationError("a list delta chain claims an impossible length")
        value = self.serde.loads_typed(("msgpack", pack_array_header(total) + b"".join(pieces)))
        if type(value) is not list or len(value) != total:
            raise DeserializationError("a list delta chain does not hold the items it claims")
        return value, counts


class ValueCache:
    """Decoded values of immutable content (an atom, or a list of atoms), by (thread,
    namespace, channel, version): a stored row never changes, so a value read once is not
    fetched or decoded again. Lists are kept as tuples and handed out as new lists; bounded
    by `MAX_ITEMS` items in all (least recently used first out)."""

    MAX_ITEMS = 1 << 20

    def __init__(self) -> None:
        self.entries: OrderedDict[tuple, Any] = OrderedDict()
        self.items = 0

    def get(self, key: tuple) -> Any:
        value = self.entries.get(key)
        if value is not None:
            self.entries.move_to_end(key)
        return value

    def __contains__(self, key: tuple) -> bool:
        return key in self.entries

    def values(self, thread_id: str, ns: str, versions: dict) -> dict | None:
        """channel -> value of a checkpoint's `versions` if the cache holds them all (the
        empty ones left out), else None."""
        found = self.held(thread_id, ns, versions)
        return None if found is None else handed_out(found)

    def held(self, thread_id: str, ns: str, versions: dict) -> dict | None:
        """`values` as the cache holds them (not yet handed out, see `handed_out`): a listing
        takes them with each row, and copies a list only when it builds the tuple."""
        entries, out = self.entries, {}
        for channel, version in versions.items():
            key = (thread_id, ns, channel, version if type(version) is str else str(version))
            cached = entries.get(key)
            if cached is None:
                return None
            if cached is not ABSENT:
                entries.move_to_end(key)
                out[channel] = cached
        return out

    def keep(self, key: tuple, value: Any) -> bool:
        """Remember `value` if its content is immutable; whether it was."""
        kind = type(value)
        if kind is list:
            if not _all_atoms(value) or len(value) > self.MAX_ITEMS // 4:
                return False
            value, size = tuple(value), len(value)
        elif value is None or value is ABSENT:
            value, size = _NULL if value is None else value, 1
        elif kind in _ATOMS:
            size = 1
        else:
            return False
        old = self.entries.pop(key, None)
        self.items += size - (len(old) if type(old) is tuple else 0 if old is None else 1)
        self.entries[key] = value
        while self.items > self.MAX_ITEMS:
            _, dropped = self.entries.popitem(last=False)
            self.items -= len(dropped) if type(dropped) is tuple else 1
        return True

    def stored(self, key: tuple) -> None:
        """A row was written for `key`: a re-put may store a value a checkpoint lacked."""
        if self.entries.get(key) is ABSENT:
            del self.entries[key]
            self.items -= 1

    def forget(self, thread_id: str | None = None) -> None:
        if thread_id is None:
            self.entries.clear()
            self.items = 0
            return
        for key in [k for k in self.entries if k[0] == thread_id]:
            dropped = self.entries.pop(key)
            self.items -= len(dropped) if type(dropped) is tuple else 1


def handed_out(held: dict) -> dict:
    """Values of `ValueCache.held`, each as a reader gets it (`_handed_out` called only for the
    values it changes: most are handed out as held)."""
    for channel, cached in held.items():
        if type(cached) is tuple or cached is _NULL:
            held[channel] = _handed_out(cached)
    return held


def _handed_out(cached: Any) -> Any:
    """A cached value as a reader gets it: a list as a new list (kept as a tuple)."""
    return None if cached is _NULL else list(cached) if type(cached) is tuple else cached


def _delta_items(row: Row) -> int:
    if row.type != DELTA or not isinstance(row.value, bytes) or type(row.items) is not int:
        raise DeserializationError("a list delta row is not a delta")
    if not 0 <= row.items < 2**32:
        raise DeserializationError("a list delta chain claims an impossible length")
    return row.items


def _all_atoms(items: list) -> bool:
    return set(map(type, items)) <= _ATOMS
