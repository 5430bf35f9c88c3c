"""get_graph(): the drawable graph of a compiled Pregel, found by simulating its supersteps.

Nothing runs a node: each step, every task's ChannelWrite writers run on an empty output (so
static edges and joins write what they always write) and every writer's declared static writes
(branch path maps, Command destinations) are written once. The channels then decide, as in a
real run, which nodes wake next; an edge goes from the writer of a trigger to the woken node.
Conditional (dotted) edges come from declared writes; a node woken by none of the last step's
writes (a Send target) gets a conditional edge from each of them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from langchain_core.runnables import Runnable
from langchain_core.runnables.graph import Graph

from engine._constants import END, INPUT, MISSING, PULL, PUSH, START, TASKS
from engine.channels.last_value import LastValueAfterFinish
from engine.pregel.algo import PUSH_TRIGGER, apply_writes
from engine.pregel.io import map_input
from engine.pregel.write import ChannelWrite
from engine.types import Send


class Edge(NamedTuple):
    source: str
    target: str
    conditional: bool
    data: str | None


class TriggerEdge(NamedTuple):
    source: str
    conditional: bool
    data: str | None


class _DrawTask:
    """A simulated task: what apply_writes needs (name, path, triggers, writes) plus writers."""

    __slots__ = ("name", "path", "triggers", "writes", "writers")

    def __init__(
        self, name: str, path: tuple, triggers: Sequence[str], writers: Sequence[Any]
    ) -> None:
        self.name = name
        self.path = path
        self.triggers = triggers
        self.writes: list[tuple[str, Any]] = []
        self.writers = writers


def draw_pregel_graph(pregel: Any, config: dict | None = None, xray: int | bool = False) -> Graph:
    """The graph of `pregel`; with `xray`, subgraph nodes are expanded (an int: that many levels)."""
    subgraphs = {}
    if xray:
        sub_xray = xray if isinstance(xray, bool) or xray <= 0 else xray - 1
        for name, node in pregel.nodes.items():
            if (subgraph := _node_subgraph(node)) is not None:
                subgraphs[name] = subgraph.get_graph(config, xray=sub_xray)
    return draw_graph(pregel, subgraphs)


def _node_subgraph(node: Any) -> Any:
    """The graph a node runs: its bound graph, or one its function refers to (a closure or global
    it invokes), found as langgraph does; graphs compiled with checkpointer=False are skipped."""
    from langchain_core.runnables import RunnableLambda, RunnableSequence
    from langchain_core.runnables.utils import get_function_nonlocals

    from engine.pregel.main import Pregel
    from engine.pregel.protocol import PregelProtocol

    candidates: list[Any] = list(node.subgraphs[:1]) or [node.bound]
    for candidate in candidates:
        if isinstance(candidate, PregelProtocol):
            if not isinstance(candidate, Pregel) or candidate.checkpointer is not False:
                return candidate
        elif isinstance(candidate, RunnableSequence):
            candidates.extend(candidate.steps)
        elif isinstance(candidate, RunnableLambda):
            candidates.extend(candidate.deps)
        elif callable(func := getattr(candidate, "func", None)):
            try:
                nonlocals = get_function_nonlocals(func)
            except Exception:
                nonlocals = []
            candidates.extend(getattr(nl, "__self__", nl) for nl in nonlocals)
    return None


def static_writes(writer: Any) -> list[tuple[str, Any, str | None]] | None:
    """The writes a writer declares for drawing: (channel, value, label), or None."""
    if isinstance(writer, ChannelWrite):
        return [
            w for entry in writer.writes for w in (getattr(entry, "static", None) or ())
        ] or None
    return getattr(writer, "static_writes", None)


def draw_graph(pregel: Any, subgraphs: Mapping[str, Graph], limit: int = 250) -> Graph:
    """Simulate up to `limit` supersteps of `pregel`, then assemble the drawn graph."""
    nodes: Mapping[str, Any] = pregel.nodes
    specs: Mapping[str, Any] = pregel.channels
    trigger_to_nodes: Mapping[str, Sequence[str]] = pregel.trigger_to_nodes
    edges: set[Edge] = set()
    checkpoint: dict[str, Any] = {"channel_versions": {}, "versions_seen": {}}
    channels = {k: spec.from_checkpoint(MISSING) for k, spec in specs.items()}
    static_seen: set[int] = set()
    sources: dict[str, set[TriggerEdge]] = {}
    step_sources: dict[str, set[TriggerEdge]] = {}
    static_declared: dict[str, set[TriggerEdge]] = defaultdict(set)
    deferred_nodes: set[str] = set()
    empty_input = specs["__root__"].ValueType() if "__root__" in specs else None

    def apply(tasks: Sequence[Any]) -> set[str]:
        return apply_writes(checkpoint, channels, tasks, _increment, trigger_to_nodes)

    input_task = _DrawTask(INPUT, (), (), ())
    input_task.writes = list(map_input(pregel.input_channels, {}))
    tasks = _next_tasks(checkpoint, nodes, channels, apply([input_task]), trigger_to_nodes)
    start_tasks = tasks
    # steps -1 to limit - 1, as langgraph counts them: a graph that never ends is cut after
    # limit + 1 steps, and which node ran last decides its drawn edge to END
    for _ in range(-1, limit):
        if not tasks:
            break
        conditionals: dict[tuple[str, str, Any], str | None] = {}
        for task in tasks:
            for writer in task.writers:
                if isinstance(writer, ChannelWrite):
                    task.writes.extend(writer.get_writes(empty_input))
                if id(writer) in static_seen:
                    continue
                static_seen.add(id(writer))
                if declared := static_writes(writer):
                    for channel, _, label in declared:
                        if channel == END:
                            edges.add(Edge(task.name, END, True, label))
                    declared = [t for t in declared if t[0] != END]
                    conditionals.update({(task.name, t[0], t[1] or None): t[2] for t in declared})
                    static_declared[task.name].update(
                        TriggerEdge(t[0], True, t[2]) for t in declared
                    )
                    task.writes.extend(t[:2] for t in declared)
        step_sources = {}
        for task in tasks:
            task_edges = {
                TriggerEdge(
                    chan,
                    (task.name, chan, value or None) in conditionals,
                    conditionals.get((task.name, chan, value or None)),
                )
                for chan, value in task.writes
            }
            step_sources[task.name] = task_edges | static_declared.get(task.name, set())
        sources.update(step_sources)
        trigger_to_sources: dict[str, set[TriggerEdge]] = defaultdict(set)
        for src, triggers in sources.items():
            for trigger, cond, label in triggers:
                trigger_to_sources[trigger].add(TriggerEdge(src, cond, label))
        tasks = _next_tasks(checkpoint, nodes, channels, apply(tasks), trigger_to_nodes)
        deferred_nodes = {
            chan.split(":", 2)[-1]
            for chan, ch in channels.items()
            if isinstance(ch, LastValueAfterFinish)
        }
        for task in tasks:
            added = False
            for trigger in task.triggers:
                for src, cond, label in sorted(trigger_to_sources[trigger]):
                    edges.add(Edge(src, task.name, cond, label))
                    if (trigger, cond, label) in step_sources.get(src, set()):
                        added = True
                    else:
                        sources[src].discard(TriggerEdge(trigger, cond, label))
            if not added:
                for src in step_sources:
                    edges.add(Edge(src, task.name, True, None))
    graph = _assemble(pregel, edges, start_tasks, step_sources, deferred_nodes)
    for name, subgraph in subgraphs.items():
        _inline_subgraph(graph, name, subgraph)
    return graph


def _increment(current: int | None, channel: Any = None) -> int:
    return (current or 0) + 1


def _next_tasks(
    checkpoint: dict[str, Any],
    nodes: Mapping[str, Any],
    channels: Mapping[str, Any],
    updated: set[str],
    trigger_to_nodes: Mapping[str, Sequence[str]],
) -> list[_DrawTask]:
    """The next step's tasks: one per Send packet, then each PULL node woken by a newer trigger."""
    tasks: list[_DrawTask] = []
    packets = channels.get(TASKS)
    if packets is not None and packets.is_available():
        for idx, packet in enumerate(packets.get()):
            if isinstance(packet, Send) and packet.node in nodes:
                tasks.append(
                    _DrawTask(packet.node, (PUSH, idx), PUSH_TRIGGER, nodes[packet.node].writers)
                )
    versions = checkpoint["channel_versions"]
    if not versions:
        return tasks
    if updated and trigger_to_nodes:
        candidates: Any = sorted({n for c in updated for n in trigger_to_nodes.get(c, ())})
    else:
        candidates = nodes
    for name in candidates:
        proc = nodes[name]
        seen = checkpoint["versions_seen"].get(name, {})
        if not any(
            c in channels and channels[c].is_available() and versions.get(c, 0) > seen.get(c, 0)
            for c in proc.triggers
        ):
            continue
        if isinstance(proc.channels, str) and (
            proc.channels in channels and not channels[proc.channels].is_available()
        ):
            continue
        tasks.append(_DrawTask(name, (PULL, name), proc.triggers, proc.writers))
    return tasks


