"""The main window's editing commands: palette drops, clipboard, selection, routes (conditional
edges), breakpoints, the canvas's context menus and subgraph windows; each turns what the user
picked on the canvas into one `Editor` call (studio/editor.py makes the undoable edit).

`EditorCommands` is a mixin of `studio.main_window.MainWindow`; it uses the window's `editor`,
`document`, `scene`, `view`, `actions_by_name` and status bar.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu, QToolButton

from graphspec.io import resolve_subgraph
from graphspec.node_kinds import NODE_KINDS
from studio.canvas.context_menu import MenuHooks, build_menu
from studio.canvas.items.node_item import AGENT_WIDTH, WIDTH
from studio.canvas.layout import laid_out
from studio.canvas.looks import END, shown
from studio.canvas.scene import GraphScene
from studio.canvas.view import GraphView
from studio.document import GraphDocument
from studio.i18n import translate
from studio.paths import icon

MIN_HEIGHT = 48.0
"""A new card's height (card_size's least): a dropped card is centred on the pointer with it."""
FREE_STEP = 80.0
"""How far below a card a double-clicked palette entry lands: a card's height and a gap."""


class EditorCommands:
    """Menu, shortcut and context-menu commands on the selection; mixed into MainWindow."""

    # -------------------------------------------------------------- editing commands

    def drop_from_palette(self, payload: str, pos: QPointF) -> str | None:
        """A palette entry dropped: a node's card centred where the pointer is, as a designer
        aims it, and kept inside the view (its corner at the pointer left a card dropped near
        the canvas's right or bottom edge mostly out of view)."""
        if payload.startswith("node:"):
            width = AGENT_WIDTH if payload == "node:agent" else WIDTH
            shown = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
            x = min(max(pos.x() - width / 2, shown.left()), shown.right() - width - 10)
            y = min(max(pos.y() - MIN_HEIGHT / 2, shown.top()), shown.bottom() - MIN_HEIGHT - 10)
            pos = QPointF(x, y)
        return self.add_from_palette(payload, pos)

    def add_from_palette(self, payload: str, pos: QPointF) -> str | None:
        """Add a palette entry with its card's top left corner at `pos` (snapped)."""
        if self.pages.currentWidget() is not self.view:
            self.new_graph()
        if payload == "note":
            return self.editor.add_note(pos.x(), pos.y())
        if payload.startswith("node:"):
            return self.editor.add_node(
                payload[5:], round(pos.x() / 20) * 20, round(pos.y() / 20) * 20
            )
        if payload.startswith("middleware:"):
            target = self.view.ported_at(pos)
            node_id = getattr(target, "node_id", "")
            return node_id if self.editor.add_middleware(node_id, payload[11:]) else None
        return None

    def add_in_view(self, payload: str) -> str | None:
        """A palette entry double-clicked (or its menu's Add): in the middle of the view, below
        the cards already there, so entries added one after another never hide each other."""
        if self.pages.currentWidget() is not self.view:
            self.new_graph()
        pos = self.view.mapToScene(self.view.viewport().rect().center())
        if payload.startswith("node:") or payload == "note":
            pos = self.free_spot(QPointF(round(pos.x() / 20) * 20, round(pos.y() / 20) * 20))
        added = self.add_from_palette(payload, pos)
        if added is not None:
            self.view.ensureVisible(QRectF(pos, QSizeF(WIDTH, FREE_STEP)))
        return added

    def free_spot(self, pos: QPointF) -> QPointF:
        """The first place from `pos` down where a new card meets no card, START, END or note."""
        cards = [*self.scene.nodes.values(), *self.scene.terminals.values(),
                 *self.scene.notes.values()]  # fmt: skip
        taken = [c.sceneBoundingRect() for c in cards if c.isVisible()]
        spot = QRectF(pos, QSizeF(WIDTH, FREE_STEP - 20))
        while any(spot.intersects(r) for r in taken):
            spot.translate(0, FREE_STEP)
        return spot.topLeft()

    def show_laid_out(self) -> None:
        """After Automatic layout the cards are elsewhere: fit them in view unless they all are."""
        if not self.view.shows_all():
            self.view.fit()

    def selected(self) -> list[str]:
        return self.scene.selected_ids()

    def delete_selection(self) -> None:
        self.editor.delete(self.selected())

    def copy(self) -> None:
        if self.selected():
            QApplication.clipboard().setText(self.editor.copy(self.selected()))

    def cut(self) -> None:
        self.copy()
        self.delete_selection()

    def paste(self) -> None:
        ids = self.editor.paste(QApplication.clipboard().text())
        if ids:
            self.scene.select_ids(ids)

    def select_all(self) -> None:
        for item in [*self.scene.nodes.values(), *self.scene.notes.values()]:
            item.setSelected(True)

    def rename_selected(self) -> None:
        nodes = [i for i in self.selected() if i in self.scene.nodes]
        if len(nodes) == 1:
            self.view.start_rename(nodes[0])

    def toggle_snap(self) -> None:
        self.scene.snap = self.actions_by_name["snap"].isChecked()

    def toggle_minimap(self) -> None:
        self.view.minimap_wanted = self.actions_by_name["minimap"].isChecked()
        self.view.place_minimap()

    # -------------------------------------------------------------- routes, breakpoints, menus

    def _one_node(self) -> str | None:
        nodes = [i for i in self.selected() if i in self.scene.nodes]
        if len(nodes) != 1:
            self.statusBar().showMessage(
                translate("editor_commands", "Select one node first"), 4000
            )
            return None
        return nodes[0]

    def add_route(self, source: str, target: str) -> None:
        """A route drawn by a drag or picked in a menu: select its router for the inspector."""
        edge_id = self.editor.add_route(source, target)
        if edge_id is not None:
            self.scene.select_ids([edge_id])

    def add_conditional_edge(self) -> None:
        node = self._one_node()
        if node is not None:
            self.add_route(node, None)

    def convert_to_router(self) -> None:
        chosen = self.selected()
        source = chosen[0] if len(chosen) == 1 else None
        edge = next((e for e in self.document.spec.edges if e.id == source), None)
        if edge is not None and len(edge.sources) == 1:
            source = edge.sources[0]
        elif source is not None and source.startswith("finish:"):
            source = source[7:]
        elif source is not None and source.startswith("entry:"):
            source = "__start__"  # START's fan-out
        if source is None or (self.document.spec.node(source) is None and source != "__start__"):
            self.statusBar().showMessage(
                translate("editor_commands", "Select a node or one of its edges first"), 4000
            )
            return
        if self.editor.convert_to_router(source):
            self.scene.select_ids([self.editor.router_of(source)])

    def convert_to_edges(self) -> None:
        chosen = [
            i
            for i in self.selected()
            if any(e.id == i for e in self.document.spec.conditional_edges)
        ]
        if len(chosen) != 1:
            self.statusBar().showMessage(
                translate("editor_commands", "Select a conditional edge first"), 4000
            )
            return
        self.editor.convert_to_edges(chosen[0])

    def toggle_breakpoint(self, which: str) -> None:
        node = self._one_node()
        if node is not None:
            self.editor.toggle_breakpoint(node, which)

    def duplicate_selection(self) -> None:
        ids = self.editor.duplicate(self.selected())
        if ids:
            self.scene.select_ids(ids)

    def show_context_menu(self, kind: str, element: str, pos: QPointF, global_pos) -> QMenu:
        hooks = MenuHooks(
            add_node=lambda k, at: self.add_from_palette(f"node:{k}", at),
            add_note=lambda at: self.add_from_palette("note", at),
            connect=self.editor.connect, add_route=self.add_route, open_subgraph=self.open_subgraph,
        )  # fmt: skip
        menu = build_menu(
            self.view, kind, element, pos, self.document.spec, self.actions_by_name, hooks
        )
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(global_pos)
        self.context_menu = menu
        return menu

    def offer_new_target(self, drag: str, source: str, pos: QPointF, global_pos) -> QMenu:
        """A connection or route drag let go on the empty canvas: a menu of what to add there,
        already connected (a new node, one undo step) or END (objectName `newTargetMenu`)."""
        menu = QMenu(self.view)
        menu.setObjectName("newTargetMenu")
        title = menu.addAction(
            (
                translate("editor_commands", "Add a node here, routed from {source}")
                if drag == "route"
                else translate("editor_commands", "Add a node here, after {source}")
            ).format(source=shown(source))
        )
        title.setEnabled(False)
        for kind in NODE_KINDS:
            action = menu.addAction(icon(kind), kind.replace("_", " "))
            action.setObjectName(f"newTarget_{kind}")
            action.triggered.connect(lambda _=False, k=kind: self.add_after(drag, source, k, pos))
        menu.addSeparator()
        end = menu.addAction(translate("editor_commands", "Go to END"))
        end.setObjectName("newTarget___end__")
        end.triggered.connect(lambda: self._join(drag, source, END))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(global_pos)
        self.context_menu = menu
        return menu

    def add_after(self, drag: str, source: str, kind: str, pos: QPointF) -> str | None:
        """A node of `kind` centred at `pos` and joined to `source`, as one undo step."""
        stack = self.editor.stack
        stack.beginMacro(
            translate("editor_commands", "Add {kind} node after {source}").format(
                kind=kind.replace("_", " "), source=shown(source)
            )
        )
        try:
            node_id = self.drop_from_palette(f"node:{kind}", pos)
            if node_id is not None:
                self._join(drag, source, node_id)
        finally:
            stack.endMacro()
        if node_id is not None:
            self.scene.select_ids([node_id])
        return node_id

    def _join(self, drag: str, source: str, target: str) -> None:
        if drag == "route":
            self.add_route(source, target)
        else:
            self.editor.connect(source, target)

    def _show_breakpoints(self) -> None:
        """The run toolbar's list of breakpoints (the Breakpoints dock's); its menu clears one."""
        from graphspec.breakpoints import kept, listed, path_text

        found = listed(self.document.spec.breakpoints)
        at = {"before": translate("editor_commands", "before"),
              "after": translate("editor_commands", "after"),
              "error": translate("editor_commands", "on error")}  # fmt: skip
        anywhere, off = (
            translate("editor_commands", "any node"),
            translate("editor_commands", " (off)"),
        )
        names = [f"{at[p.at]} {anywhere if p.node == '*' else path_text(p)}{'' if p.enabled else off}"
                 for p in found]  # fmt: skip
        button, menu = self.breakpoints_button, self.breakpoints_button.menu()
        shown = ", ".join(names[:3]) + (f" +{len(names) - 3}" if len(names) > 3 else "")
        if len(shown) > 40:  # the run toolbar has no room for more: the dock lists them
            shown = translate("editor_commands", "{count} ({on} on)").format(
                count=len(found), on=sum(p.enabled for p in found)
            )
        button.setText(
            translate("editor_commands", "Breakpoints: {shown}").format(shown=shown)
            if found
            else translate("editor_commands", "No breakpoints")
        )
        button.setToolTip(translate("editor_commands", "Breakpoints (F9 before, Shift+F9 after the selected node; conditions, hit counts and more in the Breakpoints dock): runs pause there\n")
                          + "\n".join(names))  # fmt: skip
        menu.clear()
        for i, name in enumerate(names):
            act = menu.addAction(
                translate("editor_commands", "Clear breakpoint {name}").format(name=name)
            )
            rest = kept(found[:i] + found[i + 1 :])
            act.triggered.connect(
                lambda _=False, r=rest, n=act.text(): self.editor.set_breakpoints(r, n)
            )
        if not found:
            menu.addAction(
                translate(
                    "editor_commands", "Select a node and press F9 (before) or Shift+F9 (after)"
                )
            ).setEnabled(False)

    def _build_breakpoints_button(self) -> None:
        """The run toolbar's `breakpointsButton`, kept in step with the spec's breakpoints."""
        self.breakpoints_button = QToolButton()
        self.breakpoints_button.setObjectName("breakpointsButton")
        self.breakpoints_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.breakpoints_button.setMenu(QMenu(self.breakpoints_button))
        self.runner.toolbar.addSeparator()
        self.runner.toolbar.addWidget(self.breakpoints_button)
        self.document.changed.connect(
            lambda fields: "breakpoints" in fields and self._show_breakpoints()
        )
        self.document.reset.connect(self._show_breakpoints)
        self._show_breakpoints()

    def select_element(self, element_id: str) -> None:
        items = self.scene.select_ids([element_id])
        if items:
            self.view.centerOn(items[0])
        elif self.document.spec.key(element_id) is not None:
            self.docks[2].raise_()
            names = [k.name for k in self.document.spec.state]
            self.state_panel.table.selectRow(names.index(element_id))

    def _activated(self, element_id: str) -> None:
        node = self.document.spec.node(element_id)
        if node is not None and node.kind == "subgraph":
            self.open_subgraph(element_id)
        elif node is not None and self.document.code is None:  # code is renamed in the code
            self.view.start_rename(element_id)

    def open_subgraph(self, node_id: str) -> QMainWindow | None:
        """Show a subgraph node's inner graph in its own window (read-only for now)."""
        node = self.document.spec.node(node_id)
        sub = self.document.spec.subgraph(getattr(node, "subgraph", ""))
        if sub is None:
            self.statusBar().showMessage(
                translate("editor_commands", "{node_id}: no such subgraph").format(node_id=node_id),
                6000,
            )
            return None
        try:
            inner = resolve_subgraph(sub, self.document.base_dir)
        except Exception as exc:
            self.statusBar().showMessage(f"{node_id}: {exc}", 8000)
            return None
        window = QMainWindow(self)
        window.setObjectName("subgraphWindow")
        window.setWindowTitle(
            translate("editor_commands", "{node_id} — inner graph {id} (read-only)").format(
                node_id=node_id, id=sub.id
            )
        )
        document = GraphDocument(laid_out(inner))
        scene = GraphScene(document, read_only=True)
        scene.setParent(window)  # the view does not own its scene
        document.setParent(scene)
        view = GraphView(scene)
        view.setObjectName("subgraphCanvas")
        window.setCentralWidget(view)
        window.resize(800, 600)
        window.show()
        view.fit()
        self.subgraph_windows.append(window)
        return window
