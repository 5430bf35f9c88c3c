"""Graphs built with the mouse and keyboard only: a router with an expression and END, a Send
map-reduce, breakpoints; each is run, saved, reopened, undone and redone. Context menus are
opened by real right-clicks (through the window, as the platform delivers them).

The built graphs are grabbed to docs/ with
`SUPERSTEP_SCREENSHOT_DIR=docs python -m pytest tests/studio/test_editor_gestures.py`."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QLineEdit,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QWidget,
)

from graphspec.io import dumps_spec
from tests.studio.conftest import settle
from tests.studio.helpers import center, click, drag
from tests.studio.test_canvas_gestures import drop_from_palette, port
from tests.studio.test_run_screenshot import save_grab

pytestmark = pytest.mark.gui
LEFT = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier


# ------------------------------------------------------------------ gestures


def right_click(win, scene_pos: QPointF) -> QMenu:
    """A right-click on the canvas as the window system sends it (the context menu follows)."""
    local = win.view.viewport().mapTo(win, win.view.mapFromScene(scene_pos))
    QTest.mouseClick(
        win.windowHandle(), Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, local
    )
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu), "no context menu opened"
    return menu


def pick(qtbot, menu: QMenu, *names: str) -> None:
    """Click menu entries by objectName (a submenu opens, then the next name is in it)."""
    for name in names:
        action = next(a for a in menu.actions()
                      if a.objectName() == name or (a.menu() is not None and a.menu().objectName() == name))  # fmt: skip
        sub = action.menu()
        qtbot.waitUntil(menu.isVisible)
        QTest.mouseClick(
            menu.windowHandle(),
            LEFT,
            Qt.KeyboardModifier.NoModifier,
            menu.actionGeometry(action).center(),
        )
        if sub is not None:
            menu = sub


def on_edge(win, item) -> QPointF:
    """A point of an edge the mouse can reach: in view, off the minimap, hitting that edge."""
    for i in range(20, 80, 3):
        point = item._path.pointAtPercent(i / 100)
        local = win.view.mapFromScene(point)
        minimap = win.view.minimap
        if (
            win.view.viewport().rect().contains(local)
            and not (
                minimap.isVisible()
                and minimap.geometry()
                .adjusted(-4, -4, 4, 4)
                .contains(win.view.viewport().mapTo(win.view, local))
            )
            and win.view.hit(point) == ("edge", item.element_id)
        ):
            return point
    raise AssertionError(f"no point of {item.look.key} to click")


def menu_texts(menu: QMenu) -> dict[str, str]:
    """objectName -> text with its shortcut, as the menu shows them."""
    return {
        a.objectName(): f"{a.text()}\t{a.shortcut().toString()}"
        for a in menu.actions()
        if a.objectName()
    }


def type_into(
    qtbot, widget, text: str, commit=Qt.Key.Key_Return, modifier=Qt.KeyboardModifier.NoModifier
) -> None:
    qtbot.mouseClick(widget, LEFT)
    QTest.keyClick(widget, Qt.Key.Key_A, CTRL)
    QTest.keyClicks(widget, text)
    QTest.keyClick(widget, commit, modifier)


def inspector(win, cls, name: str):
    found = win.inspector.findChild(cls, name)
    assert found is not None, name
    return found


def set_values(qtbot, win, node: str, text: str) -> None:
    """Select the node by clicking it, type its set-state values, commit with Ctrl+Return."""
    click(win.view, center(win.scene.nodes[node]))
    assert win.scene.selected_ids() == [node]
    values = inspector(win, QPlainTextEdit, "inspector_values")
    type_into(qtbot, values, text, Qt.Key.Key_Return, CTRL)
    assert win.document.spec.node(node).values, node


def add_key(qtbot, win, name: str, type_: str = "any", reducer: str = "none") -> None:
    """A state key through the state-schema editor: Add key, type the name, pick type and reducer."""
    panel = win.state_panel
    qtbot.mouseClick(panel.findChild(QPushButton, "addKeyButton"), LEFT)
    table = panel.table
    row = table.rowCount() - 1
    rect = table.visualItemRect(table.item(row, 0))
    QTest.mouseClick(
        table.viewport(), LEFT, pos=rect.center()
    )  # a double-click edits the pressed cell
    QTest.mouseDClick(table.viewport(), LEFT, pos=rect.center())
    editor = QApplication.focusWidget()
    QTest.keyClick(editor, Qt.Key.Key_A, CTRL)
    QTest.keyClicks(editor, name)
    QTest.keyClick(editor, Qt.Key.Key_Return)
    for field, value in (("type", type_), ("reducer", reducer)):
        combo = panel.findChild(QComboBox, f"state_{field}_{row}")
        if combo.currentText() != value:
            combo.setFocus()
            QTest.keyClicks(combo, value)
    key = win.document.spec.key(name)
    assert key is not None and (key.type, key.reducer) == (type_, reducer), key


def run_with(qtbot, win, value: str) -> None:
    type_into(qtbot, win.findChild(QPlainTextEdit, "runInputEditor"), value, Qt.Key.Key_End)
    qtbot.mouseClick(win.findChild(QPushButton, "runButton"), LEFT)
    idle(qtbot, win)


def idle(qtbot, win) -> None:
    qtbot.wait(50)
    qtbot.waitUntil(
        lambda: not win.runner.session.busy and win.runner.view is not None, timeout=15000
    )


def grab(qtbot, win, name: str, tmp_path) -> None:
    # the router editor in view: the Checkpoints dock (272 px at least) closed, as View →
    # Panels does, leaves the right column to the inspector
    win.runner.docks["historyDock"].close()
    win.dock_named("inspectorDock").raise_()
    win.dock_named("stateDock").raise_()
    qtbot.wait(20)
    win.resizeDocks([win.dock_named("inspectorDock"), win.dock_named("stateDock")], [420, 120],
                    Qt.Orientation.Vertical)  # fmt: skip
    qtbot.wait(50)
    win.view.fit()
    win.view.minimap.refresh()
    settle(qtbot, win)
    qtbot.wait(100)
    assert not save_grab(win, name, tmp_path).isNull()


def drop_at(win, kind: str, x: int, y: int) -> None:
    drop_from_palette(win, f"node:{kind}", win.view.mapToScene(QPoint(x, y)))


def save_reopen_undo_redo(qtbot, win, tmp_path) -> None:
    """Undo every edit by keyboard (the empty graph), redo them all (the same spec), then save
    and reopen: the same bytes."""
    built = dumps_spec(win.document.spec)
    stack = win.editor.stack
    count = stack.count()
    win.activateWindow()
    win.view.setFocus()
    for _ in range(count):
        QTest.keyClick(win.view, Qt.Key.Key_Z, CTRL)
    assert stack.index() == 0, stack.undoText()
    assert win.document.spec.nodes == [] and win.document.spec.conditional_edges == []
    for _ in range(count):
        QTest.keyClick(win.view, Qt.Key.Key_Z, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert stack.index() == count and dumps_spec(win.document.spec) == built
    path = tmp_path / "built.json"
    assert win.save_as(path)
    win.new_graph()
    assert win.open_path(path)
    assert dumps_spec(win.document.spec) == built == path.read_text(encoding="utf-8")


# ------------------------------------------------------------------ the graphs


def test_router_with_an_expression_and_end_built_run_saved_undone(window, qtbot, tmp_path):
    win = window
    win.new_graph()
    view = win.view
    drop_at(win, "set_state", 330, 90)
    drop_at(win, "set_state", 180, 300)
    drop_at(win, "set_state", 480, 300)
    a, b, c = "set_state", "set_state_2", "set_state_3"
    add_key(qtbot, win, "total", "int")
    set_values(qtbot, win, a, "total = total * 2")
    set_values(qtbot, win, b, "total = total + 1")
    set_values(qtbot, win, c, "total = 0")
    drag(view, port(win, "__start__", "out"), center(win.scene.nodes[a]))
    # the router handle beside a's output port: the first route makes the router
    drag(view, port(win, a, "route"), center(win.scene.nodes[b]))
    edge_id = win.editor.router_of(a)
    assert edge_id is not None and win.scene.selected_ids() == [
        edge_id
    ]  # its router in the inspector
    drag(view, port(win, a, "route"), center(win.scene.nodes[c]))
    # Shift-drag from the plain output port is the other way to draw a route: to END
    drag(
        view,
        port(win, a, "out"),
        center(win.scene.terminals["__end__"]),
        Qt.KeyboardModifier.ShiftModifier,
    )
    edge = win.document.spec.conditional_edges[0]
    assert edge.path_map == [b, c, "__end__"]
    assert {i.look.label for i in win.scene.edges.values() if i.look.style == "conditional"} == {
        b,
        c,
        "END",
    }
    assert win.editor.stack.undoText() == f"Add route {a} → END"  # as the canvas names it
    drag(view, port(win, b, "out"), center(win.scene.terminals["__end__"]))
    drag(view, port(win, c, "out"), center(win.scene.terminals["__end__"]))
    # the rule, typed in the router editor; the routes list shows END among the targets
    win.scene.select_ids([edge_id])
    rule = inspector(win, QLineEdit, "routerExpressionEdit")
    type_into(qtbot, rule, f"'{b}' if total > 5 else ('{c}' if total > 0 else END)")
    assert win.document.spec.conditional_edges[0].router.expression.startswith(
        f"'{b}' if total > 5"
    )
    targets = inspector(
        win, type(win.inspector.findChild(object, "routerTargetsEditor")), "routerTargetsEditor"
    )
    combos = [targets.findChild(QComboBox, f"routeTarget_{i}") for i in range(3)]
    assert [cb.currentText() for cb in combos] == [b, c, "END"]
    settle(qtbot, win)
    assert "(0 errors" in win.docks[3].windowTitle(), win.problems.findChildren(object)
    run_with(qtbot, win, '{"total": 10}')
    assert win.runner.view.values["total"] == 21, win.runner.status.text()  # a doubles, b adds one
    run_with(qtbot, win, '{"total": 0}')
    assert win.runner.view.values["total"] == 0 and not win.runner.view.next  # straight to END
    win.scene.select_ids([edge_id])
    grab(qtbot, win, "built-router.png", tmp_path)
    save_reopen_undo_redo(qtbot, win, tmp_path)


def test_send_map_reduce_built_run_saved_undone(window, qtbot, tmp_path):
    win = window
    win.new_graph()
    view = win.view
    drop_at(win, "set_state", 330, 150)
    drop_at(win, "set_state", 330, 320)
    write, pick_best = "set_state", "set_state_2"
    add_key(qtbot, win, "subjects", "list")
    add_key(qtbot, win, "jokes", "list", "add")
    add_key(qtbot, win, "subject", "str")
    add_key(qtbot, win, "best", "str")
    set_values(qtbot, win, write, "jokes = [subject + ' joke']")
    set_values(qtbot, win, pick_best, "best = sorted(jokes)[0]")
    # START's router handle: a route to the mapper, then made a Send fan-out in the inspector
    drag(view, port(win, "__start__", "route"), center(win.scene.nodes[write]))
    edge_id = win.editor.router_of("__start__")
    assert win.scene.selected_ids() == [edge_id]
    inspector(win, QComboBox, "routerKindCombo").setFocus()
    for kind in ("code", "send"):  # Expression → Python function → Send fan-out, by keyboard
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Down)
        qtbot.waitUntil(lambda k=kind: win.document.spec.conditional_edges[0].router.kind == k)
        assert QApplication.focusWidget().objectName() == "routerKindCombo"  # still there, focused
    qtbot.waitUntil(lambda: win.inspector.findChild(QLineEdit, "routerSendOver") is not None)
    router = win.document.spec.conditional_edges[0].router
    assert (router.kind, router.target) == ("send", write)
    type_into(qtbot, inspector(win, QLineEdit, "routerSendOver"), "subjects")
    qtbot.waitUntil(lambda: win.inspector.findChild(QLineEdit, "routerSendInput") is not None)
    type_into(qtbot, inspector(win, QLineEdit, "routerSendInput"), "subject = item")
    router = win.document.spec.conditional_edges[0].router
    assert (router.over, router.input) == ("subjects", {"subject": "item"})
    label = next(i.look.label for i in win.scene.edges.values() if i.look.style == "conditional")
    assert label == f"Send → {write}"
    drag(view, port(win, write, "out"), center(win.scene.nodes[pick_best]))
    drag(view, port(win, pick_best, "out"), center(win.scene.terminals["__end__"]))
    settle(qtbot, win)
    run_with(qtbot, win, '{"subjects": ["owls", "cats", "dogs"], "jokes": []}')
    values = win.runner.view.values
    assert sorted(values["jokes"]) == ["cats joke", "dogs joke", "owls joke"], (
        win.runner.status.text()
    )
    assert values["best"] == "cats joke"
    win.scene.select_ids([edge_id])
    grab(qtbot, win, "built-map-reduce.png", tmp_path)
    save_reopen_undo_redo(qtbot, win, tmp_path)


def test_breakpoints_before_and_after_by_key_and_menu_pause_run_and_continue(
    window, qtbot, tmp_path
):
    win = window
    assert win.open_path("templates/router.json", bundled=True)
    view = win.view
    click(view, center(win.scene.nodes["a"]))
    QTest.keyClick(view, Qt.Key.Key_F9)  # before a
    menu = right_click(win, center(win.scene.nodes["a"]))
    texts = menu_texts(menu)
    assert texts["toggleBreakpointAfterAction"].endswith("\tShift+F9")
    assert texts["toggleBreakpointBeforeAction"].endswith("\tF9")
    pick(qtbot, menu, "toggleBreakpointAfterAction")
    bp = win.document.spec.breakpoints
    assert (bp.before, bp.after) == (["a"], ["a"])
    assert win.scene.nodes["a"].look.breaks == ("before", "after")
    button = win.findChild(QToolButton, "breakpointsButton")
    assert button.text() == "Breakpoints: before a, after a"
    assert win.editor.stack.undoText() == "Set breakpoint after a"
    # Run pauses before a; Continue runs a and pauses after it; Continue finishes
    win.runner.input_panel.findChild(QComboBox).setCurrentText("big")
    qtbot.mouseClick(win.findChild(QPushButton, "runButton"), LEFT)
    idle(qtbot, win)
    assert win.runner.view.next == ("a",) and win.runner.view.values["total"] == 10
    qtbot.mouseClick(win.findChild(QPushButton, "continueButton"), LEFT)
    idle(qtbot, win)
    assert win.runner.view.next == ("b",) and win.runner.view.values["total"] == 20
    grab(qtbot, win, "built-breakpoints.png", tmp_path)  # paused after a
    qtbot.mouseClick(win.findChild(QPushButton, "continueButton"), LEFT)
    idle(qtbot, win)
    assert not win.runner.view.next and win.runner.view.values == {
        "total": 21,
        "visited": ["a", "b"],
    }
    # saved with the spec; undone and redone with the keyboard
    path = tmp_path / "breaks.json"
    assert win.save_as(path)
    assert win.open_path(path)
    assert win.document.spec.breakpoints.model_dump(exclude_defaults=True) == {
        "before": ["a"],
        "after": ["a"],
    }
    click(view, center(win.scene.nodes["b"]))
    QTest.keyClick(view, Qt.Key.Key_F9, Qt.KeyboardModifier.ShiftModifier)
    assert win.document.spec.breakpoints.after == ["a", "b"]
    QTest.keyClick(view, Qt.Key.Key_Z, CTRL)
    assert win.document.spec.breakpoints.after == ["a"] and win.scene.nodes["b"].look.breaks == ()
    QTest.keyClick(view, Qt.Key.Key_Z, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert win.scene.nodes["b"].look.breaks == ("after",)


# ------------------------------------------------------------------ canvas correctness


def test_a_plain_click_leaves_the_undo_stack_and_the_file_alone(window):
    win = window
    assert win.open_path("templates/router.json", bundled=True)
    b = win.scene.nodes["b"]  # at x=50: off the 20-px grid, so a snap would move it
    before = (b.pos(), win.document.spec)
    for _ in range(3):
        click(win.view, center(b))
    assert win.scene.selected_ids() == ["b"]
    assert win.editor.stack.count() == 0 and win.editor.stack.isClean()
    assert (b.pos(), win.document.spec) == before
    assert "*" not in win.windowTitle()


def test_context_menus_add_connect_convert_and_retarget(window, qtbot):
    win = window
    assert win.open_path("templates/fanout_join.json", bundled=True)
    spec = win.document.spec
    fan = "__start__"  # START fans out to the three searches
    plain = win.scene.edges["entry:search_docs"]
    menu = right_click(win, on_edge(win, plain))
    pick(qtbot, menu, "action_convert_to_router")
    edge = win.document.spec.conditional_edges[-1]
    assert edge.source == fan and edge.path_map == spec.entry and win.document.spec.entry == []
    assert win.editor.stack.undoText() == "Convert edges of START to a router"
    # drag the end of one dashed route onto another node: it re-targets that route
    route = next(i for i in win.scene.edges.values() if i.look.key == f"{edge.id}#0")
    other = next(n for n in win.scene.nodes if n not in edge.path_map and n != fan)
    route.setSelected(True)
    drag(
        win.view, win.scene.ported(route.look.target).port_pos("in"), center(win.scene.nodes[other])
    )
    assert list(win.document.spec.conditional_edges[-1].path_map.values())[0] == other
    QTest.keyClick(win.view, Qt.Key.Key_Z, CTRL)
    # the conditional edge's menu turns it back into plain edges
    route = next(i for i in win.scene.edges.values() if i.look.key == f"{edge.id}#1")
    menu = right_click(win, on_edge(win, route))
    pick(qtbot, menu, "action_convert_to_edges")
    assert win.document.spec.conditional_edges == spec.conditional_edges
    assert win.document.spec.entry == spec.entry
    # the canvas menu adds a node where it was opened; a node's menu connects and duplicates
    empty = win.view.mapToScene(QPoint(20, 20))
    menu = right_click(win, empty)
    pick(qtbot, menu, "addNodeMenu", "addNode_interrupt")
    added = win.document.spec.node("interrupt")
    assert added is not None and abs(added.position.x - empty.x()) <= 20
    menu = right_click(win, center(win.scene.nodes["interrupt"]))
    assert menu_texts(menu)["action_duplicate"].endswith("\tCtrl+D")
    pick(qtbot, menu, "connectMenu", "connectMenu___end__")
    assert "interrupt" in win.document.spec.finish
    menu = right_click(win, center(win.scene.nodes["interrupt"]))
    pick(qtbot, menu, "action_duplicate")
    assert win.document.spec.node("interrupt_2") is not None
    # a port's menu adds a conditional route; the router shows in the inspector
    menu = right_click(win, win.scene.ported("interrupt_2").port_pos("out"))  # the copy lies on top
    assert menu.objectName() == "portContextMenu"
    pick(qtbot, menu, "addConditionalEdgeAction")
    assert win.editor.router_of("interrupt_2") in win.scene.selected_ids()
    assert win.inspector.findChild(QComboBox, "routerKindCombo") is not None


def test_start_and_end_are_drawn_in_view_on_an_empty_canvas_and_after_switching(window, qtbot):
    win = window
    for opened in (
        win.new_graph,
        lambda: win.open_path("templates/map_reduce.json", bundled=True),
        win.new_graph,
    ):
        opened()
        qtbot.wait(20)
        visible = win.view.mapToScene(win.view.viewport().rect()).boundingRect()
        for terminal in win.scene.terminals.values():
            assert terminal.isVisible() and visible.contains(terminal.sceneBoundingRect()), (
                terminal.node_id
            )


def test_run_is_disabled_on_the_start_page_and_messages_reset_on_open(window):
    win = window
    assert not win.findChild(QPushButton, "runButton").isEnabled()
    assert win.open_path("templates/router.json", bundled=True)
    assert win.findChild(QPushButton, "runButton").isEnabled()
    win.statusBar().showMessage("something about the router")
    assert win.open_path("templates/hello_world.json", bundled=True)
    assert "router" not in win.statusBar().currentMessage()
    win.show_start()
    assert not win.findChild(QPushButton, "stepButton").isEnabled()


# ------------------------------------------------------------------ the window


@pytest.mark.parametrize("size", [(1280, 720), (1366, 768)])
def test_the_window_fits_small_screens_without_overlap(qtbot, home, size, tmp_path):
    from studio.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    assert win.open_path("templates/fanout_join.json", bundled=True)
    qtbot.wait(100)
    assert (win.width(), win.height()) == size  # no dock or toolbar forces it larger
    canvas = win.view.geometry().translated(win.view.mapTo(win, QPoint(0, 0)) - win.view.pos())
    assert canvas.width() >= 500 and canvas.height() >= 300, canvas
    for dock in win.docks:
        if dock.isVisible() and not dock.isFloating():
            place = dock.geometry()
            assert not place.intersects(canvas), (dock.objectName(), place, canvas)
    for bar in (win.findChild(type(win.runner.toolbar), "mainToolbar"), win.runner.toolbar):
        assert win.rect().contains(bar.geometry()), bar.objectName()
    # the minimap covers no card
    minimap = win.view.minimap
    if minimap.isVisible():
        for item in win.scene.nodes.values():
            card = win.view.mapFromScene(item.sceneBoundingRect()).boundingRect()
            assert not card.translated(win.view.viewport().pos()).intersects(minimap.geometry()), (
                item.node_id
            )
    if size == (1280, 720):
        win.scene.select_ids(["search_web"])
        grab(qtbot, win, "window-1280x720.png", tmp_path)


def test_panels_menu_reopens_docks_and_the_layout_is_restored(window, qtbot, home):
    from studio.main_window import MainWindow

    win = window
    assert win.open_path("templates/router.json", bundled=True)
    dock = win.dock_named("problemsDock")
    dock.close()
    assert not dock.isVisible()
    panels = win.findChild(QMenu, "panelsMenu")
    toggle = next(
        a
        for a in panels.actions()
        if a.text() == dock.windowTitle() or a is dock.toggleViewAction()
    )
    toggle.trigger()
    assert dock.isVisible()
    win.dock_named("stateDock").close()
    win.close()  # saves the layout (the state dock closed)
    again = MainWindow()
    qtbot.addWidget(again)
    again.show()
    assert again.open_path("templates/router.json", bundled=True)
    qtbot.wait(50)
    assert (
        not again.dock_named("stateDock").isVisible()
        and again.dock_named("inspectorDock").isVisible()
    )
    QTest.keyClick(again, Qt.Key.Key_F1)
    assert again.findChild(QWidget, "shortcutsDialog").isVisible()


def test_ctrl_q_asks_to_save_unsaved_edits(window, qtbot, tmp_path):
    win = window
    assert win.open_path("templates/router.json", bundled=True)
    win.activateWindow()
    click(win.view, center(win.scene.nodes["a"]))
    QTest.keyClick(win.view, Qt.Key.Key_D, CTRL)  # an edit (a breakpoint is not one: F9 leaves
    edited = [n.id for n in win.document.spec.nodes]  # the graph unmodified, issue 27.10)
    QTest.keyClick(win.view, Qt.Key.Key_Q, CTRL)
    prompt = win.findChild(QMessageBox, "savePrompt")
    assert prompt is not None and prompt.isVisible()
    qtbot.mouseClick(prompt.button(QMessageBox.StandardButton.Cancel), LEFT)
    assert win.isVisible() and not win.editor.stack.isClean()
    QTest.keyClick(win.view, Qt.Key.Key_Q, CTRL)
    prompt = win.save_prompt  # a new one (the first is being deleted)
    assert prompt.objectName() == "savePrompt"
    qtbot.waitUntil(prompt.isVisible)
    qtbot.mouseClick(prompt.button(QMessageBox.StandardButton.Discard), LEFT)
    qtbot.waitUntil(lambda: not win.isVisible())
    assert not win.autosave.file.exists()
    from studio.main_window import MainWindow

    again = MainWindow()  # Don't save keeps them aside: offered back on the next start (27.1)
    qtbot.addWidget(again)
    assert "you chose not to save" in again.recovery_banner.label.text()
    assert again.recover() and [n.id for n in again.document.spec.nodes] == edited
