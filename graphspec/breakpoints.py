"""The debugger's breakpoints, no Qt: the one list the Breakpoints dock shows, how the spec keeps
it, and which breakpoint (if any) stops a task as a run goes.

A plain breakpoint (before or after a node of this graph, no condition or hit count, enabled)
stays in `Breakpoints.before`/`after`: LangGraph's `interrupt_before`/`interrupt_after`, exported
with the code, the run stopping at a checkpoint. Every other one is a `Breakpoint` in `points`,
which the studio's run checks in the task itself (`Stops`): a node inside a subgraph or an agent
(its tools, its middleware hooks), a condition, the Nth visit, an error.

A condition is a safe expression (`graphspec.expressions`, never `eval`) on the task's input:
the state a node is given, or the arguments of the call on a tool breakpoint.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine._constants import NS_END, NS_SEP
from graphspec.errors import ExpressionError, LimitError
from graphspec.expressions import evaluate
from graphspec.model import Breakpoint, Breakpoints

PLAIN = ("before", "after")
ANY_NODE = "*"


def listed(breakpoints: Breakpoints) -> list[Breakpoint]:
    """Every breakpoint, the plain ones first (as the dock lists them)."""
    plain = [Breakpoint(at=at, node=n) for at in PLAIN for n in getattr(breakpoints, at)]
    return plain + list(breakpoints.points)


def is_plain(point: Breakpoint) -> bool:
    """Whether LangGraph's interrupt_before/after can hold it (kept in `before`/`after`)."""
    return (
        point.enabled
        and point.at in PLAIN
        and point.node != ANY_NODE
        and not (point.inside or point.tool or point.condition.strip() or point.hit)
    )


def kept(points: list[Breakpoint]) -> Breakpoints:
    """The spec's `breakpoints` holding `points`: the plain ones in before/after, each once."""
    out: dict[str, list] = {"before": [], "after": [], "points": []}
    for point in points:
        where, item = (point.at, point.node) if is_plain(point) else ("points", point)
        if item not in out[where]:
            out[where].append(item)
    return Breakpoints(**out)


def path_text(point: Breakpoint) -> str:
    """`agent › tools (get_weather)`: where a breakpoint is, as the dock writes it."""
    text = " › ".join([point.node, *point.inside])
    return f"{text} ({point.tool})" if point.tool else text


def task_path(checkpoint_ns: str) -> tuple[str, ...]:
    """The node names from the root graph down to a task, from its checkpoint namespace
    (`agent:ID|tools:ID` -> ("agent", "tools")); a `|1` segment (a task's second graph) is no level."""
    parts = checkpoint_ns.split(NS_SEP) if checkpoint_ns else []
    return tuple(p.split(NS_END, 1)[0] for p in parts if p and not p.isdigit())


def tool_calls(value: Any) -> list[dict]:
    """The tool calls a tools task runs: an agent's tools task gets a list of calls; a ToolNode
    given the state runs the last message's."""
    if isinstance(value, Mapping) and isinstance(value.get("messages"), list) and value["messages"]:
        value = getattr(value["messages"][-1], "tool_calls", None) or []
    if isinstance(value, list):
        calls = [getattr(v, "tool_call", v) for v in value]
        return [c for c in calls if isinstance(c, Mapping) and "name" in c]
    return []


def as_state(value: Any) -> Mapping[str, Any]:
    """A task's input as a mapping of names a condition reads (a dataclass or pydantic state by
    its fields; anything else as `value`)."""
    if isinstance(value, Mapping):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if hasattr(value, "model_fields"):
        return {name: getattr(value, name) for name in type(value).model_fields}
    return {"value": value}


@dataclass(frozen=True)
class Stop:
    """A breakpoint that stopped a task: where, on which visit, with what input."""

    point: Breakpoint
    at: str
    path: tuple[str, ...]
    visit: int
    state: Any
    """What a condition read and the dock shows (the task's input, or the call's arguments)."""
    problem: str = ""
    """Why the condition could not say (the run stops so the user sees it)."""
    error: str = ""
    """The task's exception (at "error")."""


class Stops:
    """Decides, for each task of one run, whether a breakpoint stops it. Visits are counted per
    node path (and per tool for tool breakpoints) from the run's start."""

    def __init__(self, points: list[Breakpoint]) -> None:
        self.points: list[Breakpoint] = []
        self.visits: Counter = Counter()
        self.update(points)

    def update(self, points: list[Breakpoint]) -> None:
        """The dock changed them: the run in flight goes on with these."""
        self.points = [p for p in points if p.enabled and not is_plain(p)]

    def visit(self, path: tuple[str, ...], value: Any) -> None:
        """A task of `path` starts (once per task, whatever its retries)."""
        self.visits[path] += 1
        for call in tool_calls(value):
            self.visits[(path, call["name"])] += 1

    def check(self, at: str, path: tuple[str, ...], value: Any, error: str = "") -> Stop | None:
        """The first enabled breakpoint `at` this task (whose visit and condition hold)."""
        for point in self.points:
            if point.at != at or not self._here(point, path):
                continue
            state: Any = value
            if point.tool:
                call = next((c for c in tool_calls(value) if c["name"] == point.tool), None)
                if call is None:
                    continue
                state = call.get("args", {})
            visit = self.visits[(path, point.tool) if point.tool else path]
            if point.hit and visit != point.hit:
                continue
            problem = ""
            if point.condition.strip():
                try:
                    if not evaluate(point.condition, as_state(state)):
                        continue
                except (ExpressionError, LimitError) as exc:
                    problem = f"the condition could not be evaluated: {exc}"
            return Stop(point, at, path, visit, state, problem, error)
        return None

    @staticmethod
    def _here(point: Breakpoint, path: tuple[str, ...]) -> bool:
        if point.node == ANY_NODE:
            return point.at == "error"
        return path == (point.node, *point.inside)
