"""Right-click menus on the canvas, a node, an edge and a port.

Menus hold the window's own actions (so each shows its shortcut and does what the menu bar
does, on the selection the right-click made) plus a few entries that need the place clicked:
add a node here, connect to, add a route to. Building a menu changes nothing; its entries call
the editor like every other gesture.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from graphspec.model import GraphSpec
from graphspec.node_kinds import NODE_KINDS
from studio.canvas.looks import END, START, shown
from studio.i18n import translate


class MenuHooks:
    """What the menus call besides the window's actions (kept small: menus only route)."""

    def __init__(self, add_node: Callable[[str, QPointF], object], add_note: Callable[[QPointF], object],
                 connect: Callable[[str, str], object], add_route: Callable[[str, str], object],
                 open_subgraph: Callable[[str], object]) -> None:  # fmt: skip
        self.add_node, self.add_note, self.connect = add_node, add_note, connect
        self.add_route, self.open_subgraph = add_route, open_subgraph


def build_menu(parent: QWidget, kind: str, element: str, pos: QPointF, spec: GraphSpec,
               actions: dict[str, QAction], hooks: MenuHooks) -> QMenu:  # fmt: skip
    """The menu for a right-click on `kind` (`canvas`, `node`, `port`, `edge`) at `pos`."""
    menu = QMenu(parent)
    menu.setObjectName(f"{kind}ContextMenu")

    def add(*names: str) -> None:
        for name in names:
            if name is None:
                menu.addSeparator()
            elif name in actions:
                menu.addAction(actions[name])

    if kind == "canvas":
        nodes = menu.addMenu(translate("canvas.context_menu", "Add node here"))
        nodes.setObjectName("addNodeMenu")
        for node_kind in NODE_KINDS:
            act = nodes.addAction(node_kind.replace("_", " "))
            act.setObjectName(f"addNode_{node_kind}")
            act.triggered.connect(lambda _=False, k=node_kind: hooks.add_node(k, pos))
        note = menu.addAction(translate("canvas.context_menu", "Add note here"))
        note.setObjectName("addNoteHere")
        note.triggered.connect(lambda _=False: hooks.add_note(pos))
        add(None, "paste", "select_all", None, "layout", "fit")
        return menu
    node = spec.node(element)
    if kind in ("node", "port") and element != END:
        _targets(
            menu,
            translate("canvas.context_menu", "Connect to"),
            "connectMenu",
            element,
            spec,
            hooks.connect,
        )
        _targets(
            menu,
            translate("canvas.context_menu", "Add conditional route to"),
            "routeMenu",
            element,
            spec,
            hooks.add_route,
        )
        add("add_conditional_edge")
    if kind == "node" and node is not None:
        add("convert_to_router", None, "toggle_breakpoint_before", "toggle_breakpoint_after", None,
            "duplicate", "copy", "rename", "delete")  # fmt: skip
        if node.kind == "subgraph":
            sub = menu.addAction(translate("canvas.context_menu", "Open subgraph"))
            sub.setObjectName("openSubgraphAction")
            sub.triggered.connect(lambda _=False: hooks.open_subgraph(element))
    elif kind == "edge":
        conditional = any(e.id == element for e in spec.conditional_edges)
        add("convert_to_edges" if conditional else "convert_to_router", None, "delete")
    return menu


def _targets(menu: QMenu, title: str, name: str, source: str, spec: GraphSpec, call) -> None:
    sub = menu.addMenu(title)
    sub.setObjectName(name)
    for target in [n.id for n in spec.nodes if n.id != source] + [END]:
        if source == START and target == END:
            continue
        act = sub.addAction(shown(target))
        act.setObjectName(f"{name}_{target}")
        act.triggered.connect(lambda _=False, t=target: call(source, t))
