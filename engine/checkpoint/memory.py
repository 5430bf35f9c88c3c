"""InMemorySaver: checkpoints in a dict, each channel value stored once per version.

Growing lists (an add-reducer history) are stored as deltas: when a list channel's new value
extends the value this saver stored for the channel's previous version, and the shared prefix
is made of the very same objects (identity, not equality) of immutable types (str, bytes, int,
float, bool, None and tuples of those), only the appended items are serialized, with a reference
to the previous version. Identity plus immutability means the prefix serializes exactly as it did
when the previous version was stored, so a read (full copy + deltas) returns exactly the value
that was put. Lists with mutable items (dicts, messages) are always serialized in full, so
in-place mutation by user code can never make history wrong. A full copy is written again after
`MAX_CHAIN` deltas, or once the deltas outgrow `DELTA_RATIO` times the last full copy, so a read
decodes at most `MAX_CHAIN + 1` pieces; it is the pieces' serialized items joined, not the list
serialized again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from collections.abc import Iterator, Sequence
from operator import is_
from typing import Any, NamedTuple

from engine.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    SerializerProtocol,
    checkpoint_config,
    get_checkpoint_id,
    get_checkpoint_metadata,
)
from engine.checkpoint.prune import copied_metadata, kept_checkpoints, prune_threads
from engine.checkpoint.serde.jsonplus import JsonPlusSerializer
from engine.checkpoint.serde.msgpack_arrays import array_header, pack_array_header

MAX_CHAIN = 64
"""Most deltas between two full copies of a list channel's value."""
DELTA_RATIO = 2
"""A full copy is written once the deltas since the last one exceed this many times its size."""
MIN_DELTA_BUDGET = 16 * 1024
"""Small lists are not copied every few steps: deltas may always add up to this many bytes."""
_LIVE_SIZE = 256  # (thread, ns, channel) entries remembered for delta detection

_ATOMS = frozenset({str, bytes, int, float, bool, type(None)})


def _immutable(items: Any) -> bool:
    """Whether every item is an atom or a tuple of such (recursively)."""
    types = set(map(type, items))
    if types <= _ATOMS:
        return True
    if not types <= _ATOMS | {tuple}:
        return False
    return all(_immutable(item) for item in items if type(item) is tuple)


def _joined(pieces: list[bytes], items: int) -> bytes:
    """One msgpack array of every item of `pieces` (msgpack arrays), in order."""
    body: list[Any] = [pack_array_header(items)]
    body += [memoryview(piece)[array_header(piece)[1] :] for piece in pieces]  # no copies
    return b"".join(body)


class _Delta(NamedTuple):
    """A stored list value: the value of `base` (same channel) followed by `suffix`'s items."""

    base: Any  # the version this one extends
    suffix: tuple[str, bytes]  # the appended items, serialized as a list


class _Live:
    """The list this saver last stored for a channel: what the next version may extend.
    Updated in place as versions are stored (no new record a step)."""

    __slots__ = ("version", "items", "pieces", "chain", "delta_bytes", "full_bytes")

    def __init__(self, version: Any, items: list, full: bytes) -> None:
        self.version = version
        self.items = items  # a private copy of its items (immutable objects), compared by identity
        self.pieces = [full]  # the serialized lists stored since (and with) the last full copy
        self.chain = 0  # deltas since the last full copy
        self.delta_bytes = 0  # bytes stored as deltas since the last full copy
        self.full_bytes = len(full)  # size of the last full copy


