"""Two runs side by side, superstep by superstep: the tasks each ran, what each task wrote, the
state after the barrier, and the path (the tasks of every step in order). No Qt: the tests
panel, `superstep test` and saved tests print or draw it.

A run is a thread's line of checkpoints from its newest back to its first (forks off the line
are not part of it). Messages compare by what a model reads of them (type, text, tool calls),
not by their ids or provider metadata, which differ between any two runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.run.diff import Part, structural


@dataclass(frozen=True)
class TaskWrites:
    name: str
    old: Any
    new: Any
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class StepDiff:
    step: int
    old_tasks: tuple[str, ...] | None
    """Names of the tasks that ran in this step (None: the run has no such step)."""
    new_tasks: tuple[str, ...] | None
    writes: tuple[TaskWrites, ...]
    """Tasks whose writes differ."""
    state: tuple[Part, ...]
    """How the state after this step differs."""
    old_done: bool = True
    """The step reached its barrier in the old run (not stopped by an error or interrupt)."""
    new_done: bool = True

    @property
    def same(self) -> bool:
        return (self.old_tasks == self.new_tasks and self.old_done == self.new_done
                and not self.writes and not self.state)  # fmt: skip

    @property
    def old_text(self) -> str:
        return tasks_text(self.old_tasks, self.old_done)

    @property
    def new_text(self) -> str:
        return tasks_text(self.new_tasks, self.new_done)


@dataclass(frozen=True)
class RunDiff:
    old_name: str
    new_name: str
    steps: tuple[StepDiff, ...]
    old_path: tuple[tuple[str, ...], ...]
    new_path: tuple[tuple[str, ...], ...]
    final: tuple[Part, ...] = ()
    """How the last state of each run differs (steps are matched by number, so when the paths
    part the same values can sit at other steps)."""

    @property
    def same(self) -> bool:
        return (self.old_path == self.new_path and all(s.same for s in self.steps)
                and not self.final)  # fmt: skip

    @property
    def changed_steps(self) -> list[StepDiff]:
        return [s for s in self.steps if not s.same]

    def lines(self) -> list[str]:
        """The diff as text: the paths, then each step that differs."""
        out = [f"run diff: {self.old_name} (old) vs {self.new_name} (new)"]
        if self.same:
            return [*out, "the same: every step's tasks, writes and state"]
        out.append(f"path old: {path_text(self.old_path)}")
        out.append(f"path new: {path_text(self.new_path)}")
        for s in self.changed_steps:
            out.append(f"step {s.step}: tasks {s.old_text} | {s.new_text}")
            for w in s.writes:
                out.extend(f"  {w.name} wrote {part_text(p)}" for p in w.parts)
            out.extend(f"  state {part_text(p)}" for p in s.state)
        if self.final:
            out.append("final state:")
            out.extend(f"  {part_text(p)}" for p in self.final)
        return out


def path_text(path: tuple[tuple[str, ...], ...]) -> str:
    return " → ".join("+".join(step) for step in path) or "(nothing ran)"


def tasks_text(tasks: tuple[str, ...] | None, done: bool = True) -> str:
    if tasks is None:
        return "(no such step)"
    return (", ".join(tasks) or "(none)") + ("" if done else " (did not finish)")


def part_text(part: Part) -> str:
    shown = {"added": f"+ {_short(part.new)}", "removed": f"- {_short(part.old)}"}
    text = shown.get(part.kind, f"{_short(part.old)} → {_short(part.new)}")
    return f"{part.path}: {text}" if part.path else text


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def comparable(value: Any) -> Any:
    """Messages as what a model reads of them; containers copied through."""
    from langchain_core.messages import BaseMessage  # loaded with a run's messages, not at start

    from engine.record.codec import message_essence

    if isinstance(value, BaseMessage):
        return message_essence(value)
    if isinstance(value, dict):
        return {k: comparable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [comparable(v) for v in value]
    return value


# ------------------------------------------------------------------ runs from checkpoints


@dataclass(frozen=True)
class Step:
    """One superstep of a run: its tasks' names and writes, and the state after it."""

    step: int
    tasks: tuple[str, ...]
    writes: tuple[tuple[str, Any], ...]
    values: Any
    copied: bool = False
    """The run starts at this step from a copied checkpoint (what ran before is not known)."""


