"""The editor: owns the undo stack and turns intents (from the canvas, palette, inspector,
state editor) into edits. The only place that pushes on the stack."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, get_args

from pydantic import ValidationError
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from engine.constants import END
from graphspec.errors import SpecValidationError
from graphspec.io import spec_from_dict, spec_to_dict
from graphspec.model import (
    AgentSpec,
    Breakpoints,
    ConditionalEdge,
    CustomMiddleware,
    GraphSpec,
    Identifier,
    Note,
    Position,
    PrebuiltMiddleware,
    SendRouter,
    Subgraph,
)
from graphspec.routes import possible_targets
from studio import edits
from studio.canvas.items.node_item import card_size
from studio.canvas.layout import layered_positions
from studio.canvas.looks import node_look
from studio.document import GraphDocument
from studio.edits.base import NODE, unique_id
from studio.edits.edge_edits import element_ids
from studio.i18n import translate
from studio.workers import run_in_thread

CLIPBOARD_KIND = "superstep-studio/elements"
LAYOUT_THREAD_MIN = 60
DRAWING_EDITS = (edits.MoveElementsEdit, edits.ToggleBreakpointEdit, edits.SetBreakpointsEdit)
"""The edits a graph drawn from code takes: where its cards sit and where runs pause."""
"""Graphs with more nodes than this are laid out on a worker thread."""


def default_node(kind: str, node_id: str, x: float, y: float) -> dict[str, Any]:
    """What a node dropped from the palette starts with: valid, and runnable where possible."""
    base: dict[str, Any] = {"id": node_id, "kind": kind, "position": {"x": x, "y": y}}
    extra: dict[str, dict[str, Any]] = {
        "function": {"code": f"def {node_id}(state):\n    return {{}}\n", "function": node_id},
        "interrupt": {"prompt": "Continue?", "resume_key": "answer"},
        "agent": {"agent": node_id},
        "subgraph": {"subgraph": node_id},
    }
    return base | extra.get(kind, {})


class Editor(QObject):
    failed = Signal(str)
    """An intent could not become an edit (bad value, name taken...): a message for the user."""
    layout_finished = Signal()
    renamed = Signal(str, str)
    """old id, new id: a node was renamed (its item is a new one; selection follows it)."""
    pasted = Signal(object)
    """The GraphSpec part a paste added (its code is reviewed like opened code)."""

    def __init__(self, document: GraphDocument) -> None:
        super().__init__()
        self.document = document
        self.stack = QUndoStack(self)
        self.layout_running = False

    def push(self, make: Callable[..., edits.SpecEdit], *args: Any, **kwargs: Any) -> bool:
        """Build an edit from the current spec and push it; report instead of raising."""
        code = self.document.code
        if code is not None and make not in DRAWING_EDITS:
            self.failed.emit(translate("editor", "This graph is drawn from {where}: edit it in the code (the studio reloads it when the file changes)").format(where=code.where))  # fmt: skip
            return False
        try:
            edit = make(self.document, *args, **kwargs)
        except (ValueError, KeyError, TypeError, ValidationError) as exc:
            self.failed.emit(_message(exc))
            return False
        if not edit.after:
            return False
        self.stack.push(edit)
        return True

    # -------------------------------------------------------------- nodes and notes

    def add_node(self, kind: str, x: float, y: float) -> str | None:
        spec = self.document.spec
        node_id = unique_id(
            kind, element_ids(spec) | {a.id for a in spec.agents} | {s.id for s in spec.subgraphs}
        )
        try:
            node = NODE.validate_python(default_node(kind, node_id, x, y))
        except ValidationError as exc:
            self.failed.emit(_message(exc))
            return None
        agent = AgentSpec(id=node_id) if kind == "agent" else None
        sub = Subgraph(id=node_id, graph=GraphSpec(name=node_id)) if kind == "subgraph" else None
        return node_id if self.push(edits.AddNodeEdit, node, agent=agent, subgraph=sub) else None

    def add_note(self, x: float, y: float, text: str = "Note") -> str | None:
        spec = self.document.spec
        note = Note(id=unique_id("note", {n.id for n in spec.view.notes} | element_ids(spec)), text=text,
                    position=Position(x=x, y=y))  # fmt: skip
        part = GraphSpec(view={"notes": [note]})
        return (
            note.id
            if self.push(edits.AddElementsEdit, part, translate("editor", "Add note"))
            else None
        )

    def add_middleware(self, node_id: str, name: str) -> bool:
        node = self.document.spec.node(node_id)
        if node is None or node.kind != "agent":
            self.failed.emit(translate("editor", "drop middleware on an agent node"))
            return False
        if name == "custom":
            agent = self.document.spec.agent(node.agent)
            taken = {m.name for m in agent.middleware} if agent else set()
            mw: Any = CustomMiddleware(kind="custom", name=unique_id("custom", taken))
        else:
            mw = PrebuiltMiddleware(kind="prebuilt", name=name)
        return self.push(edits.AddMiddlewareEdit, node.agent, mw)

    def delete(self, ids: list[str]) -> bool:
        return bool(ids) and self.push(edits.RemoveElementsEdit, set(ids))

    def move(self, positions: dict[str, tuple[float, float]]) -> bool:
        return self.push(edits.MoveElementsEdit, positions)

    def rename(self, old: str, new: str) -> bool:
        if not self.push(edits.RenameNodeEdit, old, new):
            return False
        self.renamed.emit(old, new.strip())
        return True

    def set_node(self, node_id: str, **changes: Any) -> bool:
        return self.push(edits.SetNodeEdit, node_id, **changes)

    # -------------------------------------------------------------- edges

    def connect(self, source: str, target: str, join: bool = False) -> bool:
        return self.push(edits.ConnectEdit, source, target, join)

    def reconnect(self, element_id: str, target: str) -> bool:
        return self.push(edits.ReconnectEdit, element_id, target)

    def router_of(self, source: str) -> str | None:
        """The id of the first conditional edge leaving `source`, if any."""
        return next(
            (e.id for e in self.document.spec.conditional_edges if e.source == source), None
        )

    def add_route(self, source: str, target: str | None = None) -> str | None:
        """A conditional route from `source` to `target`: a new route of its router, or a new
        router (routing to END until a target is given). Returns the conditional edge id."""
        existing = self.router_of(source)
        if existing is not None and target is not None:
            return existing if self.push(edits.AddRouteEdit, existing, target) else None
        if existing is not None:
            return existing
        made: list[str] = []

        def make(document, *args):
            edit = edits.AddConditionalEdgeEdit(document, *args)
            made.append(edit.edge_id)
            return edit

        return made[0] if self.push(make, source, "", [target or "__end__"]) else None

    def retarget_route(self, edge_id: str, index: int, target: str) -> bool:
        return self.push(edits.RetargetRouteEdit, edge_id, index, target)

    def convert_to_router(self, source: str) -> bool:
        return self.push(edits.ConvertToRouterEdit, source)

    def convert_to_edges(self, edge_id: str) -> bool:
        return self.push(edits.ConvertToEdgesEdit, edge_id)

    def toggle_breakpoint(self, node_id: str, which: str) -> bool:
        return self.push(edits.ToggleBreakpointEdit, node_id, which)

    def set_breakpoints(self, breakpoints: Breakpoints, text: str) -> bool:
        if breakpoints == self.document.spec.breakpoints:
            return False
        return self.push(edits.SetBreakpointsEdit, breakpoints, text)

    def duplicate(self, ids: list[str]) -> list[str]:
        return self.paste(self.copy(ids), what=translate("editor", "Duplicate")) if ids else []

    # -------------------------------------------------------------- clipboard

    def copy(self, ids: list[str]) -> str:
        """The selected nodes, notes and the edges among them, as JSON for the clipboard."""
        spec = self.document.spec
        chosen = set(ids)
        nodes = [n for n in spec.nodes if n.id in chosen]
        names = {n.id for n in nodes}
        part = GraphSpec(
            nodes=nodes,
            edges=[e for e in spec.edges if e.target in names and set(e.sources) <= names],
            conditional_edges=[e for e in spec.conditional_edges if _routes_within(e, names)],
            agents=[a for a in spec.agents if a.id in {getattr(n, "agent", None) for n in nodes}],
            view={"notes": [n for n in spec.view.notes if n.id in chosen]},
        )
        return json.dumps({"kind": CLIPBOARD_KIND, "spec": spec_to_dict(part)})

    def paste(self, text: str, offset: float = 40.0, what: str = "") -> list[str]:
        """Add a copied part with fresh ids, shifted by `offset`; returns the new ids."""
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("kind") != CLIPBOARD_KIND:
                return []
            part = spec_from_dict(data["spec"])
        except SpecValidationError as exc:  # our kind, but damaged (NaN, a bad field...): say so
            self.failed.emit(
                translate("editor", "Cannot paste: {value}").format(value=exc.problems[0])
            )
            return []
        except (ValueError, KeyError, RecursionError):
            return []
        spec = self.document.spec
        taken = element_ids(spec) | {a.id for a in spec.agents} | {n.id for n in spec.view.notes}
        renames: dict[str, str] = {}
        for element in [*part.nodes, *part.edges, *part.conditional_edges, *part.view.notes]:
            renames[element.id] = new = unique_id(element.id, taken)
            taken.add(new)
        agent_names: dict[str, str] = {}
        for agent in part.agents:
            agent_names[agent.id] = new = unique_id(agent.id, taken | {a.id for a in spec.agents})
            taken.add(new)

        def shifted(pos: Any) -> Position:
            return Position(x=(pos.x if pos else 0) + offset, y=(pos.y if pos else 0) + offset)

        nodes = [
            n.model_copy(update={"id": renames[n.id], "position": shifted(n.position),
                                 **({"agent": agent_names[n.agent]} if n.kind == "agent" else {})})
            for n in part.nodes
        ]  # fmt: skip
        pasted = GraphSpec(
            nodes=nodes,
            edges=[e.model_copy(update={"id": renames[e.id], "sources": [renames[s] for s in e.sources],
                                        "target": renames[e.target]}) for e in part.edges],
            conditional_edges=[_rerouted(e, renames) for e in part.conditional_edges],
            agents=[a.model_copy(update={"id": agent_names[a.id]}) for a in part.agents],
            view={"notes": [n.model_copy(update={"id": renames[n.id], "position": shifted(n.position)})
                            for n in part.view.notes]},
        )  # fmt: skip
        if not self.push(edits.AddElementsEdit, pasted, what or translate("editor", "Paste")):
            return []
        self.pasted.emit(pasted)
        return [renames[e.id] for e in [*part.nodes, *part.view.notes]]

    # -------------------------------------------------------------- layout

    def auto_layout(self) -> None:
        """Layered layout; big graphs are laid out on a worker thread, then applied as one edit."""
        spec = self.document.spec
        heights = {n.id: card_size(node_look(spec, n))[1] for n in spec.nodes}

        def work() -> dict[str, tuple[float, float]]:
            return layered_positions(spec, heights)

        def done(positions, error) -> None:
            self.layout_running = False
            if error is not None:
                self.failed.emit(translate("editor", "layout failed: {error}").format(error=error))
            else:
                self.push(edits.MoveElementsEdit, positions)
            self.layout_finished.emit()

        self.layout_running = True
        if len(spec.nodes) <= LAYOUT_THREAD_MIN:
            done(work(), None)
        else:
            run_in_thread(work, done)


def _routes_within(edge: ConditionalEdge, names: set[str]) -> bool:
    """A router goes along with a copy when it leaves a copied node and every place it can go
    is copied too (or END); one that may go anywhere (code without a path map) stays behind."""
    targets = possible_targets(edge)
    return edge.source in names and targets is not None and targets <= names | {END}


def _rerouted(edge: ConditionalEdge, renames: dict[str, str]) -> ConditionalEdge:
    """A pasted router pointing at the pasted nodes: a Send's target and a path map's targets
    renamed. The router itself still returns the originals' names, so a list of targets (or an
    expression's literal results) becomes a map from each original name to its copy."""
    to = lambda name: renames.get(name, name)  # noqa: E731  (END is not renamed)
    update: dict[str, Any] = {"id": renames[edge.id], "source": renames[edge.source]}
    if isinstance(edge.router, SendRouter):
        update["router"] = edge.router.model_copy(update={"target": to(edge.router.target)})
    if isinstance(edge.path_map, dict):
        update["path_map"] = {label: to(target) for label, target in edge.path_map.items()}
    elif isinstance(edge.path_map, list):
        update["path_map"] = {target: to(target) for target in edge.path_map}
    elif not isinstance(edge.router, SendRouter):
        update["path_map"] = {target: to(target) for target in sorted(possible_targets(edge) or ())}
    return edge.model_copy(update=update)


NAME_PATTERN = get_args(Identifier)[1].pattern
"""What a node's, key's or edge's name matches (graphspec.model.Identifier's constraint)."""


def _message(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(_said(e) for e in exc.errors(include_url=False))
    if isinstance(exc, KeyError):
        return f"no element {exc.args[0]!r}"
    return str(exc)


def _said(error: Any) -> str:
    """One of a ValidationError's errors as a designer reads it: a name that is not one is
    told what a name is (pydantic said "String should match pattern '^[A-Za-z_]…'")."""
    if error["type"] == "string_pattern_mismatch" and error["ctx"]["pattern"] == NAME_PATTERN:
        return translate(
            "editor",
            "{value} is not a name: letters, digits and _ only, not a digit first, at most 64",
        ).format(value=repr(error["input"]))
    return error["msg"]
