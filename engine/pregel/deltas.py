"""DeltaChannel bookkeeping: when a checkpoint stores a snapshot, and how a loaded checkpoint's
delta channels are rebuilt from their ancestors' writes.

A delta channel's writes are kept as the pending writes of the checkpoint before the step that
applied them (an update_state's too), so a checkpoint whose parent's writes did not make it (an
update_state on a new thread or on a checkpoint the thread moved past, a fork, an input after an
unfinished step) stores a snapshot instead. Durability "exit" keeps a run's writes on the final
checkpoint's parent (see exit_deltas).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine._constants import MISSING, NS_END, NS_SEP, SNAPSHOT_BUMPS
from engine.channels.base import BaseChannel
from engine.channels.binop import BinaryOperatorAggregate, unwrap_overwrite
from engine.channels.delta import DeltaChannel
from engine.pregel import _checkpoint  # the supersteps bound, read at each checkpoint

COUNTERS = "counters_since_delta_snapshot"
_REPLAYED = (DeltaChannel, BinaryOperatorAggregate)
_REPLAYED_TYPES: dict[type, bool] = {}


def _replayed(kind: type) -> bool:
    """Whether a channel of this type is rebuilt from its history when stored without a value
    (by type, once: isinstance against these ABCs costs a snapshot more than its look-ups)."""
    found = _REPLAYED_TYPES.get(kind)
    if found is None:
        found = _REPLAYED_TYPES[kind] = issubclass(kind, _REPLAYED)
    return found


def delta_names(specs: Mapping[str, Any]) -> list[str]:
    # asked at every run's start: the channels' few classes first (a pass in C), each channel
    # only when one of them is a DeltaChannel
    if not any(map(_is_delta_kind, set(map(type, specs.values())))):
        return []
    return [name for name, spec in specs.items() if _is_delta_kind(type(spec))]


# channel class -> whether it is a DeltaChannel: asked of every channel at each run's start,
# and isinstance with an abstract base class costs a call into abc each time
_DELTA_KINDS: dict[type, bool] = {}


def _is_delta_kind(kind: type) -> bool:
    if (is_delta := _DELTA_KINDS.get(kind)) is None:
        is_delta = _DELTA_KINDS[kind] = issubclass(kind, DeltaChannel)
    return is_delta


def count_step(
    names: Iterable[str], prev_metadata: Mapping[str, Any] | None, updated: Iterable[str] | None
) -> dict[str, tuple[int, int]]:
    """The (updates, supersteps) counters after one more step: a superstep for every delta
    channel, an update for those written. Durability "exit" counts the steps it does not save."""
    prev = counters_of(prev_metadata)
    updated = set(updated or ())
    out = {}
    for name in names:
        u, s = prev.get(name, (0, 0))
        out[name] = (u + (name in updated), s + 1)
    return out


def counters_of(metadata: Mapping[str, Any] | None) -> dict[str, tuple[int, int]]:
    """A checkpoint's stored counters, as tuples (a JSON round trip makes them lists)."""
    return {k: (v[0], v[1]) for k, v in ((metadata or {}).get(COUNTERS) or {}).items()}


def snapshot_plan(
    channels: Mapping[str, BaseChannel],
    names: Iterable[str],
    prev_metadata: Mapping[str, Any] | None,
    updated: Iterable[str] | None,
    versions: Mapping[str, Any],
    forced: Iterable[str] = (),
) -> tuple[set[str], dict[str, tuple[int, int]]]:
    """The delta channels this checkpoint snapshots, and the counters it stores."""
    names = list(names)
    counters = count_step(names, prev_metadata, updated)
    return settle(channels, names, counters, versions, forced)


def settle(
    channels: Mapping[str, BaseChannel],
    names: Iterable[str],
    counters: Mapping[str, tuple[int, int]],
    versions: Mapping[str, Any],
    forced: Iterable[str] = (),
) -> tuple[set[str], dict[str, tuple[int, int]]]:
    """The delta channels (of `names`) due for a snapshot by their counters or forced, and the
    counters left: a snapshotted channel's start again, zeros are not stored."""
    mine = {name: channels[name] for name in names}
    snapshot = _checkpoint.delta_channels_to_snapshot(mine, counters, versions)
    # a forced one too, if written on this branch: only then is there a value to store
    snapshot |= {n for n in forced if n in mine and n in versions and mine[n].is_available()}
    left = {k: v for k, v in counters.items() if k not in snapshot and v != (0, 0)}
    return snapshot, left


def update_plan(
    channels: Mapping[str, BaseChannel],
    names: Iterable[str],
    saved_metadata: Mapping[str, Any] | None,
    updated: Iterable[str],
    versions: Mapping[str, Any],
    forced: Iterable[str],
) -> tuple[set[str], dict[str, tuple[int, int]]]:
    """snapshot_plan for update_state's checkpoint. On a new thread (no saved metadata) there
    is no checkpoint to keep its writes on: every delta channel written is stored whole, with
    no counters; otherwise the update counts as a superstep, as a run's step does."""
    if saved_metadata is None:
        whole = {n for n in names if n in versions and channels[n].is_available()}
        return whole, {}
    return snapshot_plan(channels, names, saved_metadata, updated, versions, forced)


