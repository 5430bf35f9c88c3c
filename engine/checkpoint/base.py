"""The checkpoint format and the saver contract (langgraph's BaseCheckpointSaver).

A checkpoint is the state of every channel after one superstep, plus the versions that decide
what runs next. Savers address checkpoints by (thread_id, checkpoint_ns, checkpoint_id).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from random import random
from typing import TYPE_CHECKING, Any, Generic, Literal, NamedTuple, TypedDict, TypeVar

from engine._constants import MISSING
from engine.checkpoint.ids import utc_now_iso, uuid6
from engine.checkpoint.serde.base import SerializerProtocol, maybe_add_typed_methods
from engine.checkpoint.serde.jsonplus import JsonPlusSerializer
from engine.checkpoint.serde.types import _DeltaSnapshot

if TYPE_CHECKING:  # savers sit below the channels: loading one loads no channel (nor messages)
    from engine.channels.base import BaseChannel

ChannelVersions = dict[str, str | int | float]
PendingWrite = tuple[str, str, Any]
"""(task_id, channel, value): a write of a finished task not yet applied at a barrier."""

LATEST_VERSION = 4

V = TypeVar("V", int, float, str)
"""The type of a saver's channel versions: savers are annotated BaseCheckpointSaver[str]."""

WRITES_IDX_MAP = {"__error__": -1, "__scheduled__": -2, "__interrupt__": -3, "__resume__": -4}
"""Special writes keep fixed slots, so a retry replaces them instead of piling up."""

EXCLUDED_METADATA_KEYS = frozenset(
    {
        "thread_id",
        "checkpoint_id",
        "checkpoint_ns",
        "checkpoint_map",
        "langgraph_step",
        "langgraph_node",
        "langgraph_triggers",
        "langgraph_path",
        "langgraph_checkpoint_ns",
    }
)

# Special writes keep one fixed slot per task (negative index), so a newer one replaces the old.
WRITES_IDX_MAP = {"__error__": -1, "__scheduled__": -2, "__interrupt__": -3, "__resume__": -4}


class Checkpoint(TypedDict):
    """State snapshot at a superstep boundary."""

    v: int
    """Format version of this dict."""
    id: str
    """Time-ordered id; string order is creation order."""
    ts: str
    """ISO 8601 creation time."""
    channel_values: dict[str, Any]
    """Saved value of each non-empty channel."""
    channel_versions: ChannelVersions
    """Monotonic version of each channel; bumped whenever its value changes."""
    versions_seen: dict[str, ChannelVersions]
    """For each node, the trigger-channel versions it consumed when it last ran."""
    updated_channels: list[str] | None
    """Channels the superstep that made this checkpoint updated."""


class CheckpointMetadata(TypedDict, total=False):
    source: Literal["input", "loop", "update", "fork"]
    """input: from invoke's input; loop: after a superstep; update: update_state; fork: a copy."""
    step: int
    """-1 for the input checkpoint, 0 for the first loop checkpoint, and so on."""
    parents: dict[str, str]
    """checkpoint_ns -> checkpoint_id of the enclosing graphs' checkpoints."""
    run_id: str


class DeltaChannelHistory(TypedDict, total=False):
    """What a DeltaChannel's value at a checkpoint is rebuilt from: the nearest stored value
    above it (`seed`, absent: start empty) and the writes since, oldest first."""

    writes: list[PendingWrite]
    seed: Any


class CheckpointTuple(NamedTuple):
    config: dict
    checkpoint: Checkpoint
    metadata: CheckpointMetadata
    parent_config: dict | None = None
    pending_writes: list[PendingWrite] | None = None


def empty_checkpoint() -> Checkpoint:
    return Checkpoint(
        v=LATEST_VERSION,
        id=uuid6(clock_seq=-2),
        ts=utc_now_iso(),
        channel_values={},
        channel_versions={},
        versions_seen={},
        updated_channels=None,
    )


def copy_checkpoint(checkpoint: Checkpoint) -> Checkpoint:
    return Checkpoint(
        v=checkpoint["v"],
        id=checkpoint["id"],
        ts=checkpoint["ts"],
        channel_values=dict(checkpoint["channel_values"]),
        channel_versions=dict(checkpoint["channel_versions"]),
        versions_seen={k: dict(v) for k, v in checkpoint["versions_seen"].items()},
        updated_channels=checkpoint.get("updated_channels"),
    )


