"""The graph as `compile()` builds it, read from the compiled Pregel object itself (no Qt).

A compiled graph has no edges: it has nodes and channels. Each node names the channels that
trigger it (`node.triggers`) and carries writers: plain channel writes (an edge becomes a write
to `branch:to:X`, a join a write to its barrier channel), declared writes (a Command's
destinations, a router's path map; drawn dashed) and the state update, whose keys are only
known when the node returns (those arrows appear as a run writes them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.constants import START, TASKS
from studio.run.runner import channel_kind

BRANCH, JOIN = "branch:to:", "join:"


@dataclass(frozen=True)
class ChannelBox:
    name: str
    kind: str
    """The channel's class (`LastValue`, `Topic`...) or `reducer: add` for a reducer channel."""
    role: str
    """state (a state key), branch (`branch:to:X`), join (a barrier), start, tasks, other."""


@dataclass(frozen=True)
class NodeBox:
    name: str
    triggers: tuple[str, ...]
    reads: tuple[str, ...]
    routes: bool
    """A router or Send writer without a path map: what it writes is chosen at run time."""


@dataclass(frozen=True)
class Arrow:
    source: str
    target: str
    kind: str
    """trigger (channel -> node), write (node -> channel, always), command (node -> channel,
    when the Command the node returns goes there), declared (node -> channel, when the
    node's router picks it)."""
    label: str | None = None


@dataclass(frozen=True)
class RuntimeGraph:
    nodes: tuple[NodeBox, ...]
    channels: tuple[ChannelBox, ...]
    arrows: tuple[Arrow, ...]

    def channel(self, name: str) -> ChannelBox | None:
        return next((c for c in self.channels if c.name == name), None)

    def node(self, name: str) -> NodeBox | None:
        return next((n for n in self.nodes if n.name == name), None)


def role_of(name: str) -> str:
    if name.startswith(BRANCH):
        return "branch"
    if name.startswith(JOIN):
        return "join"
    if name == START:
        return "start"
    if name == TASKS:
        return "tasks"
    if name.startswith("__"):
        return "other"
    return "state"


def _writes_of(name: str, writers: list[Any]) -> tuple[list[Arrow], bool]:
    # the compiled graph's modules, loaded with it (not at start: draw.py loads langchain-core's
    # Runnable, tracers and langsmith)
    from engine.pregel.draw import static_writes
    from engine.pregel.write import ChannelWrite, ChannelWriteEntry

    arrows: list[Arrow] = []
    routes = False
    for writer in writers:
        if isinstance(writer, ChannelWrite):
            for entry in writer.writes:
                if isinstance(entry, ChannelWriteEntry):
                    arrows.append(Arrow(name, entry.channel, "write"))
        declared = static_writes(writer)
        if declared:
            kind = "command" if isinstance(writer, ChannelWrite) else "declared"
            arrows += [Arrow(name, ch, kind, label) for ch, _v, label in declared]
        elif not isinstance(writer, ChannelWrite):  # a router with no path map
            routes = True
    return arrows, routes


def runtime_graph(pregel: Any) -> RuntimeGraph:
    """Nodes, channels and arrows of a compiled graph (its `nodes` and `channels`)."""
    channels = tuple(
        ChannelBox(name, channel_kind(ch), role_of(name)) for name, ch in pregel.channels.items()
    )
    known = {c.name for c in channels}
    nodes, arrows = [], []
    for name, node in pregel.nodes.items():
        triggers = tuple(node.triggers)
        reads = (node.channels,) if isinstance(node.channels, str) else tuple(node.channels)
        writes, routes = _writes_of(name, list(node.writers))
        nodes.append(NodeBox(name, triggers, reads, routes))
        arrows += [Arrow(t, name, "trigger") for t in triggers]
        arrows += [a for a in dict.fromkeys(writes) if a.target in known]  # END is no channel
    return RuntimeGraph(tuple(nodes), channels, tuple(arrows))


def layers(graph: RuntimeGraph) -> dict[str, int]:
    """Each node's row: one below the lowest row of a node whose writes can trigger it; nodes
    no static write reaches (Send targets, Command goto without destinations) go below their
    row's earliest writer of the tasks Topic, else under everything."""
    writers: dict[str, set[str]] = {}
    for a in graph.arrows:
        if a.kind != "trigger":
            writers.setdefault(a.target, set()).add(a.source)
    row: dict[str, int] = {n.name: 0 for n in graph.nodes if START in n.triggers}
    for _ in range(len(graph.nodes) + 1):  # relax until stable (loops stop at the bound)
        changed = False
        for n in graph.nodes:
            before = [row[w] for t in n.triggers for w in writers.get(t, ()) if w in row]
            if before and n.name not in row:
                row[n.name] = min(before) + 1
                changed = True
        if not changed:
            break
    routers = {n.name for n in graph.nodes if n.routes} | writers.get(TASKS, set())
    senders = [row[w] for w in routers if w in row]
    bottom = max(row.values(), default=0) + 1
    for n in graph.nodes:
        row.setdefault(n.name, min(senders) + 1 if senders else bottom)
    return row