def bump_snapshots(
    checkpoint: dict,
    snapshot: Iterable[str],
    stored_versions: Mapping[str, Any],
    get_next_version: Any,
) -> dict[str, Any]:
    """Give a new version to each snapshotted channel whose version has not moved since the saver
    stored it (a put stores only the values of moved versions, so the snapshot would be lost);
    whoever had seen the old version now sees the new one, so the bump is no write: no
    subscriber reruns and interrupt_before does not fire again. The versions a node really read
    are kept under SNAPSHOT_BUMPS, as langgraph keeps them. Returns the new versions given."""
    versions = checkpoint["channel_versions"]
    bumped = {}
    for name in snapshot:
        if name in versions and versions[name] == stored_versions.get(name):
            bumped[name] = (versions[name], get_next_version(versions[name], None))
    if not bumped:
        return {}
    checkpoint["channel_versions"] = {**versions, **{k: new for k, (_, new) in bumped.items()}}
    seen = checkpoint["versions_seen"]
    marks = dict(seen.get(SNAPSHOT_BUMPS, {}))
    out = dict(seen)
    for node, node_seen in seen.items():
        if node == SNAPSHOT_BUMPS:
            continue
        for name, (old, new) in bumped.items():
            if node_seen.get(name) != old:
                continue
            advanced, read = f"{node}{NS_SEP}{name}", f"{node}{NS_END}{name}"
            if marks.get(advanced) != old:  # an earlier bump already kept the real read
                marks[read] = old
            marks[advanced] = new
            out[node] = {**out[node], name: new}
    if marks:
        out[SNAPSHOT_BUMPS] = marks
    checkpoint["versions_seen"] = out
    return {k: new for k, (_, new) in bumped.items()}


def set_counters(metadata: dict, counters: Mapping[str, tuple[int, int]]) -> None:
    if counters:
        # lists, as a JSON round trip gives langgraph's
        metadata[COUNTERS] = {k: list(v) for k, v in counters.items()}
    else:
        metadata.pop(COUNTERS, None)


def overwritten_delta_channels(specs: Mapping[str, Any], writes: Iterable[tuple]) -> set[str]:
    """Delta channels an Overwrite set: their next checkpoint stores them whole, else a read
    would start from an older snapshot and replay the writes the Overwrite threw away."""
    return {
        c for c, v in writes if isinstance(specs.get(c), DeltaChannel) and unwrap_overwrite(v)[0]
    }


def pending_delta_channels(specs: Mapping[str, Any], pending: Iterable[tuple]) -> set[str]:
    return {w[1] for w in pending or () if isinstance(specs.get(w[1]), DeltaChannel)}


def _to_replay(specs: Mapping[str, BaseChannel], checkpoint: Mapping[str, Any]) -> list[str]:
    values = checkpoint["channel_values"]
    # the dict look-ups first: this runs for every snapshot of a history
    return [
        k
        for k in checkpoint["channel_versions"]
        if k not in values and k in specs and _replayed(type(specs[k]))
    ]


def restore_channels(
    specs: Mapping[str, BaseChannel],
    checkpoint: Mapping[str, Any],
    saver: Any,
    config: Any,
    histories: Mapping[str, Any] | None = None,
) -> dict[str, BaseChannel]:
    """Each channel from its stored value; a delta channel stored without one (a versioned
    channel, so it was written) from the nearest stored value above it plus the writes since
    (`histories`, when the caller read them already). A reducer key with no value was a
    DeltaChannel before its annotation changed."""
    values = checkpoint["channel_values"]
    channels: dict[str, BaseChannel] = {}
    if histories is None:
        replay = _to_replay(specs, checkpoint)
        if not replay or saver is None or config is None:
            histories = {}
        else:
            histories = saver.get_delta_channel_history(config=config, channels=replay)
    if not histories:
        for name, spec in specs.items():
            channels[name] = spec.from_checkpoint(values.get(name, MISSING))
        return channels
    for name, spec in specs.items():
        history = histories.get(name)
        if history is None:
            channel = spec.from_checkpoint(values.get(name, MISSING))
        else:
            channel = spec.from_checkpoint(history.get("seed", MISSING))
            if isinstance(channel, DeltaChannel):
                channel.replay_writes(history["writes"])
            else:
                # one write at a time: they span supersteps, each may hold an Overwrite
                for write in history["writes"]:
                    channel.update([write[2]])
        channels[name] = channel
    return channels


async def arestore_channels(
    specs: Mapping[str, BaseChannel], checkpoint: Mapping[str, Any], saver: Any, config: Any
) -> dict[str, BaseChannel]:
    """restore_channels for an async run: the histories come from the saver's async side."""
    replay = _to_replay(specs, checkpoint)
    histories: Mapping[str, Any] = {}
    if replay and saver is not None and config is not None:
        histories = await saver.aget_delta_channel_history(config=config, channels=replay)
    return restore_channels(specs, checkpoint, saver, config, histories)
