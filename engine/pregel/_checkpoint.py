"""The delta-snapshot bound at langgraph's private path (langgraph.pregel._checkpoint).

A delta channel that stops being written is still stored whole once this many supersteps have
passed since its last snapshot, so a read never walks an unbounded chain of ancestors. The loop
reads the bound here at each checkpoint: code that patches it on this module (langgraph's own
tests do) bounds the engine too. The environment sets it as for langgraph.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from typing import Any

from engine._constants import NULL_TASK_ID
from engine.channels.delta import DeltaChannel
from engine.checkpoint.base import copy_checkpoint, empty_checkpoint  # noqa: F401

DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT = int(
    os.getenv("LANGGRAPH_DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT", "5000")
)


def delta_channels_to_snapshot(
    channels: Mapping[str, Any],
    counters_since_delta_snapshot: Mapping[str, tuple[int, int]],
    channel_versions: Mapping[str, Any] | None = None,
) -> set[str]:
    """The delta channels to store whole now: those whose updates reached their
    snapshot_frequency or whose supersteps reached the bound, if they hold a value (and, given
    the versions, were written on this branch)."""
    due: set[str] = set()
    for name, channel in channels.items():
        if not isinstance(channel, DeltaChannel) or not channel.is_available():
            continue
        if channel_versions is not None and name not in channel_versions:
            continue
        updates, supersteps = counters_since_delta_snapshot.get(name, (0, 0))
        if (
            updates >= channel.snapshot_frequency
            or supersteps >= DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT
        ):
            due.add(name)
    return due


__all__ = [
    "DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT",
    "delta_channels_to_snapshot",
    "exit_delta_late_task_id",
    "exit_delta_task_id",
]


def exit_delta_task_id(step: int, task_id: str) -> str:
    """A task id for a delta channel's writes saved at exit (durability "exit"): `task_id`
    with its first group replaced by the superstep, so saved writes sort by step and the id is
    still a valid UUID; never the null task's id (whose writes are read as the input's)."""
    groups = str(uuid.UUID(task_id)).split("-")
    made = "-".join([f"{step:08d}", *groups[1:]])
    return f"{step:08d}-0000-0000-0000-000000000001" if made == NULL_TASK_ID else made


def exit_delta_late_task_id(step: int, task_id: str) -> str:
    """exit_delta_task_id for a step after the run's first barrier: starts with "ffffffff" so
    it sorts after every real task id, then the step in the next two groups, in order."""
    groups = str(uuid.UUID(task_id)).split("-")
    return "-".join(["ffffffff", f"{step >> 16:04x}", f"{step & 0xFFFF:04x}", *groups[3:]])
