"""Writing list channels as deltas: a list that extends this saver's previous version of the
channel is stored as the appended items, with a reference to that version.

A full copy is written again once the deltas since the last one outgrow it (`DELTA_RATIO`) or
the chain reaches `CHAIN_ROWS` rows, so a read fetches at most that many rows (one range scan,
from the row's `chain_start`) and the value's own size, while a list growing by k bytes a step
costs O(k) a checkpoint (amortised). The prefix test compares serialized bytes, so a value
mutated in place is never mistaken for an extension.
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from typing import NamedTuple

from engine.checkpoint.serde.msgpack_arrays import array_header

DELTA = "delta"
DELTA_RATIO = 2
"""A full copy is written once the deltas since the last one exceed this many times its size."""
MIN_DELTA_BUDGET = 16 * 1024
"""Small lists are not copied every few steps: deltas may always add up to this many bytes."""
CHAIN_ROWS = 128
"""Most rows this saver writes in one chain (a full copy and its deltas): what a read fetches."""
MAX_CHAIN = 256
"""Most rows a stored chain may span when read (files of schema 1 allowed this many)."""
_CACHE_SIZE = 256  # (thread, ns, channel) entries remembered for delta detection


class ListState(NamedTuple):
    """What this saver last wrote for a list channel: enough to write the next as a delta."""

    version: str
    items: int
    data: bytes  # the full serialized list
    header: int  # length of the msgpack array header in `data`
    chain: int  # rows since the last full copy
    delta_bytes: int  # bytes written as deltas since the last full copy
    full_bytes: int  # size of the last full copy
    start: str  # version of the last full copy


class DeltaWriter:
    """Turns a channel value into its `blobs` row: (type, value, base_version, items,
    chain_start), a delta when it extends the list last written for that channel."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.lists: OrderedDict[tuple[str, str, str], ListState] = OrderedDict()

    def row(self, conn: sqlite3.Connection, key: tuple[str, str, str], version: str,
            type_: str, data: bytes) -> tuple:  # fmt: skip
        head = array_header(data) if self.enabled and type_ == "msgpack" else None
        if head is None:
            return (type_, data, None, None, None)
        items, header = head
        last = self.lists.get(key)
        if last is not None and last.version == version:  # a re-put: the row is already there
            return (type_, data, None, items, None)
        self.lists.pop(key, None)
        if last is not None and self._extends(conn, key, last, items, data, header):
            suffix = data[header + len(last.data) - last.header :]
            self._remember(key, last._replace(
                version=version, items=items, data=data, header=header, chain=last.chain + 1,
                delta_bytes=last.delta_bytes + len(suffix),
            ))  # fmt: skip
            return (DELTA, suffix, last.version, items - last.items, last.start)
        self._remember(key, ListState(version, items, data, header, 0, 0, len(data), version))
        return (type_, data, None, items, None)

    def _extends(self, conn: sqlite3.Connection, key: tuple, last: ListState, items: int,
                 data: bytes, header: int) -> bool:  # fmt: skip
        if items < last.items or last.chain + 1 >= CHAIN_ROWS:
            return False
        suffix_len = len(data) - header - (len(last.data) - last.header)
        budget = max(DELTA_RATIO * last.full_bytes, MIN_DELTA_BUDGET)
        if suffix_len < 0 or last.delta_bytes + suffix_len > budget:
            return False
        if not data.startswith(memoryview(last.data)[last.header :], header):
            return False
        # the base must still be there (another connection may have deleted the thread)
        return conn.execute(
            "SELECT 1 FROM blobs WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? "
            "AND version = ?",
            (*key, last.version),
        ).fetchone() is not None  # fmt: skip

    def _remember(self, key: tuple, state: ListState) -> None:
        self.lists[key] = state
        if len(self.lists) > _CACHE_SIZE:
            self.lists.popitem(last=False)

    def forget(self, thread_id: str | None = None) -> None:
        """Drop what was remembered (of one thread): its rows may be gone or rolled back."""
        if thread_id is None:
            self.lists.clear()
        for key in [k for k in self.lists if k[0] == thread_id]:
            del self.lists[key]