def create_checkpoint(
    checkpoint: Checkpoint,
    channels: Mapping[str, BaseChannel] | None,
    step: int,
    *,
    id: str | None = None,
    updated_channels: Sequence[str] | None = None,
    channels_to_snapshot: set[str] | None = None,
    values: dict[str, Any] | None = None,
) -> Checkpoint:
    """A new checkpoint (new id and time) holding the channels' current values.

    Like langgraph's, it shares `channel_versions` and `versions_seen` with `checkpoint`, which
    the caller replaces by the new one: a saver copies (or serializes) what it keeps, and a
    put made later, in the background, is given a `copy_checkpoint`. `values`: the channels'
    values, when the caller knows them already (a loop that tracks what changed).
    """
    if values is None and channels is None:
        values = dict(checkpoint["channel_values"])
    elif values is None:
        versions = checkpoint["channel_versions"]
        values = {
            name: value
            for name, channel in channels.items()
            if name in versions and (value := channel.checkpoint()) is not MISSING
        }
        for name in channels_to_snapshot or ():
            if name in versions and channels[name].is_available():
                values[name] = _DeltaSnapshot(channels[name].get())
    return {  # a literal: a third cheaper than calling the TypedDict, once per checkpoint
        "v": LATEST_VERSION,
        "id": id or uuid6(clock_seq=step),
        "ts": utc_now_iso(),
        "channel_values": values,
        "channel_versions": checkpoint["channel_versions"],
        "versions_seen": checkpoint["versions_seen"],
        "updated_channels": sorted(updated_channels) if updated_channels is not None else None,
    }


def checkpoint_config(thread_id: str, ns: str, checkpoint_id: str) -> dict:
    """The config that addresses one stored checkpoint."""
    return {
        "configurable": {
            "thread_id": thread_id,
            "checkpoint_ns": ns,
            "checkpoint_id": checkpoint_id,
        }
    }


def get_checkpoint_id(config: dict) -> str | None:
    return config.get("configurable", {}).get("checkpoint_id")


_SKIPPED_KEYS: set[str] = set(EXCLUDED_METADATA_KEYS)
"""Config keys never copied into metadata: the excluded ones, and the `__private` ones seen so
far (one set lookup per key, instead of two and a method call, at every checkpoint)."""


def get_checkpoint_metadata(config: dict, metadata: CheckpointMetadata) -> CheckpointMetadata:
    """The metadata a saver stores: the loop's, plus the run's scalar config values.

    Like langgraph, scalar entries of `config["metadata"]` and `config["configurable"]` are
    copied in (not overriding the loop's keys, skipping ids and `__private` keys); NUL
    characters are dropped from strings.
    """
    out: dict[str, Any] = dict(metadata)
    for key, value in metadata.items():
        if isinstance(value, str) and (type(value) is not str or "\u0000" in value):
            out[key] = value.replace("\u0000", "")
    skipped = _SKIPPED_KEYS
    for source in (config.get("metadata"), config.get("configurable")):
        # once the run's private keys are known, usually every key is one to skip
        if not source or skipped.issuperset(source):
            continue
        for key, value in source.items():
            if key in skipped or key in out:
                continue
            if key.startswith("__"):
                if len(skipped) < 4096:  # the run's own keys, the same at every checkpoint
                    skipped.add(key)
                continue
            if isinstance(value, str):
                out[key] = value.replace("\u0000", "")
            elif isinstance(value, (int, bool, float)):
                out[key] = value
    return out  # type: ignore[return-value]


def version_counter(version: str | int | float | None) -> int:
    """The counter part of a channel version (`<counter>.<random>` strings, or a number)."""
    if type(version) is str:  # the common case first: one per checkpoint
        return int(version.partition(".")[0])
    if version is None:
        return 0
    return int(version)


