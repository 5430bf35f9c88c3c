"""InMemorySaver: checkpoints in a dict, each channel value stored once per version."""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from engine.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    SerializerProtocol,
    get_checkpoint_id,
    get_checkpoint_metadata,
)


class InMemorySaver(BaseCheckpointSaver):
    """Keeps every thread's history in memory; for tests, demos and short-lived runs.

    A checkpoint stores only channel versions; each (channel, version) value is stored once, so a
    superstep costs what it changed. Values are kept serialized (by `serde`, never pickle), so
    later in-place mutation by user code cannot rewrite history, and what a thread holds here
    is exactly what a persistent saver would hold.
    """

    blocks_on_io = False  # all CPU: a background thread would only add hand-offs

    def __init__(self, *, serde: SerializerProtocol | None = None) -> None:
        super().__init__(serde=serde)
        # thread_id -> ns -> checkpoint_id -> (checkpoint without values, metadata, parent_id)
        self.storage: defaultdict[str, dict[str, dict[str, tuple]]] = defaultdict(
            lambda: defaultdict(dict)
        )
        # (thread_id, ns, channel, version) -> serialized value
        self.blobs: dict[tuple[str, str, str, Any], Any] = {}
        # (thread_id, ns, checkpoint_id) -> {(task_id, idx): (task_id, channel, serialized, path)}
        self.writes: defaultdict[tuple[str, str, str], dict] = defaultdict(dict)
        self._lock = threading.RLock()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    # -- reading
    def _tuple(self, thread_id: str, ns: str, checkpoint_id: str) -> CheckpointTuple:
        saved, metadata, parent_id = self.storage[thread_id][ns][checkpoint_id]
        loads = self.serde.loads_typed
        values = {}
        for channel, version in saved["channel_versions"].items():
            blob = self.blobs.get((thread_id, ns, channel, version))
            if blob is not None:
                values[channel] = loads(blob)
        checkpoint: Checkpoint = {**saved, "channel_values": values}  # type: ignore[typeddict-item]
        stored = self.writes[(thread_id, ns, checkpoint_id)]
        # langgraph's order: the order a superstep applies its tasks' writes in
        order = sorted(stored, key=lambda slot: (stored[slot][3], *slot))
        writes = [
            (task_id, channel, loads(value))
            for task_id, channel, value, _ in map(stored.get, order)
        ]
        config = {
            "configurable": {
                "thread_id": thread_id,
                "checkpoint_ns": ns,
                "checkpoint_id": checkpoint_id,
            }
        }
        parent = (
            {
                "configurable": {
                    "thread_id": thread_id,
                    "checkpoint_ns": ns,
                    "checkpoint_id": parent_id,
                }
            }
            if parent_id
            else None
        )
        return CheckpointTuple(config, checkpoint, loads(metadata), parent, writes)

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
    def put(
        self,
        config: dict,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> dict:
        conf = config["configurable"]
        thread_id, ns = conf["thread_id"], conf.get("checkpoint_ns", "")
        values = checkpoint["channel_values"]
        dumps = self.serde.dumps_typed
        blobs = {
            (thread_id, ns, channel, version): dumps(values[channel])
            for channel, version in new_versions.items()
            if channel in values
        }
        stored_metadata = dumps(get_checkpoint_metadata(config, metadata))
        with self._lock:
            self.blobs.update(blobs)
            # the loop bumps versions in place later: keep copies, not its dicts
            saved = {
                **{k: v for k, v in checkpoint.items() if k != "channel_values"},
                "channel_versions": dict(checkpoint["channel_versions"]),
                "versions_seen": {k: dict(v) for k, v in checkpoint["versions_seen"].items()},
            }
            self.storage[thread_id][ns][checkpoint["id"]] = (
                saved,
                stored_metadata,
                conf.get("checkpoint_id"),
            )
        return {
            "configurable": {
                "thread_id": thread_id,
                "checkpoint_ns": ns,
                "checkpoint_id": checkpoint["id"],
            }
        }

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


MemorySaver = InMemorySaver
"""Old name, kept for compatibility."""

__all__ = ["InMemorySaver", "MemorySaver"]
