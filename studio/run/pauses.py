"""The debugger inside a run: the engine's task hook (`engine.pregel.retry.TaskHook`) that stops a
task at a breakpoint of the spec's `points` (`graphspec.breakpoints.Stops`) and waits, in the
task's own thread, for the user's answer: go on, run the failed task again (its input maybe
edited), or let it fail.

No Qt: the run session hands `notify` a `Held` (it reaches the GUI as a signal) and the GUI calls
`answer`. Only one task waits at a time (a superstep's tasks may run in parallel); Stop (or
closing the window) sets `stopping`, which lets a waiting task go on and stops no more.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine._constants import CONF, CONFIG_KEY_CHECKPOINT_NS, CONFIG_KEY_READ
from graphspec.breakpoints import Stop, Stops, task_path
from graphspec.model import Breakpoint

POLL_SECONDS = 0.1
"""How often a waiting task looks whether the run was stopped."""
OFFERED = "_superstep_pause_offered"
"""Set on an error the user already let fail, so the tasks it goes up through do not stop again."""


@dataclass(frozen=True)
class Held:
    """A task stopped at a breakpoint: its input (editable before it runs or when it failed)
    and, after it ran, what it wrote."""

    stop: Stop
    input: Any
    writes: tuple = ()

    @property
    def editable(self) -> bool:
        return self.stop.at in ("before", "error")


class TaskPauses:
    """One run's hook: counts visits, stops where a breakpoint says, waits for `answer`."""

    def __init__(self, points: list[Breakpoint], notify: Callable[[Held], None],
                 stopping: threading.Event) -> None:  # fmt: skip
        self._stops = Stops(points)
        self._notify = notify
        self._stopping = stopping
        self._count = threading.Lock()
        self._one_at_a_time = threading.Lock()
        self._answered = threading.Event()
        self._answer: tuple[str, Any] = ("continue", None)

    def update(self, points: list[Breakpoint]) -> None:
        with self._count:
            self._stops.update(points)

    # ------------------------------------------------------------------ the engine's side

    def before(self, task: Any) -> None:
        path = _path(task)
        with self._count:
            self._stops.visit(path, task.input)
            stop = self._stops.check("before", path, task.input)
        if stop is not None:
            self._hold(task, Held(stop, task.input))

    def after(self, task: Any) -> None:
        path = _path(task)
        with self._count:
            stop = self._stops.check("after", path, _state_after(task))
        if stop is not None:
            self._hold(task, Held(stop, task.input, tuple(task.writes)))

    def failed(self, task: Any, error: Exception) -> bool:
        if getattr(error, OFFERED, False):  # let fail inside a subgraph: its node fails with it
            return False
        path = _path(task)
        with self._count:
            stop = self._stops.check("error", path, task.input, f"{type(error).__name__}: {error}")
        if stop is None:
            return False
        with contextlib.suppress(AttributeError, TypeError):  # an exception without a __dict__
            setattr(error, OFFERED, True)
        return self._hold(task, Held(stop, task.input)) == "retry"

    # ------------------------------------------------------------------ the GUI's side

    def answer(self, decision: str, edited_input: Any = None) -> None:
        """ "continue" (a failed task: let it fail) or "retry"; `edited_input` replaces the
        task's input (before it runs, or for the retry)."""
        self._answer = (decision, edited_input)
        self._answered.set()

    def _hold(self, task: Any, held: Held) -> str:
        if self._stopping.is_set():
            return "continue"
        with self._one_at_a_time:
            self._answered.clear()
            self._answer = ("continue", None)
            self._notify(held)
            while not self._answered.wait(POLL_SECONDS):
                if self._stopping.is_set():
                    return "continue"
            decision, edited = self._answer
        if edited is not None and held.editable:
            task.input = edited
        return decision


def _path(task: Any) -> tuple[str, ...]:
    return task_path(task.config[CONF].get(CONFIG_KEY_CHECKPOINT_NS, ""))


def _state_after(task: Any) -> Any:
    """The state as the task leaves it: its input's keys read with its writes applied (the
    read routers make), else the input with what it wrote over it."""
    value = task.input
    if not isinstance(value, Mapping):
        return value
    read = task.config[CONF].get(CONFIG_KEY_READ)
    try:
        return {**value, **read(list(value), True)}
    except Exception:  # a read the graph does not offer: the writes as they are
        return {**value, **{k: v for k, v in task.writes if isinstance(k, str)}}
