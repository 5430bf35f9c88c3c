"""A small directed graph and the four walks the validator and the canvas layout need.

They used networkx, whose package import loads some 300 modules (a quarter of a second on a
small machine, paid by `superstep validate`, `superstep run` and the studio's first check) for
a breadth-first search and Tarjan's components. The same answers, in the same order: nodes and
each node's successors keep insertion order as networkx's DiGraph does, and
`strongly_connected_components` is networkx's non-recursive Tarjan (BSD licence), so findings
come out as before.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator


class DiGraph:
    """Nodes and edges in insertion order; adding an edge adds its missing ends."""

    def __init__(self) -> None:
        self._succ: dict[Hashable, dict[Hashable, None]] = {}
        self._pred: dict[Hashable, dict[Hashable, None]] = {}

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._succ)

    def __contains__(self, node: object) -> bool:
        return node in self._succ

    def __len__(self) -> int:
        return len(self._succ)

    @property
    def nodes(self) -> list[Hashable]:
        return list(self._succ)

    def add_node(self, node: Hashable) -> None:
        if node not in self._succ:
            self._succ[node] = {}
            self._pred[node] = {}

    def add_nodes_from(self, nodes: Iterable[Hashable]) -> None:
        for node in nodes:
            self.add_node(node)

    def add_edge(self, source: Hashable, target: Hashable) -> None:
        self.add_node(source)
        self.add_node(target)
        self._succ[source][target] = None
        self._pred[target][source] = None

    def add_edges_from(self, edges: Iterable[tuple[Hashable, Hashable]]) -> None:
        for source, target in edges:
            self.add_edge(source, target)

    def remove_nodes_from(self, nodes: Iterable[Hashable]) -> None:
        for node in nodes:
            if node not in self._succ:
                continue
            for target in self._succ.pop(node):
                del self._pred[target][node]
            for source in self._pred.pop(node):
                del self._succ[source][node]

    def remove_edges_from(self, edges: Iterable[tuple[Hashable, Hashable]]) -> None:
        for source, target in edges:
            if target in self._succ.get(source, ()):
                del self._succ[source][target]
                del self._pred[target][source]

    def has_edge(self, source: Hashable, target: Hashable) -> bool:
        return target in self._succ.get(source, ())

    def successors(self, node: Hashable) -> Iterator[Hashable]:
        return iter(self._succ[node])

    def predecessors(self, node: Hashable) -> Iterator[Hashable]:
        return iter(self._pred[node])

    def out_degree(self, node: Hashable) -> int:
        return len(self._succ[node])

    def in_edges(self, node: Hashable) -> list[tuple[Hashable, Hashable]]:
        return [(source, node) for source in self._pred[node]]

    def out_edges(self, node: Hashable) -> list[tuple[Hashable, Hashable]]:
        return [(node, target) for target in self._succ[node]]


def _reach(step: dict[Hashable, dict[Hashable, None]], start: Hashable) -> set[Hashable]:
    seen: set[Hashable] = set()
    todo = [start]
    while todo:
        for nxt in step[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    seen.discard(start)
    return seen


def descendants(graph: DiGraph, node: Hashable) -> set[Hashable]:
    """Every node a path from `node` reaches, `node` itself left out (as networkx's)."""
    return _reach(graph._succ, node)


def ancestors(graph: DiGraph, node: Hashable) -> set[Hashable]:
    """Every node with a path to `node`, `node` itself left out."""
    return _reach(graph._pred, node)


def strongly_connected_components(graph: DiGraph) -> Iterator[set[Hashable]]:
    """Each strongly connected component as a set, in networkx's order (its non-recursive
    Tarjan, with Nuutila's refinements)."""
    preorder: dict[Hashable, int] = {}
    lowlink: dict[Hashable, int] = {}
    found: set[Hashable] = set()
    stack: list[Hashable] = []
    count = 0
    neighbours = {v: iter(graph._succ[v]) for v in graph}
    for source in graph:
        if source in found:
            continue
        queue = [source]
        while queue:
            v = queue[-1]
            if v not in preorder:
                count += 1
                preorder[v] = count
            done = True
            for w in neighbours[v]:
                if w not in preorder:
                    queue.append(w)
                    done = False
                    break
            if not done:
                continue
            lowlink[v] = preorder[v]
            for w in graph._succ[v]:
                if w not in found:
                    below = lowlink[w] if preorder[w] > preorder[v] else preorder[w]
                    lowlink[v] = min(lowlink[v], below)
            queue.pop()
            if lowlink[v] == preorder[v]:
                component = {v}
                while stack and preorder[stack[-1]] > preorder[v]:
                    component.add(stack.pop())
                found.update(component)
                yield component
            else:
                stack.append(v)


def topological_sort(graph: DiGraph) -> Iterator[Hashable]:
    """Nodes, each after all its predecessors; ValueError when the graph has a cycle."""
    waiting = {v: len(graph._pred[v]) for v in graph}
    ready = [v for v, n in waiting.items() if n == 0]
    done = 0
    while ready:
        v = ready.pop()
        done += 1
        yield v
        for w in graph._succ[v]:
            waiting[w] -= 1
            if waiting[w] == 0:
                ready.append(w)
    if done != len(graph):
        raise ValueError("the graph has a cycle")