def run_steps(graph: Any, thread_id: str) -> list[Step]:
    """The supersteps of a thread's current line of checkpoints, first to last. The tasks of a
    step are those its parent checkpoint ran (with their results); a last checkpoint with
    tasks still to run (an interrupt, a breakpoint) adds a step without state."""
    snapshots = {s.config["configurable"]["checkpoint_id"]: s
                 for s in graph.get_state_history({"configurable": {"thread_id": thread_id}})}  # fmt: skip
    line = []
    head = graph.get_state({"configurable": {"thread_id": thread_id}})
    current = snapshots.get((head.config or {}).get("configurable", {}).get("checkpoint_id"))
    while current is not None:
        line.append(current)
        parent = (current.parent_config or {}).get("configurable", {}).get("checkpoint_id")
        current = snapshots.get(parent)
    line.reverse()
    steps = []
    for before, after in zip([None, *line], [*line, None], strict=True):
        if after is None and (before is None or not before.tasks):
            break
        if before is None and after.metadata.get("step") == -1:
            continue  # the input checkpoint: nothing ran before it
        ran = before.tasks if before is not None else ()
        names = tuple(t.name for t in ran)
        writes = tuple((t.name, comparable(t.result)) for t in ran)
        step = after.metadata.get("step", 0) if after is not None else before.metadata["step"] + 1
        values = comparable(after.values) if after is not None else None
        steps.append(Step(step, names, writes, values, copied=before is None))
    return steps


def diff_runs(old: list[Step], new: list[Step], old_name: str = "old",
              new_name: str = "new") -> RunDiff:  # fmt: skip
    """Compare two runs step by step (matched by step number). A run that starts later (a
    replay from a copied checkpoint) is compared from its first step on, whose tasks (those
    before the copy) are left out."""
    copies = [run[0].step for run in (old, new) if run and run[0].copied]
    if copies:
        old, new = _from_step(old, max(copies)), _from_step(new, max(copies))
    by_step_old = {s.step: s for s in old}
    by_step_new = {s.step: s for s in new}
    steps = []
    for number in sorted(by_step_old.keys() | by_step_new.keys()):
        a, b = by_step_old.get(number), by_step_new.get(number)
        # a step only one run has, or one that did not finish: its tasks say so, and its
        # writes and state are not compared with nothing
        done_a, done_b = a is None or a.values is not None, b is None or b.values is not None
        both = a is not None and b is not None and done_a and done_b
        writes = _writes_diff(a.writes, b.writes) if both else ()
        state = tuple(structural(a.values, b.values)) if both else ()
        steps.append(StepDiff(number, a.tasks if a else None, b.tasks if b else None,
                              writes, state, done_a, done_b))  # fmt: skip
    return RunDiff(old_name, new_name, tuple(steps), tuple(s.tasks for s in old),
                   tuple(s.tasks for s in new), _final_diff(old, new))  # fmt: skip


def _final_diff(old: list[Step], new: list[Step]) -> tuple[Part, ...]:
    """The last states compared, when the paths part (on one path the last step's state diff
    says it already) and both runs finished their last step."""
    if not old or not new or [s.tasks for s in old] == [s.tasks for s in new]:
        return ()
    if old[-1].values is None or new[-1].values is None:
        return ()
    return tuple(structural(old[-1].values, new[-1].values))


def _from_step(steps: list[Step], start: int) -> list[Step]:
    kept = [s for s in steps if s.step >= start]
    if kept and kept[0].step == start:  # the copy point: only its state counts
        kept[0] = Step(start, (), (), kept[0].values, copied=True)
    return kept


def _writes_diff(old: tuple, new: tuple) -> tuple[TaskWrites, ...]:
    """Tasks of one name compared in order (a node run twice in a step by Send)."""
    out = []
    names = list(dict.fromkeys([n for n, _ in old] + [n for n, _ in new]))
    for name in names:
        a = [w for n, w in old if n == name]
        b = [w for n, w in new if n == name]
        for i in range(max(len(a), len(b))):
            x = a[i] if i < len(a) else None
            y = b[i] if i < len(b) else None
            if x is None or y is None:
                parts = (Part("", "added" if x is None else "removed", x, y),)
            else:
                parts = tuple(structural(x, y))
            if parts:
                out.append(TaskWrites(name, x, y, parts))
    return tuple(out)


def diff_threads(graph: Any, old_thread: str, new_thread: str, *,
                 new_graph: Any = None) -> RunDiff:  # fmt: skip
    """The run diff of two threads (the new one may live in another graph, e.g. edited code)."""
    return diff_runs(run_steps(graph, old_thread), run_steps(new_graph or graph, new_thread),
                     repr(old_thread), repr(new_thread))  # fmt: skip
