"""Layered automatic layout (pure Python, no Qt, safe to run on a worker thread).

Stages: build the graph drawn on the canvas; drop the edges a depth-first search meets going
back (loops), so the rest is acyclic; give each node the layer of its longest path from START;
order each layer by the mean position of its parents (two barycentre sweeps); place layers top
down with room for the tallest card in each.
"""

from __future__ import annotations

from graphspec.digraph import DiGraph, topological_sort
from graphspec.model import GraphSpec, Position
from studio.canvas.looks import END, START, edge_looks

COLUMN, GAP = 250.0, 70.0


def drawn_graph(spec: GraphSpec) -> DiGraph:
    graph = DiGraph()
    graph.add_nodes_from(n.id for n in spec.nodes)
    for look in edge_looks(spec):
        for source in look.sources:
            if source not in (START, END) and look.target not in (START, END):
                graph.add_edge(source, look.target)
    return graph


def back_edges(graph: DiGraph, roots: list[str]) -> set[tuple[str, str]]:
    """Edges pointing to a node still on the depth-first stack (iterative: deep graphs are fine)."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    found = set()
    for root in [*roots, *graph.nodes]:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(graph.successors(root)))]
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
            elif state.get(child) == 1:
                found.add((node, child))
            elif child not in state:
                state[child] = 1
                stack.append((child, iter(graph.successors(child))))
    return found


def layered_positions(
    spec: GraphSpec, heights: dict[str, float] | None = None
) -> dict[str, tuple[float, float]]:
    """Top-left position of every node, layer by layer from the entry points down."""
    graph = drawn_graph(spec)
    if not graph:
        return {}
    graph.remove_edges_from(back_edges(graph, [n for n in spec.entry if n in graph]))
    layer: dict[str, int] = {}
    for node in topological_sort(graph):
        layer[node] = max((layer[p] + 1 for p in graph.predecessors(node)), default=0)
    layers: list[list[str]] = [[] for _ in range(max(layer.values()) + 1)]
    for node in graph.nodes:  # spec order first: a stable start for the sweeps
        layers[layer[node]].append(node)
    order = {n: i for row in layers for i, n in enumerate(row)}
    for _ in range(2):
        for row in layers[1:]:
            row.sort(key=lambda n: _mean([order[p] for p in graph.predecessors(n)], order[n]))
            order.update({n: i for i, n in enumerate(row)})
    heights = heights or {}
    positions: dict[str, tuple[float, float]] = {}
    y = 100.0
    for row in layers:
        left = 200.0 - (len(row) - 1) * COLUMN / 2
        for i, node in enumerate(row):
            positions[node] = (round(left + i * COLUMN), y)
        y += max((heights.get(n, 60.0) for n in row), default=60.0) + GAP
    return positions


def _mean(values: list[int], default: float) -> float:
    return sum(values) / len(values) if values else default


def laid_out(spec: GraphSpec) -> GraphSpec:
    """`spec` with every node placed by the layered layout when some node has no position (an
    imported or hand-written spec), instead of one tangled row; else `spec` itself. Layout only:
    the graph is unchanged."""
    if not spec.nodes or all(n.position is not None for n in spec.nodes):
        return spec
    positions = layered_positions(spec, {n.id: 60.0 + 16 * _lines(n) for n in spec.nodes})
    nodes = [n.model_copy(update={"position": Position(x=positions[n.id][0], y=positions[n.id][1])})
             if n.id in positions else n for n in spec.nodes]  # fmt: skip
    return spec.model_copy(update={"nodes": nodes})


def _lines(node) -> int:
    """Roughly how many text lines a card shows (agents show their middleware too)."""
    return 2 + len(getattr(node, "values", ()) or ()) // 2