def _assemble(
    pregel: Any,
    edges: set[Edge],
    start_tasks: Sequence[_DrawTask],
    step_sources: Mapping[str, Any],
    deferred_nodes: set[str],
) -> Graph:
    """Nodes (with defer/interrupt/tools metadata), the found edges, then edges to END."""
    graph = Graph()
    nodes = pregel.nodes
    interrupt_before_nodes = pregel.interrupt_before_nodes
    interrupt_after_nodes = pregel.interrupt_after_nodes
    for name, node in nodes.items():
        metadata = dict(node.metadata or {})
        if name in deferred_nodes:
            metadata["defer"] = True
        before, after = name in interrupt_before_nodes, name in interrupt_after_nodes
        if before or after:
            metadata["__interrupt"] = ",".join(
                k for k, on in (("before", before), ("after", after)) if on
            )
        tools_by_name = getattr(node.bound, "tools_by_name", None)
        if isinstance(tools_by_name, Mapping) and tools_by_name:
            metadata["__tools"] = list(tools_by_name)
        graph.add_node(_node_data(node.bound), name, metadata=metadata or None)
    if START not in nodes:
        graph.add_node(None, START)
        for task in start_tasks:
            _add_edge(graph, START, task.name)
    for src, dest, conditional, label in sorted(edges):
        _add_edge(graph, src, dest, data=label if label != dest else None, conditional=conditional)
    termini = {e.target for e in edges if e.target != END}.difference(e.source for e in edges)
    if termini:
        for src in sorted(termini):
            _add_edge(graph, src, END)
    elif len(step_sources) == 1 and not any(e.target == END for e in edges):
        for src in sorted(step_sources):
            _add_edge(graph, src, END, conditional=True)
    return graph