class BaseCheckpointSaver(Generic[V]):
    """Stores checkpoints and pending writes; subclasses implement the sync methods.

    The async methods run the sync ones in a worker thread (inline when the saver does not
    block on I/O) unless a subclass overrides them, so one implementation serves both APIs.
    `serde` turns values into bytes (never pickle).
    """

    serde: SerializerProtocol = JsonPlusSerializer()
    blocks_on_io: bool = True
    """Whether put/put_writes wait on I/O: durability "async" then runs them in the background."""

    def batch(self) -> AbstractContextManager[None]:
        """Group the puts and put_writes made inside into one transaction, where the storage
        has transactions; background saves use it to commit queued work together."""
        return nullcontext()

    def __init__(self, *, serde: SerializerProtocol | None = None) -> None:
        if serde is not None:
            self.serde = maybe_add_typed_methods(serde)

    def get(self, config: dict) -> Checkpoint | None:
        if value := self.get_tuple(config):
            return value.checkpoint
        return None

    def get_tuple(self, config: dict) -> CheckpointTuple | None:
        raise NotImplementedError

    def list(
        self,
        config: dict | None,
        *,
        filter: dict[str, Any] | None = None,
        before: dict | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        raise NotImplementedError

    def list_threads(self) -> list[str]:
        """The ids of the threads with a checkpoint, sorted. Savers override it to read the ids
        alone: this fallback reads (decodes) every checkpoint."""
        return sorted({t.config["configurable"]["thread_id"] for t in self.list(None)})

    def put(
        self,
        config: dict,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> dict:
        raise NotImplementedError

    def put_writes(
        self, config: dict, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        raise NotImplementedError

    def delete_thread(self, thread_id: str) -> None:
        raise NotImplementedError

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Delete the checkpoints and writes the given runs made."""
        raise NotImplementedError

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Copy every checkpoint of a thread (each namespace, its whole parent chain) and their
        writes to another thread id."""
        raise NotImplementedError

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """Shrink threads: "keep_latest" keeps each namespace's newest checkpoint (and the
        ancestors its DeltaChannels are rebuilt from, see `engine.checkpoint.prune`);
        "delete" removes the threads."""
        raise NotImplementedError

    def get_delta_channel_history(
        self, *, config: dict, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """For each channel, walk the target's parent chain (a fork's own branch only) to the
        nearest checkpoint that stores a value for it, collecting the writes on the way; the
        target's own pending writes belong to the next step and are left out."""
        if not channels:
            return {}
        found: dict[str, list[PendingWrite]] = {c: [] for c in channels}
        seeds: dict[str, Any] = {}
        remaining = set(channels)
        target = self.get_tuple(config)
        cursor = target.parent_config if target else None
        while cursor is not None and remaining:
            saved = self.get_tuple(cursor)
            if saved is None:
                break
            # newest checkpoint first: collect each one's writes backwards, reverse at the end
            for write in reversed(saved.pending_writes or ()):
                if write[1] in remaining:
                    found[write[1]].append(write)
            values = saved.checkpoint["channel_values"]
            for name in [c for c in remaining if c in values]:
                seeds[name] = values[name]
                remaining.discard(name)
            cursor = saved.parent_config
        result: dict[str, DeltaChannelHistory] = {}
        for name in channels:
            entry: DeltaChannelHistory = {"writes": found[name][::-1]}
            if name in seeds:
                entry["seed"] = seeds[name]
            result[name] = entry
        return result

    async def aget_delta_channel_history(
        self, *, config: dict, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        return await self._off_loop(
            self.get_delta_channel_history, config=config, channels=channels
        )

    # the version this saver drew last and its counter: the loop draws the next from it
    _drawn: tuple[Any, int] = (None, 0)

    def get_next_version(self, current: str | int | None, channel: Any = None) -> str:
        """Versions are zero-padded counters with a random suffix, so they sort as strings."""
        drawn = self._drawn
        counter = (drawn[1] if current is drawn[0] else version_counter(current)) + 1
        # zfill is format(x, "032") for a counter and format(x, "016") for a float in [0, 1),
        # for less (the repr's digits are what a version costs)
        version = f"{str(counter).zfill(32)}.{repr(random()).zfill(16)}"
        self._drawn = (version, counter)
        return version

    # -- async twins, run on a worker thread
    async def _off_loop(self, method: Any, *args: Any, **kwargs: Any) -> Any:
        """A sync method for its async twin: in a worker thread, so the event loop does not
        wait on I/O; inline for a saver that does not block (a thread hop costs more)."""
        if not self.blocks_on_io:
            return method(*args, **kwargs)
        return await asyncio.to_thread(method, *args, **kwargs)

    async def aget(self, config: dict) -> Checkpoint | None:
        return await self._off_loop(self.get, config)

    async def aget_tuple(self, config: dict) -> CheckpointTuple | None:
        return await self._off_loop(self.get_tuple, config)

    async def alist(
        self,
        config: dict | None,
        *,
        filter: dict[str, Any] | None = None,
        before: dict | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        items = await self._off_loop(
            lambda: list(self.list(config, filter=filter, before=before, limit=limit))
        )
        for item in items:
            yield item

    async def aput(self, config, checkpoint, metadata, new_versions) -> dict:
        return await self._off_loop(self.put, config, checkpoint, metadata, new_versions)

    async def aput_writes(self, config, writes, task_id, task_path: str = "") -> None:
        await self._off_loop(self.put_writes, config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        await self._off_loop(self.delete_thread, thread_id)

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        await self._off_loop(self.delete_for_runs, run_ids)

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        await self._off_loop(self.copy_thread, source_thread_id, target_thread_id)

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        await self._off_loop(self.prune, thread_ids, strategy=strategy)
