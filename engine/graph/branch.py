"""Conditional edges: a router run as a writer of its source node."""

from __future__ import annotations

import typing
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine._constants import CONF, CONFIG_KEY_READ, END, START, TASKS
from engine.errors import InvalidUpdateError
from engine.pregel.callable import coerce_to_bound
from engine.pregel.tracing import router_run
from engine.types import Send


def branch_channel(node: str) -> str:
    return f"branch:to:{node}"


@dataclass
class BranchSpec:
    """A router: `path(state)` returns node names (or keys of `ends`) and/or Send packets."""

    path: Any
    ends: dict[Hashable, str] | None
    name: str
    input_schema: Any = None
    """What the router reads, from its first parameter's hint (None: its node's input)."""
    run_names: tuple[str | None, str | None] | None = None
    """The names of a function router's callback run under invoke and under ainvoke, as
    langgraph's RunnableCallable gives them: its name, or for a lambda "RunnableCallable" and
    none (astream_events shows "Unnamed"); None for a Runnable router (named `name`)."""

    @classmethod
    def from_path(cls, path: Any, path_map: Any, input_schema: Any = None) -> BranchSpec:
        func = getattr(path, "func", path)
        label = getattr(path, "name", None) or getattr(func, "__name__", None)
        own = None if label == "<lambda>" else label
        name = own or "condition"
        if isinstance(path_map, dict):
            ends = dict(path_map)
        elif isinstance(path_map, (list, tuple)):
            ends = {p: p for p in path_map}
        else:
            ends = _ends_from_return_hint(func)
        bound = coerce_to_bound(path)
        run_names = (own or "RunnableCallable", own) if bound is not path else None
        return cls(bound, ends, name, input_schema, run_names)


def _ends_from_return_hint(func: Any) -> dict[Hashable, str] | None:
    try:
        hint = typing.get_type_hints(func).get("return")
    except Exception:
        return None
    if hint is not None and typing.get_origin(hint) is Literal:
        return {v: v for v in typing.get_args(hint)}
    return None


class BranchWriter:
    """Writer that reads the node's fresh state, calls the router and writes its choices."""

    __slots__ = ("branch", "read_keys", "mapper", "name")

    def __init__(self, branch: BranchSpec, read_keys: Sequence[str] | str, mapper: Any) -> None:
        self.branch = branch
        self.read_keys = read_keys
        self.mapper = mapper
        self.name = branch.name

    def get_writes(
        self, output: Any, task: Any = None, run: Any = None, step: int = 2
    ) -> list[tuple[str, Any]]:
        """`run`: the node's callback run (engine.pregel.tracing), `step` this writer's place."""
        value = self._read(task, output)
        if run is None or run.manager is None:  # untraced: no router run to enter
            return route_writes(self.branch.ends, self.branch.path.invoke(value, task.config))
        run = run if getattr(self.branch.path, "trace", True) else None
        names = self.branch.run_names
        with router_run(run, step, names[0] if names else self.name, value, task.config) as call:
            call.output = self.branch.path.invoke(value, call.config)
        return route_writes(self.branch.ends, call.output)

    async def aget_writes(
        self, output: Any, task: Any = None, run: Any = None, step: int = 2
    ) -> list[tuple[str, Any]]:
        """Under ainvoke/astream an async router is awaited (a sync one is called)."""
        value = self._read(task, output)
        run = run if getattr(self.branch.path, "trace", True) else None
        names = self.branch.run_names
        with router_run(run, step, names[1] if names else self.name, value, task.config) as call:
            call.output = await self.branch.path.ainvoke(value, call.config)
        return route_writes(self.branch.ends, call.output)

    def _read(self, task: Any, output: Any) -> Any:
        value = task.config[CONF][CONFIG_KEY_READ](self.read_keys, True)
        value = self.mapper(value) if self.mapper is not None else value
        # as langgraph: a router with no schema of its own also sees the keys its node returned
        # that the node's schema does not read
        if self.branch.input_schema is None and isinstance(value, dict):
            if isinstance(output, dict):
                return {**output, **value}
        return value

    @property
    def static_writes(self) -> list[tuple[str, Any, str | None]] | None:
        """For drawing: a write per path_map entry, (channel, None, label); None without one."""
        if not self.branch.ends:
            return None
        return [
            (end if end == END else branch_channel(end), None, str(label))
            for label, end in self.branch.ends.items()
        ]


def route_writes(ends: dict | None, result: Any) -> list[tuple[str, Any]]:
    if isinstance(result, str):  # the common case: one node, by name
        dest = ends[result] if ends else result
        if isinstance(dest, str) and dest != END and dest != START:
            return [(branch_channel(dest), None)]
    results = result if isinstance(result, (list, tuple)) else [result]
    destinations = [r if isinstance(r, Send) or not ends else ends[r] for r in results]
    if any(d is None or d == START for d in destinations):
        raise ValueError("Branch did not return a valid destination")
    if any(isinstance(d, Send) and d.node == END for d in destinations):
        raise InvalidUpdateError("Cannot send a packet to the END node")
    writes: list[tuple[str, Any]] = []
    for dest in destinations:
        if isinstance(dest, Send):
            writes.append((TASKS, dest))
        elif dest != END:
            writes.append((branch_channel(dest), None))
    return writes
