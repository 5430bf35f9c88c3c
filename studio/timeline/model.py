"""A run as supersteps on a time axis, built from the engine's trace events as they arrive (no Qt).

Each root superstep is a `StepSpan` (from its plan to its checkpoint) holding a `TaskBar` per
task it ran, the tasks of the subgraphs and agents those ran included (their `ns` says where),
each with its retries, cache hit, interrupts, error and the model and tool calls the recorder
saw it make. The axis is the run's own time with the pauses between supersteps (a breakpoint,
Step pressed a minute later) cut to `GAP` seconds, so a paused run is not mostly empty space.

The path taken (nodes run and edges carried, with counts) and the checkpoint saved after each
step are read from the same events, so scrubbing needs no database read but the channels'.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine._constants import NS_END
from engine.constants import TASKS
from engine.pregel import trace

GAP = 0.02
"""Seconds of axis shown for any pause between two supersteps (the rest is cut)."""
MARK = 256
"""The path's running counts are kept every this many steps (a scrub adds up at most these)."""
BRANCH, JOIN = "branch:to:", "join:"


@dataclass(slots=True, eq=False)
class TaskBar:
    """One task of a superstep: a node run in the root graph or in a graph a task ran."""

    id: str
    name: str
    ns: tuple[str, ...]
    step: int
    start: float
    end: float | None = None
    retries: int = 0
    cached: bool = False
    interrupts: int = 0
    error: str | None = None
    calls: list[Any] = field(default_factory=list)
    """The RecordedCalls this task made, in the order they ended."""
    lane: int = 0

    @property
    def depth(self) -> int:
        return len(self.ns)

    @property
    def where(self) -> str:
        """`shout › exclaim`: the node's place, without task ids."""
        return " › ".join([*(part.split(NS_END)[0] for part in self.ns), self.name])

    @property
    def duration(self) -> float:
        return max(0.0, (self.end if self.end is not None else self.start) - self.start)


@dataclass(slots=True, eq=False)
class StepSpan:
    """A root superstep: its tasks, when it ran, and what it left."""

    step: int
    start: float
    offset: float
    """Where it starts on the axis (seconds, pauses cut)."""
    end: float
    tasks: list[TaskBar] = field(default_factory=list)
    finished: list[trace.TaskFinished] = field(default_factory=list)
    """The root tasks' outcomes (what the canvas shows as the edge data of this step)."""
    planned: trace.StepPlanned | None = None
    edges: Counter = field(default_factory=Counter)
    """(source, target) -> times a root task's writes went along that edge in this step."""
    checkpoint: dict | None = None
    """The config of the checkpoint saved after it (None: not saved, durability "exit")."""
    changes: tuple[trace.ChannelChange, ...] = ()
    """What the root barrier of this step applied."""
    lanes: int = 1

    @property
    def duration(self) -> float:
        return max(0.0, self.end - self.start)

    def axis(self, t: float) -> float:
        """A clock time inside this step on the axis."""
        return self.offset + min(max(t - self.start, 0.0), self.duration)

    def events(self) -> list[Any]:
        """This step's plan and task outcomes, as `RunOverlay.show_writes` reads a step."""
        return [self.planned, *self.finished] if self.planned is not None else list(self.finished)


