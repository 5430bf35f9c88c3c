"""The compiled graph's view: what a graph from code looks like on the canvas.

A graph that cannot become a spec is still drawn, from the compiled graph itself: its nodes (what
each runs), plain edges and joins, conditional edges with their path maps, Command destinations,
subgraphs (drawn inside, one level per double-click) and, for agents, the middleware hook nodes in
the order the agent runs them; a deep agent's subagents hang off its tools node (its `task`
tool runs them), each drawn inside like a subgraph. The edges come from `get_graph()`, which finds them the way
langgraph does (simulating the channels), so a Pregel built by hand and an `@entrypoint` are drawn
like a StateGraph; a StateGraph's builder only tells which edges are joins and which conditional
edges are Command destinations.

The result is a `GraphSpec` built without validation: node names are the engine's own (`Agent
node`, `Middleware.before_model`), which a saved spec could not hold, and it is only ever drawn,
never saved or compiled: runs use the compiled graph it was drawn from.
"""

from __future__ import annotations

import inspect
from collections import defaultdict
from typing import Any

from engine.constants import END, START
from graphspec.model import (
    Breakpoints,
    CodeRouter,
    ConditionalEdge,
    Edge,
    FunctionNode,
    GraphSpec,
    RunInput,
    StateKey,
    Subgraph,
    SubgraphNode,
)

MAX_DEPTH = 6
"""Subgraphs nested deeper than this are drawn as plain nodes (a recursive graph stops here)."""


def callable_name(runnable: Any) -> str:
    """What a node runs, as a reader finds it in the code: module.function, or the class."""
    func = getattr(runnable, "func", None) or getattr(runnable, "afunc", None) or runnable
    func = getattr(func, "__func__", func)
    name = getattr(func, "__qualname__", None) or type(func).__qualname__
    module = getattr(func, "__module__", None) or type(func).__module__
    if name == "RunnableCallable" or name.startswith("Runnable"):
        return type(runnable).__name__
    return f"{module}:{name}" if module else name


def _subgraph_of(pregel: Any, name: str) -> Any:
    from engine.pregel.draw import _node_subgraph

    node = pregel.nodes.get(name)
    return None if node is None else _node_subgraph(node)


def subagents(pregel: Any) -> dict[str, Any]:
    """A deep agent's subagents: the graphs its `task` tool runs, by name, read from the tool
    (deepagents keeps them in the tool function's closure); {} for any other graph."""
    from graphspec.program_graphs import is_pregel

    node = pregel.nodes.get("tools")
    tool = getattr(getattr(node, "bound", None), "tools_by_name", {}).get("task")
    function = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
    try:
        graphs = inspect.getclosurevars(function).nonlocals.get("subagent_graphs")
    except (TypeError, ValueError):  # no task tool, or not a Python function
        return {}
    if not isinstance(graphs, dict):
        return {}
    return {str(name): graph for name, graph in graphs.items() if is_pregel(graph)}


def _state(pregel: Any) -> list[StateKey]:
    """The graph's channels a user writes (its state keys), as drawing-only StateKeys."""
    builder = getattr(pregel, "builder", None)
    names = list(getattr(builder, "channels", {}) or {}) if builder is not None else []
    if not names:
        names = [c for c in pregel.channels if not c.startswith(("__", "branch:"))]
    return [StateKey.model_construct(name=n, type="any", reducer="none") for n in names]


def _example_input(pregel: Any) -> list[RunInput]:
    """A first input to edit: a user message for a chat graph, an empty object for a state
    graph, and for a workflow whose input is one value (an @entrypoint) the JSON type it takes."""
    value: Any = {}
    if isinstance(pregel.input_channels, str):  # one value, not a state
        try:
            kind = pregel.get_input_jsonschema().get("type")
        except Exception:
            kind = None
        value = {"string": "", "array": [], "integer": 0, "number": 0}.get(kind, {})
    elif "messages" in pregel.input_channels:
        value = {"messages": [{"role": "user", "content": "Hello"}]}
    return [RunInput.model_construct(name="input", value=value, resume=[], description="")]


def _edge_id(kind: str, *parts: str) -> str:
    return kind + ":" + ">".join(parts)