class InMemorySaver(BaseCheckpointSaver):
    """Keeps every thread's history in memory; for tests, demos and short-lived runs.

    A checkpoint stores only channel versions; each (channel, version) value is stored once, so a
    superstep costs what it changed (a growing list: its new items, see the module docstring).
    Values are kept serialized (by `serde`, never pickle), so later in-place mutation by user
    code cannot rewrite history, and what a thread holds here is exactly what a persistent saver
    would hold. Reads return new objects: changing them changes nothing stored. The loop hands
    its checkpoints over with `put_unshared`, and they are serialized only when read.
    """

    blocks_on_io = False  # all CPU: a background thread would only add hand-offs

    def __init__(self, *, serde: SerializerProtocol | None = None) -> None:
        super().__init__(serde=serde)
        # thread_id -> ns -> checkpoint_id -> (checkpoint without values, metadata, parent_id)
        self.storage: defaultdict[str, dict[str, dict[str, tuple]]] = defaultdict(
            lambda: defaultdict(dict)
        )
        # (thread_id, ns, channel, version) -> serialized value, or a _Delta of a list
        self.blobs: dict[tuple[str, str, str, Any], Any] = {}
        # (thread_id, ns, checkpoint_id) -> {(task_id, idx): (task_id, channel, serialized, path)}
        self.writes: defaultdict[tuple[str, str, str], dict] = defaultdict(dict)
        self._lock = threading.RLock()
        self._deltas = isinstance(self.serde, JsonPlusSerializer)
        self._joins = type(self.serde) is JsonPlusSerializer  # a list is one msgpack array
        self._live: OrderedDict[tuple[str, str, str], _Live] = OrderedDict()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    # -- reading
    def _value(self, thread_id: str, ns: str, channel: str, blob: Any) -> Any:
        loads = self.serde.loads_typed
        if type(blob) is not _Delta:
            return loads(blob)
        suffixes = []
        while type(blob) is _Delta:
            suffixes.append(blob.suffix)
            blob = self.blobs[(thread_id, ns, channel, blob.base)]
        value = loads(blob)
        for suffix in reversed(suffixes):
            value += loads(suffix)
        return value

    def _decoded(self, stored: Any) -> Any:
        """A stored checkpoint (without values) or metadata, as new objects. What put_unshared
        kept as it was makes now the round trip through the serializer that put makes."""
        if type(stored) is dict:
            stored = self.serde.dumps_typed(stored)
        return self.serde.loads_typed(stored)

    def _tuple(self, thread_id: str, ns: str, checkpoint_id: str) -> CheckpointTuple:
        saved, metadata, parent_id = self.storage[thread_id][ns][checkpoint_id]
        loads = self.serde.loads_typed
        saved = self._decoded(saved)
        values = {}
        blobs = self.blobs
        for channel, version in saved["channel_versions"].items():
            blob = blobs.get((thread_id, ns, channel, version))
            if blob is not None:
                values[channel] = self._value(thread_id, ns, channel, blob)
        checkpoint: Checkpoint = {**saved, "channel_values": values}  # type: ignore[typeddict-item]
        stored = self.writes[(thread_id, ns, checkpoint_id)]
        # langgraph's order: the order a superstep applies its tasks' writes in
        order = sorted(stored, key=lambda slot: (stored[slot][3], *slot))
        writes = [
            (task_id, channel, loads(value))
            for task_id, channel, value, _ in map(stored.get, order)
        ]
        metadata = self._decoded(metadata)
        parent = checkpoint_config(thread_id, ns, parent_id) if parent_id else None
        return CheckpointTuple(
            checkpoint_config(thread_id, ns, checkpoint_id), checkpoint, metadata, parent, writes
        )

    def get_tuple(self, config: dict) -> CheckpointTuple | None:
        conf = config["configurable"]
        thread_id, ns = conf["thread_id"], conf.get("checkpoint_ns", "")
        with self._lock:
            checkpoints = self.storage.get(thread_id, {}).get(ns)
            if not checkpoints:
                return None
            checkpoint_id = get_checkpoint_id(config) or max(checkpoints)
            if checkpoint_id not in checkpoints:
                return None
            return self._tuple(thread_id, ns, checkpoint_id)

    def list_threads(self) -> list[str]:
        with self._lock:
            return sorted(t for t, spaces in self.storage.items() if any(spaces.values()))

    def list(
        self,
        config: dict | None,
        *,
        filter: dict[str, Any] | None = None,
        before: dict | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        conf = (config or {}).get("configurable", {})
        wanted_ns = conf.get("checkpoint_ns")
        wanted_id = conf.get("checkpoint_id")
        before_id = get_checkpoint_id(before) if before else None
        with self._lock:
            threads = [conf["thread_id"]] if "thread_id" in conf else list(self.storage)
            found = []
            for thread_id in threads:
                for ns, checkpoints in self.storage.get(thread_id, {}).items():
                    if wanted_ns is not None and ns != wanted_ns:
                        continue
                    for checkpoint_id in sorted(checkpoints, reverse=True):
                        if wanted_id and checkpoint_id != wanted_id:
                            continue
                        if before_id and checkpoint_id >= before_id:
                            continue
                        item = self._tuple(thread_id, ns, checkpoint_id)
                        if filter and any(item.metadata.get(k) != v for k, v in filter.items()):
                            continue
                        found.append(item)
                        if limit is not None and len(found) >= limit:
                            break
                    if limit is not None and len(found) >= limit:
                        break
        yield from found

    # -- writing
    def _list_blob(self, key: tuple[str, str, str], version: Any, value: list) -> tuple[Any, Any]:
        """What to store for a list channel's new version (its serialized value, or a _Delta),
        and what to remember of it for the next version (a _Live, or None)."""
        live = self._live.get(key)
        if live is not None:
            size = len(live.items)
            if (
                len(value) >= size
                and all(map(is_, live.items, value))
                and _immutable(suffix := value[size:])
            ):
                return self._extended(live, version, suffix), live
        stored = self.serde.dumps_typed(value)
        following = _Live(version, list(value), stored[1]) if _immutable(value) else None
        return stored, following

    def _extended(self, live: _Live, version: Any, suffix: list) -> Any:
        """Store `suffix` appended to `live`'s list, as a delta, or as a full copy once the
        chain is long enough (put() forgets `live` if the put fails)."""
        stored = self.serde.dumps_typed(suffix)
        base, live.version = live.version, version
        live.items += suffix
        live.pieces.append(stored[1])
        delta_bytes = live.delta_bytes + len(stored[1])
        if live.chain < MAX_CHAIN and delta_bytes <= max(
            DELTA_RATIO * live.full_bytes, MIN_DELTA_BUDGET
        ):
            live.chain += 1
            live.delta_bytes = delta_bytes
            return _Delta(base, stored)
        # the pieces' items under one header are the whole list serialized: no item is
        # serialized again (a serde of another kind serializes the list again)
        if self._joins:
            full = ("msgpack", _joined(live.pieces, len(live.items)))
        else:
            full = self.serde.dumps_typed(live.items)
        live.pieces = [full[1]]
        live.chain = live.delta_bytes = 0
        live.full_bytes = len(full[1])
        return full

    def _remember(self, key: tuple[str, str, str], live: _Live | None) -> None:
        self._live.pop(key, None)
        if live is not None:
            self._live[key] = live
            if len(self._live) > _LIVE_SIZE:
                self._live.popitem(last=False)

    def put(
        self,
        config: dict,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> dict:
        dumps = self.serde.dumps_typed
        stored_metadata = dumps(get_checkpoint_metadata(config, metadata))
        self._put(config, checkpoint, stored_metadata, new_versions, dumps)
        conf = config["configurable"]
        return checkpoint_config(conf["thread_id"], conf.get("checkpoint_ns", ""), checkpoint["id"])

    def put_unshared(
        self,
        config: dict,
        checkpoint: Checkpoint,
        stored_metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> None:
        """put(), for a caller that never changes in place what `checkpoint` holds (its
        versions, a node's versions_seen) or the metadata: the loop, whose versions are
        copy-on-write. They are kept as they are and serialized when read, so a superstep
        costs what it changed, not a copy of every channel's version. The values are serialized
        now, as put does: user code may change them in place. `stored_metadata` is what put
        stores, get_checkpoint_metadata's (the loop works out the config's part once a run)."""
        self._put(config, checkpoint, stored_metadata, new_versions)

    @property
    def keeps_unshared(self) -> bool:
        """Whether the loop hands its checkpoints over with put_unshared: not to a subclass that
        overrides put, which expects every checkpoint there."""
        return type(self).put is InMemorySaver.put

    def _put(
        self,
        config: dict,
        checkpoint: Checkpoint,
        stored_metadata: Any,
        new_versions: ChannelVersions,
        dumps: Any = None,
    ) -> None:
        """Store a checkpoint's new values and the checkpoint itself: serialized by `dumps`,
        or (None) as it is, for put_unshared."""
        conf = config["configurable"]
        thread_id, ns = conf["thread_id"], conf.get("checkpoint_ns", "")
        values = checkpoint["channel_values"]
        with self._lock:
            blobs, following = {}, {}
            try:
                for channel, version in new_versions.items():
                    key = (thread_id, ns, channel, version)
                    # a stored version never changes (later deltas may build on it)
                    if channel not in values or key in self.blobs:
                        continue
                    value = values[channel]
                    if self._deltas and type(value) is list:
                        blobs[key], following[key[:3]] = self._list_blob(key[:3], version, value)
                    else:
                        blobs[key] = self.serde.dumps_typed(value)
                        if self._live and key[:3] in self._live:  # no longer a list to extend
                            following[key[:3]] = None
            except BaseException:
                # nothing is stored; forget what _list_blob may have started to extend
                for channel in new_versions:
                    self._live.pop((thread_id, ns, channel), None)
                raise
            self.blobs.update(blobs)
            for live_key, live in following.items():
                self._remember(live_key, live)
            saved: Any = dict(checkpoint)
            del saved["channel_values"]
            # Serialized, as langgraph keeps them: a snapshot the caller cannot change later.
            if dumps is not None:
                saved = dumps(saved)
            self.storage[thread_id][ns][checkpoint["id"]] = (
                saved,
                stored_metadata,
                conf.get("checkpoint_id"),
            )

    def put_writes(
        self, config: dict, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        conf = config["configurable"]
        key = (conf["thread_id"], conf.get("checkpoint_ns", ""), conf["checkpoint_id"])
        dumps = self.serde.dumps_typed
        with self._lock:
            stored = self.writes[key]
            for idx, (channel, value) in enumerate(writes):
                slot = (task_id, WRITES_IDX_MAP.get(channel, idx))
                if slot[1] >= 0 and slot in stored:
                    continue
                stored[slot] = (task_id, channel, dumps(value), task_path)

    def delete_thread(self, thread_id: str) -> None:
        with self._lock:
            self.storage.pop(thread_id, None)
            for key in [k for k in self.writes if k[0] == thread_id]:
                del self.writes[key]
            for key in [k for k in self.blobs if k[0] == thread_id]:
                del self.blobs[key]
            for key in [k for k in self._live if k[0] == thread_id]:
                del self._live[key]

    # -- whole threads
    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        source, target = str(source_thread_id), str(target_thread_id)
        dumps = self.serde.dumps_typed
        with self._lock:
            for ns, checkpoints in self.storage.get(source, {}).items():
                copies = self.storage[target][ns]
                for checkpoint_id, (saved, metadata, parent_id) in checkpoints.items():
                    decoded = self._decoded(metadata)
                    if (copied := copied_metadata(decoded, source, target)) is not decoded:
                        metadata = dumps(copied)
                    copies[checkpoint_id] = (saved, metadata, parent_id)
            # what is stored never changes, so the copy shares it (a list's deltas name their
            # base by version, which the copy keeps)
            for (thread_id, *rest), blob in list(self.blobs.items()):
                if thread_id == source:
                    self.blobs.setdefault((target, *rest), blob)
            for (thread_id, *rest), stored in list(self.writes.items()):
                if thread_id == source and stored:
                    self.writes[(target, *rest)].update(stored)

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        prune_threads(thread_ids, strategy, self.delete_thread, self._keep_latest)

    def _keep_latest(self, thread_id: str) -> None:
        with self._lock:
            spaces = self.storage.get(thread_id, {})
            newest = {ns: checkpoint_config(thread_id, ns, max(ids))
                      for ns, ids in spaces.items() if ids}  # fmt: skip
            kept = kept_checkpoints(self.get_tuple, newest)
            for ns, checkpoints in spaces.items():
                for checkpoint_id in [c for c in checkpoints if c not in kept.get(ns, ())]:
                    del checkpoints[checkpoint_id]
                    self.writes.pop((thread_id, ns, checkpoint_id), None)
            self._drop_unused_blobs(thread_id)

    def _drop_unused_blobs(self, thread_id: str) -> None:
        """Drop the thread's values no checkpoint names any more (a list's delta keeps its
        base chain), and forget the lists the next put may extend: their rows may be gone."""
        used = set()
        for ns, checkpoints in self.storage.get(thread_id, {}).items():
            for saved, _, _ in checkpoints.values():
                for channel, version in self._decoded(saved)["channel_versions"].items():
                    key = (thread_id, ns, channel, version)
                    while key not in used and (blob := self.blobs.get(key)) is not None:
                        used.add(key)
                        if type(blob) is not _Delta:
                            break
                        key = (thread_id, ns, channel, blob.base)
        for key in [k for k in self.blobs if k[0] == thread_id and k not in used]:
            del self.blobs[key]
        for key in [k for k in self._live if k[0] == thread_id]:
            del self._live[key]


MemorySaver = InMemorySaver
"""Old name, kept for compatibility."""

__all__ = ["InMemorySaver", "MemorySaver"]
