"""Connecting nodes: plain edges, joins, START/END shorthands, conditional edges and their
routes (add, re-target, convert a fan-out into a router and back)."""

from __future__ import annotations

from typing import Any

from engine.constants import END, START
from graphspec.model import ConditionalEdge, Edge, ExpressionRouter, GraphSpec, SendRouter
from studio.canvas.looks import routes, shown
from studio.document import GraphDocument
from studio.edits.base import SpecEdit, replaced, unique_id
from studio.i18n import translate


def edge_name(element_id: str) -> str:
    """An edge element id as the user sees it: `finish:b` is `b → END`."""
    if element_id.startswith("entry:"):
        return f"START → {element_id[6:]}"
    if element_id.startswith("finish:"):
        return f"{element_id[7:]} → END"
    return element_id


def element_ids(spec: GraphSpec) -> set[str]:
    """Ids an edge may not take: every node, edge and conditional edge id."""
    return (
        {n.id for n in spec.nodes}
        | {e.id for e in spec.edges}
        | {e.id for e in spec.conditional_edges}
    )


def _connect(spec: GraphSpec, fields: dict[str, Any], source: str, target: str, join: bool) -> None:
    """Add source -> target to the working `fields` (entry, finish, edges)."""
    if target == START or source == END:
        raise ValueError(
            translate("edits.edge_edits", "edges run from START and into END, not the other way")
        )
    if source == START and target == END:
        raise ValueError(
            translate("edits.edge_edits", "connect START to a node, not straight to END")
        )
    if source == START:
        if target in fields["entry"]:
            raise ValueError(
                translate("edits.edge_edits", "START already leads to {target}").format(
                    target=target
                )
            )
        fields["entry"] = [*fields["entry"], target]
        return
    if target == END:
        if source in fields["finish"]:
            raise ValueError(
                translate("edits.edge_edits", "{source} already leads to END").format(source=source)
            )
        fields["finish"] = [*fields["finish"], source]
        return
    edges = fields["edges"]
    if any(source in e.sources and e.target == target for e in edges):
        raise ValueError(
            translate("edits.edge_edits", "{source} already leads to {target}").format(
                source=source, target=target
            )
        )
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
        super().__init__(
            document, f"Connect {shown(source)} to {shown(target)}", _changed(spec, fields)
        )


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
                raise ValueError(
                    translate(
                        "edits.edge_edits",
                        "{element_id}: only plain edges can be reconnected by dragging",
                    ).format(element_id=element_id)
                )
            if new_target == END:
                fields["edges"] = [e for e in spec.edges if e.id != element_id]
                for source in edge.sources:
                    _connect(spec, fields, source, END, False)
            else:
                if new_target == START:
                    raise ValueError(translate("edits.edge_edits", "an edge cannot end at START"))
                fields["edges"] = replaced(
                    spec.edges, edge.id, edge.model_copy(update={"target": new_target})
                )
        super().__init__(document, f"Reconnect {edge_name(element_id)} to {shown(new_target)}",
                         _changed(spec, fields))  # fmt: skip


def path_map_of(pairs: list[tuple[str, str]]) -> dict[str, str] | list[str] | None:
    """The smallest path map for (result, target) pairs: a list when each result is its target."""
    if not pairs:
        return None
    if all(result == target for result, target in pairs):
        return [t for _r, t in pairs]
    return dict(pairs)


def _literal(target: str) -> str:
    return "END" if target == END else repr(target)


class AddConditionalEdgeEdit(SpecEdit):
    """A conditional edge after `source` routed by an expression; `targets` lists its routes.
    Without an expression it routes to the first target (the designer writes the rule next)."""

    def __init__(
        self, document: GraphDocument, source: str, expression: str = "", targets: list[str] = ()
    ) -> None:
        spec = document.spec
        if source == END or spec.node(source) is None and source != START:
            raise ValueError(
                translate(
                    "edits.edge_edits", "a conditional edge starts at a node, not {shown}"
                ).format(shown=shown(source))
            )
        targets = list(targets)
        if START in targets:
            raise ValueError(translate("edits.edge_edits", "a route cannot lead to START"))
        edge = ConditionalEdge(
            id=unique_id(f"route_{source.strip('_')}", element_ids(spec)),
            source=source,
            router=ExpressionRouter(
                kind="expression",
                expression=expression or (_literal(targets[0]) if targets else "END"),
            ),
            path_map=list(targets) or None,
        )
        after = {"conditional_edges": [*spec.conditional_edges, edge]}
        super().__init__(
            document,
            translate("edits.edge_edits", "Add conditional edge after {shown}").format(
                shown=shown(source)
            ),
            after,
        )
        self.edge_id = edge.id


class AddRouteEdit(SpecEdit):
    """Adds `target` as a route of the conditional edge `edge_id` (its path map grows)."""

    def __init__(self, document: GraphDocument, edge_id: str, target: str) -> None:
        spec = document.spec
        edge = _conditional(spec, edge_id)
        if target == START:
            raise ValueError(translate("edits.edge_edits", "a route cannot lead to START"))
        if isinstance(edge.router, SendRouter):
            raise ValueError(
                translate(
                    "edits.edge_edits", "{edge_id} sends to {shown}: change its target instead"
                ).format(edge_id=edge_id, shown=shown(edge.router.target))
            )
        pairs = routes(edge)
        if any(t == target for _r, t in pairs):
            raise ValueError(
                translate("edits.edge_edits", "{edge_id} already routes to {shown}").format(
                    edge_id=edge_id, shown=shown(target)
                )
            )
        pairs.append((target, target))
        new = edge.model_copy(update={"path_map": path_map_of(pairs)})
        after = {"conditional_edges": replaced(spec.conditional_edges, edge_id, new)}
        super().__init__(
            document,
            translate("edits.edge_edits", "Add route {shown} → {shown2}").format(
                shown=shown(edge.source), shown2=shown(target)
            ),
            after,
        )


