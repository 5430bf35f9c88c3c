"""A superstep in three phases, read from the engine's trace events (no Qt).

`PhaseBook.add(events)` turns each root superstep into Plan, Execute and Barrier phases:
- Plan: the tasks the step runs; a node's trigger channel at a version newer than the one it
  saw when it last ran (its versions_seen, followed here from earlier plans), or a Send
  packet with its payload; a node planned again after it interrupted re-runs from its start.
- Execute: each task's writes as pending packets (its state writes, Command goto, Send
  packets), kept per task until the barrier; an interrupt bubbling up; an error; the inner
  supersteps a subgraph task ran under its namespace; the writes saved as the pending writes
  of the checkpoint the step started from.
- Barrier: the channels the writes moved (old -> new value, version ticks), a channel that
  merged several packets through its reducer, and the checkpoint saved. `failed()` turns a
  LastValue conflict's InvalidUpdateError into the barrier that raised it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.constants import ERROR, INTERRUPT, NS_END, RETURN, TASKS
from engine.pregel import trace
from engine.pregel.trace_format import short_version
from studio.i18n import translate
from studio.run.widgets import show, shown_or_dash

BRANCH = "branch:to:"
CONFLICT = re.compile(r"At key '([^']*)'")  # empty for a channel built by hand (Pregel)


def _written_twice(packets: list[Packet]) -> str | None:
    """The one channel the step wrote more than once: a conflict on a channel built by hand
    names no key (langgraph's message says "At key ''")."""
    counts = Counter(p.channel for p in packets)
    twice = [channel for channel, n in counts.items() if n > 1]
    return twice[0] if len(twice) == 1 else None


def vtext(version: Any) -> str:
    """`v3`, or `—` for a channel never written."""
    return f"v{short_version(version)}" if version is not None else "—"


def short_ns(ns: str) -> str:
    """`shout:1f2e3d4c…`: each level's node and the start of its task id (a whole id, digits
    after its hyphens, has nowhere to wrap in the panel)."""

    def short(part: str) -> str:
        node, _, task = part.partition(":")
        return f"{node}:{task[:8]}…" if len(task) > 8 else part

    return "|".join(short(part) for part in ns.split("|"))


@dataclass(frozen=True)
class Packet:
    """One pending write: `task` wrote `value` to `channel`."""

    task: str
    channel: str
    value: Any
    kind: str
    """state, goto (a branch:to write), send (a Send packet to the tasks Topic), join, other."""

    def text(self) -> str:
        if self.kind == "goto":
            return f"goto {self.channel[len(BRANCH) :]}"
        if self.kind == "send":
            return f"Send → {self.value.node}: {show(self.value.arg, 60)}"
        if self.kind == "join":
            return f"join: {self.value}"
        return f"{self.channel} = {show(self.value, 60)}"


@dataclass
class Phase:
    kind: str
    """plan, execute or barrier."""
    step: int
    lines: list[str] = field(default_factory=list)
    """What happens, in words, for the lecture panel."""
    woke: dict[str, list[tuple[str, Any, Any]]] = field(default_factory=dict)
    """plan: node -> (trigger channel, its version now, the version the node last saw)."""
    sends: dict[str, list[Any]] = field(default_factory=dict)
    """plan: node -> the payloads of its Send tasks."""
    resumed: set[str] = field(default_factory=set)
    """plan: nodes that interrupted before and now run again from their start."""
    tasks: list[str] = field(default_factory=list)
    packets: list[Packet] = field(default_factory=list)
    interrupts: dict[str, list[Any]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    namespaces: dict[str, list[str]] = field(default_factory=dict)
    """execute: node -> the namespaces of the inner graph runs it made (`shout:<task id>`)."""
    inner: dict[str, list[str]] = field(default_factory=dict)
    """execute: node -> its inner graph's supersteps, `inner step 1: upper`."""
    inner_channels: dict[str, dict[str, dict[str, tuple[Any, Any]]]] = field(default_factory=dict)
    """execute: node -> namespace -> the inner graph's state channels its barriers wrote ->
    (version, value), the last each got."""
    changes: list[trace.ChannelChange] = field(default_factory=list)
    merges: dict[str, list[Packet]] = field(default_factory=dict)
    """barrier: channel -> the packets its reducer merged (two or more in one step)."""
    conflict: tuple[str, str] | None = None
    """barrier: (channel, InvalidUpdateError message) of a LastValue written twice."""
    checkpoint: tuple[str, str] | None = None
    """barrier: (checkpoint id, source) saved after it."""
    pending_for: str | None = None
    """execute: the checkpoint id the tasks' writes are saved under as pending writes."""
    versions: dict[str, Any] = field(default_factory=dict)
    """Each channel's version as this phase sees it (before the barrier; after, for it)."""

    @property
    def title(self) -> str:
        kind = {"plan": translate("lecture.phases", "Plan"),
                "execute": translate("lecture.phases", "Execute"),
                "barrier": translate("lecture.phases", "Barrier")}.get(self.kind, self.kind.title())  # fmt: skip
        return translate("lecture.phases", "Step {step} · {kind}").format(step=self.step, kind=kind)


def packet_of(task: str, channel: str, value: Any) -> Packet:
    from engine.types import Send  # loaded with the run's engine, not with the window

    if channel.startswith(BRANCH):
        kind = "goto"
    elif channel == TASKS and isinstance(value, Send):
        kind = "send"
    elif channel.startswith("join:"):
        kind = "join"
    elif channel.startswith("__"):
        kind = "other"
    else:
        kind = "state"
    return Packet(task, channel, value, kind)


class PhaseBook:
    """The phases of a thread's root supersteps, in order, as the trace events arrive."""

    def __init__(self) -> None:
        self.phases: list[Phase] = []
        self.checkpoints: list[tuple[int, str, str]] = []
        """(step, checkpoint id, source) of each root checkpoint saved, oldest first."""
        self.pending: dict[str, list[tuple[int, str]]] = {}
        """checkpoint id -> (step, task) of each task whose writes were saved against it."""
        self._seen: dict[str, dict[str, Any]] = {}
        """node -> trigger -> the version it last ran with (its versions_seen)."""
        self._interrupted: set[str] = set()
        self._open: dict[int, Phase] = {}
        """step -> its execute phase, while its tasks finish."""
        self._versions: dict[str, Any] = {}

    def clear(self) -> None:
        self.__init__()

    def add(self, events: list[Any]) -> int:
        """Read a batch of events; returns how many phases it added."""
        before = len(self.phases)
        for event in events:
            if event.ns:
                self._inner(event)
            elif isinstance(event, trace.StepPlanned):
                self._plan(event)
            elif isinstance(event, trace.TaskFinished):
                self._finished(event)
            elif isinstance(event, trace.BarrierApplied):
                self._barrier(event)
            elif isinstance(event, trace.CheckpointSaved):
                self._checkpoint(event)
        return len(self.phases) - before

    def failed(self, message: str) -> bool:
        """The run failed; a LastValue conflict becomes the barrier that raised it."""
        found = CONFLICT.search(message)
        execute = self.phases[-1] if self.phases and self.phases[-1].kind == "execute" else None
        if found is None or "InvalidUpdateError" not in message or execute is None:
            return False
        channel = found.group(1) or _written_twice(execute.packets)
        if channel is None:
            return False
        barrier = Phase("barrier", execute.step, versions=execute.versions)
        barrier.conflict = (channel, message.split(": ", 1)[-1])
        barrier.merges = {channel: [p for p in execute.packets if p.channel == channel]}
        names = [p.task for p in barrier.merges[channel]]
        writers = (
            translate("lecture.phases", "{len} tasks of {value}").format(
                len=len(names), value=names[0]
            )
            if len(set(names)) == 1
            else translate("lecture.phases", " and ").join(names)
        )
        barrier.lines = [translate("lecture.phases", "{writers} wrote {channel} in one step, a LastValue channel: it takes one value per step, so the barrier raises InvalidUpdateError and applies nothing.").format(writers=writers, channel=channel), message.splitlines()[0]]  # fmt: skip
        # (langgraph's troubleshooting link, its next line, is one word too wide for the panel)
        self.phases.append(barrier)
        return True

    # ------------------------------------------------------------------ phases

    def _plan(self, event: trace.StepPlanned) -> None:
        for task in event.tasks:  # the input's writes reach no barrier event: the plan says
            self._versions.update(task.trigger_versions)
        phase = Phase("plan", event.step, versions=dict(self._versions))
        for task in event.tasks:
            phase.tasks.append(task.name)
            if task.trigger_versions:
                seen = self._seen.setdefault(task.name, {})
                phase.woke[task.name] = [
                    (ch, v, seen.get(ch)) for ch, v in task.trigger_versions.items()
                ]
                for ch, v, was in phase.woke[task.name]:
                    phase.lines.append(translate("lecture.phases", "{name}: {ch} is at {vtext}, it last saw {value} → it runs").format(name=task.name, ch=ch, vtext=vtext(v), value=vtext(was) if was is not None else translate("lecture.phases", "nothing")))  # fmt: skip
                seen.update(task.trigger_versions)
            else:
                phase.sends.setdefault(task.name, []).append(task.input)
                phase.lines.append(translate("lecture.phases", "{name}: a Send packet is its own task, with its own input {show}").format(name=task.name, show=show(task.input, 80)))  # fmt: skip
            if task.name in self._interrupted:
                phase.resumed.add(task.name)
                phase.lines.append(translate("lecture.phases", "{name} interrupted last time: resumed, it runs again from its start (interrupt() now returns the answer)").format(name=task.name))  # fmt: skip
        self._interrupted -= phase.resumed
        if not event.tasks:
            phase.lines.append(
                translate("lecture.phases", "No trigger moved: nothing to run, the run ends")
            )
        self.phases.append(phase)
        execute = Phase("execute", event.step, tasks=list(phase.tasks), versions=phase.versions)
        execute.pending_for = self.checkpoints[-1][1] if self.checkpoints else None
        self._open[event.step] = execute
        if event.tasks:
            self.phases.append(execute)
            execute.lines.append(translate("lecture.phases", "All tasks read the same snapshot; their writes wait as pending "
                                 "packets, invisible to sibling tasks until the barrier"))  # fmt: skip

    def _finished(self, event: trace.TaskFinished) -> None:
        phase = self._open.get(event.step)
        if phase is None:
            return
        if event.error is not None:
            phase.errors[event.name] = f"{type(event.error).__name__}: {event.error}"
            phase.lines.append(f"{event.name} raised {phase.errors[event.name]}")
            return
        if event.interrupts:
            values = [getattr(i, "value", i) for i in event.interrupts]
            phase.interrupts[event.name] = values
            self._interrupted.add(event.name)
            phase.lines.append(translate("lecture.phases", "{name} called interrupt({show}): GraphInterrupt bubbles up, the run stops before the barrier").format(name=event.name, show=show(values[0], 60)))  # fmt: skip
            return
        writes = [(ch, v) for ch, v in event.writes if ch not in (INTERRUPT, ERROR, RETURN)]
        for ch, v in writes:
            phase.packets.append(packet_of(event.name, ch, v))
        if phase.pending_for is not None:
            self.pending.setdefault(phase.pending_for, []).append((event.step, event.name))
        said = ", ".join(packet_of(event.name, ch, v).text() for ch, v in writes) or translate(
            "lecture.phases", "nothing"
        )
        phase.lines.append(
            translate("lecture.phases", "{name} wrote {said} (saved as a pending write)").format(
                name=event.name, said=said
            )
        )

    def _inner(self, event: Any) -> None:
        """An inner graph's event: the root task it ran in gets its namespace, its supersteps
        and the channels they wrote (each under that namespace)."""
        if isinstance(event, trace.BarrierApplied):
            return self._inner_barrier(event)
        if not isinstance(event, trace.StepPlanned):
            return
        owner = event.ns[0].split(NS_END)[0]
        for phase in self._open.values():
            if owner in phase.tasks:
                spaces = phase.namespaces.setdefault(owner, [])
                label = "|".join(event.ns)
                if label not in spaces:
                    spaces.append(label)
                    phase.lines.append(translate("lecture.phases", "{owner} runs a graph of its own: its supersteps and checkpoints live under namespace {label}").format(owner=owner, label=short_ns(label)))  # fmt: skip
                names = ", ".join(t.name for t in event.tasks) or translate(
                    "lecture.phases", "nothing"
                )
                phase.inner.setdefault(owner, []).append(
                    translate("lecture.phases", "inner step {step}: {names}").format(
                        step=event.step, names=names
                    )
                )

    def _inner_barrier(self, event: trace.BarrierApplied) -> None:
        owner = event.ns[0].split(NS_END)[0]
        for phase in self._open.values():
            if owner in phase.tasks:
                spaces = phase.inner_channels.setdefault(owner, {})
                channels = spaces.setdefault("|".join(event.ns), {})
                for change in event.changes:
                    if not change.channel.startswith(("__", BRANCH, "join:")):
                        channels[change.channel] = (change.new_version, change.new_value)

    def _barrier(self, event: trace.BarrierApplied) -> None:
        execute = self._open.pop(event.step, None)
        self._versions.update({c.channel: c.new_version for c in event.changes})
        phase = Phase(
            "barrier", event.step, changes=list(event.changes), versions=dict(self._versions)
        )
        packets = execute.packets if execute is not None else []
        for change in event.changes:
            mine = [p for p in packets if p.channel == change.channel]
            if len(mine) > 1 and change.channel != TASKS:
                phase.merges[change.channel] = mine
                phase.lines.append(translate("lecture.phases", "{channel}: {len} packets merged by its reducer → {shown_or_dash}").format(channel=change.channel, len=len(mine), shown_or_dash=shown_or_dash(change.new_value, 80)))  # fmt: skip
            phase.lines.append(f"{change.channel}: {vtext(change.old_version)} → "
                               f"{vtext(change.new_version)}")  # fmt: skip
        if not event.changes:
            phase.lines.append(translate("lecture.phases", "Nothing to apply"))
        self.phases.append(phase)

    def _checkpoint(self, event: trace.CheckpointSaved) -> None:
        self.checkpoints.append((event.step, event.checkpoint_id, event.source))
        last = self.phases[-1] if self.phases else None
        if last is not None and last.kind == "barrier" and last.step == event.step:
            last.checkpoint = (event.checkpoint_id, event.source)
            last.lines.append(translate("lecture.phases", "Checkpoint saved ({source}, step {step}); the next step's writes are saved against it as pending writes").format(source=event.source, step=event.step))  # fmt: skip
