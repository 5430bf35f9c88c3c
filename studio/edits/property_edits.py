"""Changing what elements say: renames, node and agent properties, state keys, middleware."""

from __future__ import annotations

from typing import Any

from graphspec.model import (
    AgentSpec,
    Breakpoints,
    GraphSpec,
    Identifier,
    Note,
    SendRouter,
    StateKey,
)
from studio.document import GraphDocument
from studio.edits.base import SpecEdit, replaced, updated
from studio.edits.edge_edits import element_ids
from studio.i18n import translate

_IDENTIFIER = __import__("pydantic").TypeAdapter(Identifier)


def _swap(names: list[str], old: str, new: str) -> list[str]:
    return [new if n == old else n for n in names]


def renamed(spec: GraphSpec, old: str, new: str) -> dict[str, Any]:
    """Every field that names node `old`, with `new` instead (expressions are left to the
    validator, which flags a route that still names the old id)."""
    nodes = []
    for n in spec.nodes:
        changes: dict[str, Any] = {}
        if n.id == old:
            changes["id"] = new
        if old in getattr(n, "destinations", ()):
            changes["destinations"] = _swap(n.destinations, old, new)
        nodes.append(n.model_copy(update=changes) if changes else n)
    edges = [
        e.model_copy(update={"sources": _swap(e.sources, old, new), "target": new if e.target == old else e.target})
        if old in e.sources or e.target == old else e
        for e in spec.edges
    ]  # fmt: skip
    conditional = []
    for e in spec.conditional_edges:
        changes = {}
        if e.source == old:
            changes["source"] = new
        if isinstance(e.path_map, dict) and old in e.path_map.values():
            changes["path_map"] = {k: new if v == old else v for k, v in e.path_map.items()}
        elif isinstance(e.path_map, list) and old in e.path_map:
            changes["path_map"] = _swap(e.path_map, old, new)
        if isinstance(e.router, SendRouter) and e.router.target == old:
            changes["router"] = e.router.model_copy(update={"target": new})
        conditional.append(e.model_copy(update=changes) if changes else e)
    bp = spec.breakpoints
    groups = [g.model_copy(update={"nodes": _swap(g.nodes, old, new)}) for g in spec.view.groups]
    return {
        "nodes": nodes,
        "edges": edges,
        "conditional_edges": conditional,
        "entry": _swap(spec.entry, old, new),
        "finish": _swap(spec.finish, old, new),
        "breakpoints": bp.model_copy(
            update={"before": _swap(bp.before, old, new), "after": _swap(bp.after, old, new)}
        ),
        "view": spec.view.model_copy(update={"groups": groups}),
    }


class RenameNodeEdit(SpecEdit):
    """Gives node `old` the id `new` and updates every edge, route and breakpoint naming it."""

    def __init__(self, document: GraphDocument, old: str, new: str) -> None:
        spec = document.spec
        new = _IDENTIFIER.validate_python(new)
        if new != old and new in element_ids(spec):
            raise ValueError(
                translate("edits.property_edits", "{new!r} is already taken").format(new=new)
            )
        super().__init__(document, f"Rename {old} to {new}", renamed(spec, old, new))


class SetNodeEdit(SpecEdit):
    """Sets node properties (not its id: that is a rename); typing in one field merges."""

    def __init__(self, document: GraphDocument, node_id: str, **changes: Any) -> None:
        spec = document.spec
        node = spec.node(node_id)
        if node is None:
            raise KeyError(node_id)
        if "id" in changes:
            raise ValueError("use RenameNodeEdit to change a node id")
        new = updated(node, **changes)
        key = ("node", node_id, tuple(sorted(changes)))
        super().__init__(
            document, f"Change {', '.join(changes)} of {node_id}",
            {"nodes": replaced(spec.nodes, node_id, new)}, merge_key=key,
        )  # fmt: skip


class SetAgentEdit(SpecEdit):
    """Replaces an agent's settings (model, prompt, tools, middleware) with `agent`.

    `merge`: True merges with the previous edit of this agent, False never merges, and a string
    (the field being typed in, e.g. "tools[0].code") merges only with edits of that field."""

    def __init__(self, document: GraphDocument, agent: AgentSpec, merge: bool | str = True,
                 text: str = "") -> None:  # fmt: skip
        agent = AgentSpec.model_validate(agent.model_dump())
        after = {"agents": replaced(document.spec.agents, agent.id, agent)}
        key = (
            ("agent", agent.id, merge)
            if isinstance(merge, str)
            else ("agent", agent.id)
            if merge
            else None
        )
        super().__init__(
            document,
            text or translate("edits.property_edits", "Change agent {id}").format(id=agent.id),
            after,
            merge_key=key,
        )