def drawing(pregel: Any, name: str = "", depth: int = 0) -> GraphSpec:
    """The drawn graph of a compiled graph (see the module's docstring)."""
    drawn = pregel.get_graph()
    builder = getattr(pregel, "builder", None)
    ends = {n: tuple(getattr(spec, "ends", None) or ()) for n, spec in
            (getattr(builder, "nodes", None) or {}).items()}  # fmt: skip
    joins = {target: sources for sources, target in getattr(builder, "waiting_edges", ()) or ()}

    nodes: list[Any] = []
    subgraphs: list[Subgraph] = []
    drawn_inside: set[str] = set()
    """Nodes drawn as subgraphs: a subgraph card has no destinations, so its Command ones are
    drawn as its routes."""
    for node_id, node in drawn.nodes.items():
        if node_id in (START, END):
            continue
        inner = _subgraph_of(pregel, node_id) if depth < MAX_DEPTH else None
        if inner is not None:
            drawn_inside.add(node_id)
            sub_id = f"{node_id}·graph"
            subgraphs.append(Subgraph.model_construct(
                id=sub_id, graph=drawing(inner, node_id, depth + 1), file=None))  # fmt: skip
            nodes.append(SubgraphNode.model_construct(
                kind="subgraph", id=node_id, label="", description="", position=None,
                retry=None, cache=None, defer=False, subgraph=sub_id))  # fmt: skip
            continue
        runs = pregel.nodes[node_id].bound if node_id in pregel.nodes else node.data
        nodes.append(FunctionNode.model_construct(
            kind="function", id=node_id, label="", description="", position=None, retry=None,
            cache=None, defer=False, code=None, function=None,
            import_path=callable_name(runs), writes=[],
            destinations=list(ends.get(node_id, ()))))  # fmt: skip

    plain: dict[str, set[str]] = defaultdict(set)
    routes: dict[str, dict[str, str]] = defaultdict(dict)
    for agent_name, inner in subagents(pregel).items():
        node_id, sub_id = f"{agent_name} (subagent)", f"{agent_name}·subagent"
        subgraphs.append(Subgraph.model_construct(
            id=sub_id, graph=drawing(inner, agent_name, depth + 1), file=None))  # fmt: skip
        nodes.append(SubgraphNode.model_construct(
            kind="subgraph", id=node_id, label="", description="", position=None, retry=None,
            cache=None, defer=False, subgraph=sub_id))  # fmt: skip
        routes["tools"][f"task: {agent_name}"] = node_id
    entry: list[str] = []
    finish: list[str] = []
    for edge in drawn.edges:
        source, target = edge.source, edge.target
        if not edge.conditional:
            if source == START:
                entry.append(target)
            elif target == END:
                finish.append(source)
            else:
                plain[target].add(source)
            continue
        if target in ends.get(source, ()) and source not in drawn_inside:
            continue  # a Command destination: drawn from the node's `destinations`
        routes[source][str(edge.data) if edge.data is not None else _shown(target)] = target

    edges: list[Edge] = []
    for target, sources in plain.items():
        joined = joins.get(target, ())
        if len(joined) > 1 and set(joined) <= sources:
            edges.append(Edge.model_construct(id=_edge_id("join", *joined, target),
                                              sources=list(joined), target=target, label=""))  # fmt: skip
            sources = sources - set(joined)
        for source in sorted(sources):
            edges.append(Edge.model_construct(id=_edge_id("edge", source, target),
                                              sources=[source], target=target, label=""))  # fmt: skip
    conditional = [
        ConditionalEdge.model_construct(
            id=_edge_id("route", source), source=source,
            router=CodeRouter.model_construct(kind="code", code=None, function=None,
                                              import_path=None),
            path_map=dict(paths))
        for source, paths in routes.items()
    ]  # fmt: skip
    return GraphSpec.model_construct(
        name=name or getattr(pregel, "name", "") or "graph", nodes=nodes, edges=edges,
        conditional_edges=conditional, entry=list(dict.fromkeys(entry)),
        finish=list(dict.fromkeys(finish)), subgraphs=subgraphs, state=_state(pregel),
        inputs=_example_input(pregel) if depth == 0 else [],
        breakpoints=_compiled_breakpoints(pregel, [n.id for n in nodes]) if depth == 0
        else Breakpoints())  # fmt: skip


def _compiled_breakpoints(pregel: Any, drawn: list[str]) -> Breakpoints:
    """The graph's own static breakpoints (compile's interrupt_before/after): drawn, so the run
    toolbar and the cards show where its runs pause, and clearing one there clears it. "*"
    (every node) is every drawn node's, as a graph imported as a spec has it."""

    def named(nodes: Any) -> list[str]:
        return list(drawn) if nodes == "*" or "*" in (nodes or ()) else list(nodes or ())

    before, after = pregel.interrupt_before_nodes, pregel.interrupt_after_nodes
    return Breakpoints.model_construct(before=named(before), after=named(after), points=[])


def _shown(target: str) -> str:
    return {START: "START", END: "END"}.get(target, target)


__all__ = ["callable_name", "drawing", "subagents"]
