"""Durability "exit" and DeltaChannels: the delta writes of the steps a run does not save.

A run with durability "exit" keeps counting its steps (counters_since_delta_snapshot) and, at
exit, stores whole only the delta channels due by those counters (or forced). The writes of the
others must be found by a read's walk up the parent chain, so they are stored as pending writes
of the final checkpoint's parent: the checkpoint the run loaded or, on a new thread, an empty
step -2 checkpoint made for them. Their task ids are made up so that they sort by step.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from typing import Any

from engine._constants import NULL_TASK_ID
from engine.channels.delta import DeltaChannel
from engine.pregel._checkpoint import exit_delta_late_task_id, exit_delta_task_id
from engine.pregel.task_ids import path_text


class ExitDeltas:
    """The delta writes a run made, as (step, task id, task path, channel, value)."""

    __slots__ = ("specs", "writes", "first_step", "command", "loaded")

    def __init__(self, specs: Mapping[str, Any], loaded: Iterable[tuple]) -> None:
        self.specs = specs
        self.writes: list[tuple[int, str, str, str, Any]] = []
        # the step of the run's first barrier, whose tasks keep their real paths
        self.first_step: int | None = None
        # a Command's update, applied at the first barrier with the checkpoint's own writes
        self.command: list[tuple[str, Any]] = []
        # (task id, channel) of the delta writes stored on the loaded checkpoint already
        self.loaded = {(w[0], w[1]) for w in loaded if w[0] != NULL_TASK_ID and self._delta(w[1])}

    def _delta(self, channel: str) -> bool:
        return isinstance(self.specs.get(channel), DeltaChannel)

    def add_input(self, step: int, writes: Iterable[tuple[str, Any]]) -> None:
        self.writes += [(step, NULL_TASK_ID, "", c, v) for c, v in writes if self._delta(c)]

    def add_command(self, writes: Iterable[tuple[str, Any]]) -> None:
        self.command += [(c, v) for c, v in writes if self._delta(c)]

    def add_step(
        self, step: int, pending: Iterable[tuple], tasks: Mapping[str, Any], calls: Mapping
    ) -> None:
        """A barrier's writes (of its tasks and their @task calls); at the first, those loaded
        with the checkpoint are stored already."""
        first = self.first_step is None
        if first:
            self.first_step = step
            self.writes += [(step, NULL_TASK_ID, "", c, v) for c, v in self.command]
        for tid, channel, value in pending:
            if not self._delta(channel):
                continue
            if first and (tid == NULL_TASK_ID or (tid, channel) in self.loaded):
                continue
            task = tasks.get(tid) or calls.get(tid)
            path = path_text(task.path) if task is not None else ""
            self.writes.append((step, tid, path, channel, value))

    def channels(self) -> set[str]:
        return {w[3] for w in self.writes}

    def grouped(self, whole: set[str]) -> dict[tuple[str, str], list[tuple[str, Any]]]:
        """(task id, task path) -> writes, for the channels not stored whole. The first
        barrier's tasks keep their paths, so they sort among the writes loaded with the
        checkpoint; later steps sort after every real path and id, in step order."""
        out: dict[tuple[str, str], list[tuple[str, Any]]] = {}
        for step, tid, path, channel, value in self.writes:
            if channel in whole:
                continue
            if tid == NULL_TASK_ID:
                key = (exit_delta_task_id(step, tid), "")
            elif step == self.first_step:
                key = (exit_delta_task_id(step, tid), path)
            else:
                key = (exit_delta_late_task_id(step, tid), f"~~{step:010d}{path}")
            out.setdefault(key, []).append((channel, value))
        return out


# saver class -> whether its put_writes (and aput_writes) take a task_path
_TAKES_PATH: dict[type, bool] = {}


def takes_task_path(saver: Any) -> bool:
    """Whether `saver`'s put_writes and aput_writes accept `task_path` (a saver written before
    the parameter existed does not)."""
    kind = type(saver)
    found = _TAKES_PATH.get(kind)
    if found is None:
        found = _TAKES_PATH[kind] = all(
            "task_path" in inspect.signature(getattr(saver, name)).parameters
            for name in ("put_writes", "aput_writes")
            if hasattr(saver, name)
        )
    return found
