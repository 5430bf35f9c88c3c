"""Structured trace of supersteps, for observers (the studio's run view, the CLI's printout).

Beyond LangGraph: each superstep reports its plan (which tasks, woken by which channel versions),
each task's start, failed attempts and outcome, what the barrier applied, and the checkpoint saved.
The observer is passed on to graphs run inside a task (subgraphs, agents) through the config, so
their supersteps arrive too, under their namespace (`ns`). Each event carries `at`, the wall-clock
time it was made (the studio's timeline draws tasks and steps on a time axis from it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class PlannedTask:
    id: str
    name: str
    path: tuple
    triggers: tuple[str, ...]
    trigger_versions: dict[str, Any]
    """Version of each trigger channel that woke the task (empty for a Send task)."""
    input: Any


@dataclass(frozen=True)
class StepPlanned:
    ns: tuple[str, ...]
    step: int
    tasks: tuple[PlannedTask, ...]
    at: float = field(default_factory=time.time, compare=False, repr=False)
    """When the event was made (`time.time()`)."""


@dataclass(frozen=True)
class TaskStarted:
    ns: tuple[str, ...]
    step: int
    task_id: str
    name: str
    at: float = field(default_factory=time.time, compare=False, repr=False)
    """When the event was made (`time.time()`)."""


@dataclass(frozen=True)
class TaskFinished:
    ns: tuple[str, ...]
    step: int
    task_id: str
    name: str
    writes: tuple[tuple[str, Any], ...]
    error: BaseException | None = None
    interrupts: tuple[Any, ...] = ()
    cached: bool = False
    at: float = field(default_factory=time.time, compare=False, repr=False)
    """When the event was made (`time.time()`)."""


@dataclass(frozen=True)
class TaskRetried:
    """An attempt of a task failed and its retry policy runs it again after `delay` seconds."""

    ns: tuple[str, ...]
    step: int
    task_id: str
    name: str
    attempt: int
    """The failed attempt, 1-indexed."""
    error: BaseException
    delay: float
    at: float = field(default_factory=time.time, compare=False, repr=False)
    """When the event was made (`time.time()`)."""


@dataclass(frozen=True)
class ChannelChange:
    channel: str
    old_version: Any
    new_version: Any
    old_value: Any
    new_value: Any


@dataclass(frozen=True)
class BarrierApplied:
    ns: tuple[str, ...]
    step: int
    changes: tuple[ChannelChange, ...]
    """Every channel whose version moved at this barrier, with old and new value."""
    at: float = field(default_factory=time.time, compare=False, repr=False)
    """When the event was made (`time.time()`)."""


@dataclass(frozen=True)
class CheckpointSaved:
    ns: tuple[str, ...]
    step: int
    source: str
    checkpoint_id: str
    config: dict | None = field(default=None)
    at: float = field(default_factory=time.time, compare=False, repr=False)
    """When the event was made (`time.time()`)."""


TraceEvent = (
    StepPlanned | TaskStarted | TaskRetried | TaskFinished | BarrierApplied | CheckpointSaved
)
Observer = Callable[[TraceEvent], None]