class Timeline:
    """The run being shown: its root supersteps in order, and where each task is."""

    def __init__(self) -> None:
        self.steps: list[StepSpan] = []
        self.offsets: list[float] = []
        """Each step's `offset`, for bisecting the visible range."""
        self.tasks: dict[str, TaskBar] = {}
        self._owner: dict[str, StepSpan] = {}
        """root task id -> the step it ran in (where the tasks of the graphs it ran go)."""
        self._by_step: dict[int, StepSpan] = {}
        self._index: dict[int, int] = {}
        self.checkpoints: dict[tuple[tuple[str, ...], int], dict] = {}
        """(ns, step) -> config of the checkpoint saved after that step of that graph."""
        self._marks: list[tuple[Counter, Counter]] = [(Counter(), Counter())]
        """Mark j: the path's counts over steps[: j * MARK] (see `path`)."""
        self.orphan_calls: dict[str, list[Any]] = {}
        """task id -> calls that arrived before their task's events (attached when it comes)."""
        self.thread_id = ""

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def length(self) -> float:
        """The axis's length in seconds."""
        return self.steps[-1].offset + self.steps[-1].duration if self.steps else 0.0

    # ------------------------------------------------------------------ building

    def add_events(self, events: list[Any]) -> None:
        for event in events:
            kind = type(event)
            if kind is trace.StepPlanned:
                self._planned(event)
            elif kind is trace.TaskStarted:
                self._task(event.ns, event.step, event.task_id, event.name, event.at)
            elif kind is trace.TaskRetried:
                if (bar := self.tasks.get(event.task_id)) is not None:
                    bar.retries += 1
            elif kind is trace.TaskFinished:
                self._finished(event)
            elif kind is trace.BarrierApplied:
                self._barrier(event)
            elif kind is trace.CheckpointSaved:
                self._saved(event)

    def _planned(self, event: trace.StepPlanned) -> None:
        if event.ns:
            if (span := self._span_of(event.ns)) is not None:
                span.end = max(span.end, event.at)
            return
        span = self._by_step.get(event.step)
        if span is None:
            last = self.steps[-1] if self.steps else None
            offset = last.offset + last.duration + min(GAP, event.at - last.end) if last else 0.0
            span = StepSpan(event.step, event.at, max(offset, 0.0), event.at)
            self.steps.append(span)
            self.offsets.append(span.offset)
            self._by_step[event.step] = span
            self._index[event.step] = len(self.steps) - 1
            self._mark()
        span.planned = event
        for task in event.tasks:
            self._owner[task.id] = span

    def _span_of(self, ns: tuple[str, ...]) -> StepSpan | None:
        return self._owner.get(ns[0].rsplit(NS_END, 1)[-1]) if ns else None

    def _task(self, ns: tuple, step: int, task_id: str, name: str, at: float) -> TaskBar | None:
        bar = self.tasks.get(task_id)
        if bar is not None:
            return bar
        span = self._span_of(ns) if ns else self._by_step.get(step)
        if span is None:
            return None
        bar = self.tasks[task_id] = TaskBar(task_id, name, ns, step, at)
        span.tasks.append(bar)
        bar.calls.extend(self.orphan_calls.pop(task_id, ()))
        return bar

    def _finished(self, event: trace.TaskFinished) -> None:
        bar = self._task(event.ns, event.step, event.task_id, event.name, event.at)
        if bar is None:
            return
        bar.end, bar.cached = event.at, event.cached
        bar.interrupts = len(event.interrupts)
        if event.error is not None:
            bar.error = f"{type(event.error).__name__}: {event.error}"
        span = self._span_of(event.ns) if event.ns else self._by_step.get(event.step)
        if span is None:
            return
        span.end = max(span.end, event.at)
        if not event.ns:
            span.finished.append(event)
            if event.error is None and not event.interrupts:
                span.edges.update(edges_of(event))

    def _barrier(self, event: trace.BarrierApplied) -> None:
        span = self._span_of(event.ns) if event.ns else self._by_step.get(event.step)
        if span is None:
            return
        span.end = max(span.end, event.at)
        if not event.ns:
            span.changes = event.changes

    def _saved(self, event: trace.CheckpointSaved) -> None:
        if event.config is not None:
            self.checkpoints[(event.ns, event.step)] = event.config
        span = self._span_of(event.ns) if event.ns else self._by_step.get(event.step)
        if span is not None and not event.ns:
            span.checkpoint = event.config
            span.end = max(span.end, event.at)

    def add_call(self, call: Any) -> None:
        """A recorded model or tool call: inside the task that made it."""
        bar = self.tasks.get(call.task_id or "")
        if bar is None:
            self.orphan_calls.setdefault(call.task_id or "", []).append(call)
        else:
            bar.calls.append(call)

    # ------------------------------------------------------------------ reading

    def index_at(self, axis: float) -> int:
        """The step at (or last before) `axis` seconds; -1 before the first."""
        return bisect_right(self.offsets, axis) - 1

    def index_of(self, step: int) -> int | None:
        """The position in `steps` of root superstep number `step`."""
        return self._index.get(step)

    def lay_out(self, span: StepSpan) -> int:
        """Give each task of the step a lane, the first free one when it starts (a subgraph's
        tasks go below the task that ran them); returns the lanes it needs."""
        ends: list[float] = []
        for bar in sorted(span.tasks, key=lambda b: (b.start, b.depth)):
            lane = next((i for i, end in enumerate(ends) if end <= bar.start), len(ends))
            stop = bar.end if bar.end is not None else span.end
            if lane == len(ends):
                ends.append(stop)
            else:
                ends[lane] = stop
            bar.lane = lane
        span.lanes = max(1, len(ends))
        return span.lanes

    def path(self, index: int) -> tuple[Counter, Counter]:
        """(node -> runs, (source, target) -> times carried) of the root graph up to and with
        step number `index` (a position in `steps`)."""
        j = min((index + 1) // MARK, len(self._marks) - 1)
        return _counted(self._marks[j], self.steps[j * MARK : index + 1])

    def _mark(self) -> None:
        """A new step began: the steps before it are done, so the next mark can be counted
        (a little work every MARK steps, so no scrub adds up more than MARK steps)."""
        j = len(self._marks)
        if j * MARK < len(self.steps) - 1:
            self._marks.append(_counted(self._marks[-1], self.steps[(j - 1) * MARK : j * MARK]))

    def state_after(self, index: int) -> dict[str, tuple[Any, Any]]:
        """channel -> (value, version) as the root barriers up to step `index` left them (the
        channels the run changed; its input alone is in the checkpoints)."""
        state: dict[str, tuple[Any, Any]] = {}
        for span in self.steps[: index + 1]:
            for change in span.changes:
                state[change.channel] = (change.new_value, change.new_version)
        return state

    def checkpoint_before(self, bar: TaskBar) -> list[dict] | None:
        """The checkpoints a re-run of `bar` starts from: the root's before the step that ran
        it, then, for a task inside a subgraph, each inner graph's before the step that ran the
        next level down. None when one of them was not saved."""
        levels = []
        for depth in range(bar.depth + 1):
            ns = bar.ns[:depth]
            step = bar.step if depth == bar.depth else self._step_in(bar.ns[: depth + 1])
            if step is None or (found := self.checkpoints.get((ns, step - 1))) is None:
                return None
            levels.append(found)
        return levels

    def run_again_before(self, bar: TaskBar) -> frozenset[str]:
        """Ids of the tasks a re-run from `bar` runs again before it: at each level from the
        root down, the other tasks of the step that ran `bar` (or its parent task) that began
        before it, and the tasks inside those."""
        span = next((s for s in self.steps if bar in s.tasks), None)
        if span is None:
            return frozenset()
        chain = [self.tasks.get(part.rsplit(NS_END, 1)[-1]) for part in bar.ns] + [bar]
        out: set[str] = set()
        for level in chain:
            if level is None:
                continue
            for other in span.tasks:
                if (other.ns, other.step) == (level.ns, level.step) and other is not level \
                        and other.start < bar.start:  # fmt: skip
                    out.add(other.id)
        inner = {t.id for t in span.tasks
                 if any(part.rsplit(NS_END, 1)[-1] in out for part in t.ns)}  # fmt: skip
        return frozenset(out | inner)

    def _step_in(self, ns: tuple[str, ...]) -> int | None:
        """The step of its parent graph in which the task that runs namespace `ns` ran."""
        bar = self.tasks.get(ns[-1].rsplit(NS_END, 1)[-1])
        return bar.step if bar is not None else None


def _counted(start: tuple[Counter, Counter], spans: list[StepSpan]) -> tuple[Counter, Counter]:
    nodes, edges = Counter(start[0]), Counter(start[1])
    for span in spans:
        nodes.update(bar.name for bar in span.tasks if not bar.ns and not bar.error)
        edges.update(span.edges)
    return nodes, edges


@cache
def send_type() -> type:
    """engine.types.Send, imported once when a run first reports (not with the window; and an
    import statement per task costs PySide's import hook 70 µs)."""
    from engine.types import Send

    return Send


def edges_of(event: trace.TaskFinished) -> list[tuple[str, str]]:
    """The edges a finished task's writes went along (as the canvas draws them)."""
    Send = send_type()  # noqa: N806 - the class

    out = []
    for channel, value in event.writes:
        if channel.startswith(BRANCH):
            out.append((event.name, channel[len(BRANCH) :]))
        elif channel.startswith(JOIN):
            out.append((event.name, channel.rsplit(":", 1)[-1]))
        elif channel == TASKS and isinstance(value, Send):
            out.append((event.name, value.node))
    return out


def tokens_of(call: Any) -> dict[str, int] | None:
    """The token counts a chat model's provider reported for a recorded call (its AIMessage's
    usage metadata), or None."""
    import json

    if call.kind != "model" or not call.output:
        return None
    try:
        data = json.loads(call.output)
    except ValueError:
        return None
    usage = data.get("data", {}).get("usage_metadata") if isinstance(data, dict) else None
    if not isinstance(usage, dict):
        return None
    counts = {k: usage[k] for k in ("input_tokens", "output_tokens", "total_tokens")
              if isinstance(usage.get(k), int)}  # fmt: skip
    return counts or None
