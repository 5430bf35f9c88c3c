"""Connecting nodes: plain edges, joins, START/END shorthands, conditional edges."""

from __future__ import annotations

from typing import Any

from engine.constants import END, START
from graphspec.model import ConditionalEdge, Edge, ExpressionRouter, GraphSpec
from studio.document import GraphDocument
from studio.edits.base import SpecEdit, replaced, unique_id


def element_ids(spec: GraphSpec) -> set[str]:
    """Ids an edge may not take: every node, edge and conditional edge id."""
    return {n.id for n in spec.nodes} | {e.id for e in spec.edges} | {
        e.id for e in spec.conditional_edges
    }


def _connect(spec: GraphSpec, fields: dict[str, Any], source: str, target: str, join: bool) -> None:
    """Add source -> target to the working `fields` (entry, finish, edges)."""
    if target == START or source == END:
        raise ValueError("edges run from START and into END, not the other way")
    if source == START and target == END:
        raise ValueError("connect START to a node, not straight to END")
    if source == START:
        if target in fields["entry"]:
            raise ValueError(f"START already leads to {target}")
        fields["entry"] = [*fields["entry"], target]
        return
    if target == END:
        if source in fields["finish"]:
            raise ValueError(f"{source} already leads to END")
        fields["finish"] = [*fields["finish"], source]
        return
    edges = fields["edges"]
    if any(source in e.sources and e.target == target for e in edges):
        raise ValueError(f"{source} already leads to {target}")
    if join:
        into = next((e for e in edges if e.target == target), None)
        if into is not None:
            new = into.model_copy(update={"sources": [*into.sources, source]})
            fields["edges"] = replaced(edges, into.id, new)
            return
    taken = element_ids(spec) | {e.id for e in edges}
    edge = Edge(id=unique_id(f"{source}_to_{target}", taken), sources=[source], target=target)
    fields["edges"] = [*edges, edge]


def _working(spec: GraphSpec) -> dict[str, Any]:
    return {"entry": spec.entry, "finish": spec.finish, "edges": spec.edges}


def _changed(spec: GraphSpec, fields: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v != getattr(spec, k)}


class ConnectEdit(SpecEdit):
    """source -> target; with `join`, the source joins the edge already entering target."""

    def __init__(self, document: GraphDocument, source: str, target: str, join: bool = False):
        spec = document.spec
        fields = _working(spec)
        _connect(spec, fields, source, target, join)
        super().__init__(document, f"Connect {source} to {target}", _changed(spec, fields))


class ReconnectEdit(SpecEdit):
    """Moves the target end of an edge (`entry:X`, `finish:X` or an edge id) to `new_target`."""

    def __init__(self, document: GraphDocument, element_id: str, new_target: str) -> None:
        spec = document.spec
        fields = _working(spec)
        if element_id.startswith("entry:"):
            old = element_id.split(":", 1)[1]
            fields["entry"] = [t for t in spec.entry if t != old]
            _connect(spec, fields, START, new_target, False)
        elif element_id.startswith("finish:"):
            old = element_id.split(":", 1)[1]
            fields["finish"] = [s for s in spec.finish if s != old]
            _connect(spec, fields, old, new_target, False)
        else:
            edge = next((e for e in spec.edges if e.id == element_id), None)
            if edge is None:
                raise ValueError(f"{element_id}: only plain edges can be reconnected by dragging")
            if new_target == END:
                fields["edges"] = [e for e in spec.edges if e.id != element_id]
                for source in edge.sources:
                    _connect(spec, fields, source, END, False)
            else:
                if new_target == START:
                    raise ValueError("an edge cannot end at START")
                fields["edges"] = replaced(spec.edges, edge.id, edge.model_copy(update={"target": new_target}))
        super().__init__(document, f"Reconnect {element_id} to {new_target}", _changed(spec, fields))


class AddConditionalEdgeEdit(SpecEdit):
    """A conditional edge after `source` routed by an expression; `targets` lists its routes."""

    def __init__(
        self, document: GraphDocument, source: str, expression: str, targets: list[str]
    ) -> None:
        spec = document.spec
        edge = ConditionalEdge(
            id=unique_id(f"route_{source}", element_ids(spec)),
            source=source,
            router=ExpressionRouter(kind="expression", expression=expression),
            path_map=list(targets) or None,
        )
        after = {"conditional_edges": [*spec.conditional_edges, edge]}
        super().__init__(document, f"Add conditional edge after {source}", after)


class SetEdgeEdit(SpecEdit):
    """Replaces a plain (`edges`) or conditional (`conditional_edges`) edge by a new version."""

    def __init__(self, document: GraphDocument, field: str, new: Any, merge: bool = False) -> None:
        items = getattr(document.spec, field)
        after = {field: replaced(items, new.id, new)}
        key = (field, new.id) if merge else None
        super().__init__(document, f"Change edge {new.id}", after, merge_key=key)