def _inline_subgraph(graph: Graph, name: str, subgraph: Graph) -> None:
    """Replace node `name` by the subgraph's nodes (prefixed `name:`), minus its start and end."""
    if len(subgraph.nodes) <= 1 or name not in graph.nodes:
        return
    if not subgraph.first_node() or not subgraph.last_node():
        return
    subgraph.trim_first_node()
    subgraph.trim_last_node()
    graph.nodes.pop(name)
    first, last = graph.extend(subgraph, prefix=name)
    for idx, edge in enumerate(graph.edges):
        if edge.source == name:
            edge = edge.copy(source=last.id)
        if edge.target == name:
            edge = edge.copy(target=first.id)
        graph.edges[idx] = edge


def _add_edge(
    graph: Graph, source: str, target: str, *, data: Any = None, conditional: bool = False
) -> None:
    if any(e.source == source and e.target == target for e in graph.edges):
        return
    if target not in graph.nodes and target == END:
        graph.add_node(None, END)
    graph.add_edge(graph.nodes[source], graph.nodes[target], data, conditional)


# where langgraph keeps the classes the engine draws as nodes (module, for the engine's module)
_LANGGRAPH_MODULES = {
    "engine.pregel.callable": "langgraph._internal._runnable",
    "engine.graph.compiled": "langgraph.graph.state",
    "engine.agents.factory": "langgraph._internal._runnable",
}
_drawn_classes: dict[tuple[str, str], type] = {}


class _DrawnNode(Runnable):
    """A node's runnable as the drawn graph shows it; `bound` is the real one."""

    def __init__(self, bound: Any) -> None:
        self.bound = bound

    def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        return self.bound.invoke(input, config)


def _node_data(bound: Any) -> Any:
    """What a node holds in the drawn graph: the engine's own runnables under langgraph's class
    names, so `to_json()` reads as LangGraph draws the graph (what LangGraph Studio and the
    server's graph endpoint show); a user's runnable as it is."""
    cls = type(bound)
    module = cls.__module__
    if module != "engine" and not module.startswith("engine."):
        return bound
    name = cls.__name__
    if module == "engine.agents.factory":
        name = "RunnableCallable"  # an agent's model and tool steps, as langgraph's are
    place = (_LANGGRAPH_MODULES.get(module) or "langgraph" + module[len("engine") :], name)
    if place not in _drawn_classes:
        _drawn_classes[place] = type(name, (_DrawnNode,), {"__module__": place[0]})
    return _drawn_classes[place](bound)