class ReorderMiddlewareEdit(SpecEdit):
    """Puts an agent's middleware in a new order: `order[i]` is the old index of the new i-th."""

    def __init__(self, document: GraphDocument, agent_id: str, order: list[int]) -> None:
        agent = document.spec.agent(agent_id)
        if agent is None or sorted(order) != list(range(len(agent.middleware))):
            raise ValueError(
                translate(
                    "edits.property_edits", "bad middleware order {order} for agent {agent_id}"
                ).format(order=order, agent_id=agent_id)
            )
        new = agent.model_copy(update={"middleware": [agent.middleware[i] for i in order]})
        after = {"agents": replaced(document.spec.agents, agent_id, new)}
        super().__init__(
            document,
            translate("edits.property_edits", "Reorder middleware of {agent_id}").format(
                agent_id=agent_id
            ),
            after,
        )


class AddMiddlewareEdit(SpecEdit):
    """Appends a middleware (a `PrebuiltMiddleware` or `CustomMiddleware`) to an agent."""

    def __init__(self, document: GraphDocument, agent_id: str, middleware: Any) -> None:
        agent = document.spec.agent(agent_id)
        if agent is None:
            raise KeyError(agent_id)
        new = agent.model_copy(update={"middleware": [*agent.middleware, middleware]})
        after = {"agents": replaced(document.spec.agents, agent_id, new)}
        super().__init__(document, f"Add {middleware.name} to {agent_id}", after)


class SetStateKeysEdit(SpecEdit):
    """Replaces the state schema (keys, types, reducers, input/output flags) in one step."""

    def __init__(
        self,
        document: GraphDocument,
        keys: list[StateKey],
        text: str = "",
    ):
        keys = [StateKey.model_validate(k.model_dump()) for k in keys]
        names = [k.name for k in keys]
        if len(set(names)) != len(names):
            raise ValueError(translate("edits.property_edits", "two state keys share a name"))
        text = text or translate("edits.property_edits", "Edit state keys")
        super().__init__(document, text, {"state": keys})


class SetSpecFieldEdit(SpecEdit):
    """Sets a graph-level field (`name`, `description`, `inputs`, `recursion_limit`...)."""

    def __init__(self, document: GraphDocument, field: str, value: Any) -> None:
        new = updated(document.spec, **{field: value})
        super().__init__(
            document,
            translate("edits.property_edits", "Change graph {field}").format(field=field),
            {field: getattr(new, field)},
            merge_key=("spec", field),
        )


class SetNoteTextEdit(SpecEdit):
    def __init__(self, document: GraphDocument, note_id: str, text: str) -> None:
        view = document.spec.view
        old = next(n for n in view.notes if n.id == note_id)
        notes = replaced(view.notes, note_id, Note(id=note_id, text=text, position=old.position))
        super().__init__(
            document, translate("edits.property_edits", "Edit note {note_id}").format(note_id=note_id), {"view": view.model_copy(update={"notes": notes})},
            merge_key=("note", note_id),
        )  # fmt: skip


class ToggleBreakpointEdit(SpecEdit):
    """Adds or removes a breakpoint `before` or `after` node `node_id` (`interrupt_before` /
    `interrupt_after` when the graph compiles)."""

    def __init__(self, document: GraphDocument, node_id: str, which: str) -> None:
        spec = document.spec
        if which not in ("before", "after"):
            raise ValueError(
                translate(
                    "edits.property_edits", "a breakpoint is before or after a node, not {which!r}"
                ).format(which=which)
            )
        if spec.node(node_id) is None:
            raise ValueError(
                translate("edits.property_edits", "breakpoints go on nodes: select one first")
            )
        names = list(getattr(spec.breakpoints, which))
        on = node_id not in names
        names = [*names, node_id] if on else [n for n in names if n != node_id]
        after = {"breakpoints": spec.breakpoints.model_copy(update={which: names})}
        text = f"{'Set' if on else 'Clear'} breakpoint {which} {node_id}"
        super().__init__(document, text, after)


class SetBreakpointsEdit(SpecEdit):
    """Replaces the breakpoints (the Breakpoints dock's edits: add, remove, enable, condition,
    hit count); like every breakpoint edit it does not mark the graph modified."""

    def __init__(self, document: GraphDocument, breakpoints: Breakpoints, text: str) -> None:
        super().__init__(document, text, {"breakpoints": breakpoints})