class RetargetRouteEdit(SpecEdit):
    """Moves the end of route `index` of a conditional edge to `new_target`: the router's result
    stays the same and now leads there (a listed route becomes a `result: target` entry)."""

    def __init__(self, document: GraphDocument, edge_id: str, index: int, new_target: str) -> None:
        spec = document.spec
        edge = _conditional(spec, edge_id)
        if new_target == START:
            raise ValueError(translate("edits.edge_edits", "a route cannot lead to START"))
        if isinstance(edge.router, SendRouter) and edge.path_map is None:
            new = edge.model_copy(
                update={"router": edge.router.model_copy(update={"target": new_target})}
            )
        else:
            pairs = routes(edge)
            if not 0 <= index < len(pairs):
                raise ValueError(
                    translate("edits.edge_edits", "{edge_id} has no route {index}").format(
                        edge_id=edge_id, index=index
                    )
                )
            if pairs[index][1] == new_target:
                raise ValueError(
                    translate("edits.edge_edits", "that route already leads to {shown}").format(
                        shown=shown(new_target)
                    )
                )
            pairs[index] = (pairs[index][0], new_target)
            new = edge.model_copy(update={"path_map": path_map_of(pairs)})
        after = {"conditional_edges": replaced(spec.conditional_edges, edge_id, new)}
        super().__init__(
            document,
            translate("edits.edge_edits", "Re-target route of {shown} to {shown2}").format(
                shown=shown(edge.source), shown2=shown(new_target)
            ),
            after,
        )


def _conditional(spec: GraphSpec, edge_id: str) -> ConditionalEdge:
    edge = next((e for e in spec.conditional_edges if e.id == edge_id), None)
    if edge is None:
        raise KeyError(edge_id)
    return edge


class ConvertToRouterEdit(SpecEdit):
    """Turns the plain edges leaving `source` (its fan-out, END included) into one conditional
    edge whose expression returns every target: it runs the same, and each route can now be
    given its own condition."""

    def __init__(self, document: GraphDocument, source: str) -> None:
        spec = document.spec
        targets = (
            list(spec.entry)
            if source == START
            else [e.target for e in spec.edges if e.sources == [source]]
        )
        if source in spec.finish:
            targets.append(END)
        if not targets:
            raise ValueError(
                translate(
                    "edits.edge_edits",
                    "{shown} has no plain edges of its own to turn into a router",
                ).format(shown=shown(source))
            )
        expression = (
            "[" + ", ".join(_literal(t) for t in targets) + "]"
            if len(targets) > 1
            else _literal(targets[0])
        )
        edge = ConditionalEdge(
            id=unique_id(f"route_{source.strip('_')}", element_ids(spec)), source=source,
            router=ExpressionRouter(kind="expression", expression=expression), path_map=targets,
        )  # fmt: skip
        after = {
            "edges": [e for e in spec.edges if e.sources != [source]],
            "entry": [] if source == START else spec.entry,
            "finish": [s for s in spec.finish if s != source],
            "conditional_edges": [*spec.conditional_edges, edge],
        }
        super().__init__(
            document,
            translate("edits.edge_edits", "Convert edges of {shown} to a router").format(
                shown=shown(source)
            ),
            _changed(spec, after),
        )
        self.edge_id = edge.id


class ConvertToEdgesEdit(SpecEdit):
    """Turns a conditional edge into plain edges to each of its routes (a fan-out: all run)."""

    def __init__(self, document: GraphDocument, edge_id: str) -> None:
        spec = document.spec
        edge = _conditional(spec, edge_id)
        targets = list(dict.fromkeys(t for _r, t in routes(edge)))
        if not targets:
            raise ValueError(
                translate(
                    "edits.edge_edits", "{edge_id} lists no routes: add its targets first"
                ).format(edge_id=edge_id)
            )
        fields = _working(spec)
        for target in targets:
            if not any(
                edge.source in e.sources and e.target == target for e in fields["edges"]
            ) and not (target == END and edge.source in fields["finish"]):
                _connect(spec, fields, edge.source, target, False)
        fields["conditional_edges"] = [e for e in spec.conditional_edges if e.id != edge_id]
        super().__init__(
            document,
            translate("edits.edge_edits", "Convert router of {shown} to plain edges").format(
                shown=shown(edge.source)
            ),
            _changed(spec, fields),
        )


class SetEdgeEdit(SpecEdit):
    """Replaces a plain (`edges`) or conditional (`conditional_edges`) edge by a new version."""

    def __init__(self, document: GraphDocument, field: str, new: Any, merge: bool = False) -> None:
        items = getattr(document.spec, field)
        after = {field: replaced(items, new.id, new)}
        key = (field, new.id) if merge else None
        super().__init__(
            document,
            translate("edits.edge_edits", "Change edge {id}").format(id=new.id),
            after,
            merge_key=key,
        )
