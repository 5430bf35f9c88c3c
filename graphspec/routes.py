"""Where a conditional edge can go, as far as the spec tells without running anything.

The validator's graph, the Mermaid export and the canvas all draw a conditional edge's routes
from here: the path map's entries, a Send router's target, or the names an expression router
returns when they are all literals. A code router, or an expression without literal results and
without a path map, may go anywhere.
"""

from __future__ import annotations

import ast

from engine.constants import END, START
from graphspec import expressions
from graphspec.model import ConditionalEdge, ExpressionRouter, GraphSpec, SendRouter


def literal_results(expression: str) -> set[str] | None:
    """The names a router expression can return, when they are all literals; else None."""
    try:
        body = expressions.parse(expression).body
    except expressions.ExpressionError:
        return None

    def walk(node: ast.AST) -> set[str] | None:
        if isinstance(node, ast.IfExp):
            a, b = walk(node.body), walk(node.orelse)
            return None if a is None or b is None else a | b
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.Name) and node.id in ("END", "START"):
            return {END if node.id == "END" else START}
        if isinstance(node, (ast.List, ast.Tuple)):
            parts = [walk(e) for e in node.elts]
            if any(p is None for p in parts):
                return None
            return set().union(*parts) if parts else set()
        return None

    return walk(body)


def conditional_routes(edge: ConditionalEdge) -> list[tuple[str, str]] | None:
    """(label, target) for each route, in the order drawn; None if the edge may go anywhere."""
    if isinstance(edge.path_map, dict):
        return [(str(k), v) for k, v in edge.path_map.items()]
    if edge.path_map is not None:
        return [(t, t) for t in edge.path_map]
    if isinstance(edge.router, SendRouter):
        return [("Send", edge.router.target)]
    if isinstance(edge.router, ExpressionRouter):
        found = literal_results(edge.router.expression)
        return None if found is None else [(t, t) for t in sorted(found)]
    return None


def drawn_routes(spec: GraphSpec, edge: ConditionalEdge) -> list[tuple[str, str]]:
    """(label, target) for each route drawn (the canvas, the Mermaid export): the routes the spec
    tells; for a router that may go anywhere (code returning `str`, no path map) leaving a place
    nothing else leaves, a route to END, as langgraph's `get_graph()` draws it: its drawing
    follows only the routes it can see, and ends the graph where nothing goes on."""
    routes = conditional_routes(edge)
    if routes is not None:
        return routes
    leaves = any(edge.source in sources for _, _, sources, _ in spec.all_edges()) or any(
        e.source == edge.source and conditional_routes(e) for e in spec.conditional_edges
    )
    return [] if leaves or getattr(spec.node(edge.source), "destinations", None) else [(END, END)]


def possible_targets(edge: ConditionalEdge) -> set[str] | None:
    """The targets a conditional edge can reach, or None if anywhere."""
    routes = conditional_routes(edge)
    return None if routes is None else {target for _, target in routes}


__all__ = ["conditional_routes", "drawn_routes", "literal_results", "possible_targets"]
