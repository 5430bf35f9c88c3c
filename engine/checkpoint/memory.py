"""InMemorySaver: checkpoints in a dict, each channel value stored once per version."""

from __future__ import annotations

import pickle
import threading
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from engine.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    copy_checkpoint,
    get_checkpoint_id,
)

WRITES_IDX_MAP = {"__error__": -1, "__scheduled__": -2, "__interrupt__": -3, "__resume__": -4}
"""Special writes keep fixed slots, so a retry replaces them instead of piling up."""


def _freeze(value: Any) -> Any:
    # Pickle so later in-place mutation by user code cannot rewrite history.
    try:
        return (True, pickle.dumps(value, protocol=5))
    except Exception:
        return (False, value)


def _thaw(frozen: Any) -> Any:
    pickled, payload = frozen
    return pickle.loads(payload) if pickled else payload


class InMemorySaver(BaseCheckpointSaver):
    """Keeps every thread's history in memory; for tests, demos and short-lived runs.

    A checkpoint stores only channel versions; each (channel, version) value is stored once, so a
    superstep costs what it changed.
    """

    def __init__(self) -> None:
        # thread_id -> ns -> checkpoint_id -> (checkpoint without values, metadata, parent_id)
        self.storage: defaultdict[str, dict[str, dict[str, tuple]]] = defaultdict(
            lambda: defaultdict(dict)
        )
        # (thread_id, ns, channel, version) -> frozen value
        self.blobs: dict[tuple[str, str, str, Any], Any] = {}
        # (thread_id, ns, checkpoint_id) -> {(task_id, idx): (task_id, channel, frozen, path)}
        self.writes: defaultdict[tuple[str, str, str], dict] = defaultdict(dict)
        self._lock = threading.RLock()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    # -- reading
    def _tuple(self, thread_id: str, ns: str, checkpoint_id: str) -> CheckpointTuple:
        saved, metadata, parent_id = self.storage[thread_id][ns][checkpoint_id]
        values = {}
        for channel, version in saved["channel_versions"].items():
            blob = self.blobs.get((thread_id, ns, channel, version))
            if blob is not None:
                values[channel] = _thaw(blob)
        checkpoint: Checkpoint = {**saved, "channel_values": values}  # type: ignore[typeddict-item]
        writes = [
            (task_id, channel, _thaw(value))
            for task_id, channel, value, _ in self.writes[(thread_id, ns, checkpoint_id)].values()
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
        return CheckpointTuple(config, checkpoint, pickle.loads(metadata), parent, writes)

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
        with self._lock:
            for channel, version in new_versions.items():
                if channel in values:
                    self.blobs[(thread_id, ns, channel, version)] = _freeze(values[channel])
            saved = {k: v for k, v in copy_checkpoint(checkpoint).items() if k != "channel_values"}
            self.storage[thread_id][ns][checkpoint["id"]] = (
                saved,
                pickle.dumps(dict(metadata)),
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
        with self._lock:
            stored = self.writes[key]
            for idx, (channel, value) in enumerate(writes):
                slot = (task_id, WRITES_IDX_MAP.get(channel, idx))
                if slot[1] >= 0 and slot in stored:
                    continue
                stored[slot] = (task_id, channel, _freeze(value), task_path)

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
