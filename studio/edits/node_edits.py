"""Adding, removing and moving nodes and notes."""

from __future__ import annotations

from typing import Any

from graphspec.model import (
    AgentSpec,
    ConditionalEdge,
    GraphSpec,
    Note,
    Position,
    SendRouter,
    Subgraph,
)
from studio.document import GraphDocument
from studio.edits.base import SpecEdit
from studio.i18n import translate


class AddNodeEdit(SpecEdit):
    """Adds one node (and the agent or subgraph it refers to, when that is new)."""

    def __init__(
        self, document: GraphDocument, node: Any, agent: AgentSpec | None = None,
        subgraph: Subgraph | None = None,
    ) -> None:  # fmt: skip
        spec = document.spec
        after: dict[str, Any] = {"nodes": [*spec.nodes, node]}
        if agent is not None:
            after["agents"] = [*spec.agents, agent]
        if subgraph is not None:
            after["subgraphs"] = [*spec.subgraphs, subgraph]
        super().__init__(document, f"Add {node.kind} node {node.id}", after)


class AddElementsEdit(SpecEdit):
    """Adds several elements at once (paste): nodes, edges, conditional edges, notes, agents."""

    def __init__(self, document: GraphDocument, part: GraphSpec, text: str = "") -> None:
        spec = document.spec
        after: dict[str, Any] = {}
        for field in ("nodes", "edges", "conditional_edges", "agents", "subgraphs"):
            if getattr(part, field):
                after[field] = [*getattr(spec, field), *getattr(part, field)]
        if part.view.notes:
            after["view"] = spec.view.model_copy(
                update={"notes": [*spec.view.notes, *part.view.notes]}
            )
        super().__init__(document, text or translate("edits.node_edits", "Paste"), after)


def without_nodes(spec: GraphSpec, gone: set[str]) -> dict[str, Any]:
    """The fields that change when the nodes `gone` are removed, with every edge touching them."""
    edges = []
    for edge in spec.edges:
        sources = [s for s in edge.sources if s not in gone]
        if edge.target in gone or not sources:
            continue
        edges.append(
            edge if sources == edge.sources else edge.model_copy(update={"sources": sources})
        )
    after: dict[str, Any] = {
        "nodes": [n for n in spec.nodes if n.id not in gone],
        "edges": edges,
        "conditional_edges": [
            kept
            for e in spec.conditional_edges
            if e.source not in gone and (kept := without_routes(e, gone)) is not None
        ],
        "entry": [t for t in spec.entry if t not in gone],
        "finish": [s for s in spec.finish if s not in gone],
    }
    used_agents = {getattr(n, "agent", None) for n in after["nodes"]}
    after["agents"] = [a for a in spec.agents if a.id in used_agents]
    return after


def without_routes(edge: ConditionalEdge, gone: set[str]) -> ConditionalEdge | None:
    """A router with its routes to the nodes `gone` taken out, as a plain edge to one is (they
    were drawn nowhere, so no click could remove them); None when no route is left, or its
    Send fan-out went to one. Its rule may still name one: the validator says so there."""
    if isinstance(edge.router, SendRouter) and edge.router.target in gone:
        return None
    routes = edge.path_map
    if isinstance(routes, dict):
        kept: Any = {label: t for label, t in routes.items() if t not in gone}
    elif isinstance(routes, list):
        kept = [t for t in routes if t not in gone]
    else:
        return edge  # no path map: it may go anywhere
    if len(kept) == len(routes):
        return edge
    return edge.model_copy(update={"path_map": kept}) if kept else None


class RemoveElementsEdit(SpecEdit):
    """Removes nodes (with their edges), edges (by element id, `entry:X`/`finish:X` included),
    conditional edges and notes."""

    def __init__(self, document: GraphDocument, ids: set[str]) -> None:
        spec = document.spec
        after = without_nodes(spec, {n.id for n in spec.nodes if n.id in ids})
        after["edges"] = [e for e in after["edges"] if e.id not in ids]
        after["conditional_edges"] = [e for e in after["conditional_edges"] if e.id not in ids]
        after["entry"] = [t for t in after["entry"] if f"entry:{t}" not in ids]
        after["finish"] = [s for s in after["finish"] if f"finish:{s}" not in ids]
        notes = [n for n in spec.view.notes if n.id not in ids]
        if len(notes) != len(spec.view.notes):
            after["view"] = spec.view.model_copy(update={"notes": notes})
        after = {k: v for k, v in after.items() if v != getattr(spec, k)}
        super().__init__(document, f"Delete {len(ids)} element(s)", after)


class MoveElementsEdit(SpecEdit):
    """Moves nodes and notes to new positions (one edit per drag, however many items)."""

    def __init__(self, document: GraphDocument, positions: dict[str, tuple[float, float]]) -> None:
        spec = document.spec
        after: dict[str, Any] = {}
        nodes = [
            n.model_copy(update={"position": Position(x=positions[n.id][0], y=positions[n.id][1])})
            if n.id in positions else n
            for n in spec.nodes
        ]  # fmt: skip
        if any(n is not o for n, o in zip(nodes, spec.nodes, strict=True)):
            after["nodes"] = nodes
        notes = [
            Note(id=n.id, text=n.text, position=Position(x=positions[n.id][0], y=positions[n.id][1]))
            if n.id in positions else n
            for n in spec.view.notes
        ]  # fmt: skip
        if any(n is not o for n, o in zip(notes, spec.view.notes, strict=True)):
            after["view"] = spec.view.model_copy(update={"notes": notes})
        names = list(positions)
        super().__init__(
            document, f"Move {names[0]}" if len(names) == 1 else f"Move {len(names)} items", after
        )
