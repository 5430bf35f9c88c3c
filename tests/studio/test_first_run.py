"""First-run traps (issue 27.8): a counter drawn from scratch runs on `{}` because its key got
its type's default, and the default is the key's own (saved with it, exported with it)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QDockWidget, QMessageBox, QPushButton

from tests.studio.conftest import settle
from tests.studio.helpers import center, click, drag, type_in_cell
from tests.studio.test_agent_inspector import type_code
from tests.studio.test_canvas_gestures import drop_from_palette, port

pytestmark = pytest.mark.gui


def edit_cell(qtbot, table, row: int, column: int, text: str) -> None:
    dock = next(d for d in table.window().findChildren(QDockWidget) if d.isAncestorOf(table))
    dock.raise_()  # its tab clicked: a run may have brought another dock forward
    qtbot.waitUntil(table.isVisible)
    type_in_cell(qtbot, table, row, column, text)
    qtbot.wait(20)  # the commit arrives from the event loop


def choose(combo, value: str) -> None:
    """Pick `value` with the arrow keys, as a user steps through the list (each step is a
    change of its own, as it is for them)."""
    combo.setFocus()
    key = Qt.Key.Key_Down if combo.findText(value) > combo.currentIndex() else Qt.Key.Key_Up
    while combo.currentText() != value:
        QTest.keyClick(combo, key)


def run_with(qtbot, win, text: str) -> None:
    editor = win.runner.input_panel.editor
    editor.setFocus()
    QTest.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(editor, text)
    qtbot.mouseClick(win.findChild(QPushButton, "runButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not win.runner.session.busy and win.runner.view is not None,
                    timeout=15000)  # fmt: skip


def test_a_counter_drawn_from_scratch_runs_on_an_empty_input(window, qtbot, tmp_path):
    win = window
    win.new_graph()
    panel = win.state_panel
    qtbot.mouseClick(panel.findChild(QPushButton, "addKeyButton"), Qt.MouseButton.LeftButton)
    edit_cell(qtbot, panel.table, 0, 0, "count")
    choose(panel.table.cellWidget(0, 1), "int")
    assert win.document.spec.state[0].default == 0
    assert panel.table.item(0, 6).text() == "0"
    drop_from_palette(win, "node:set_state", win.view.mapToScene(QPoint(300, 200)))
    drag(win.view, port(win, "__start__", "out"), center(win.scene.nodes["set_state"]))
    drag(win.view, port(win, "set_state", "out"), center(win.scene.terminals["__end__"]))
    click(win.view, center(win.scene.nodes["set_state"]))
    type_code(qtbot, win, "inspector_values", ["count = count + 1"])
    assert win.document.spec.node("set_state").values == {"count": "count + 1"}
    settle(qtbot, win)
    run_with(qtbot, win, "{}")
    assert win.runner.last_failure is None
    assert win.runner.view.values["count"] == 1

    # a default typed in the table is the key's own: saved, and the run reads it
    edit_cell(qtbot, panel.table, 0, 6, "41")
    assert win.document.spec.state[0].default == 41
    qtbot.mouseClick(win.findChild(QPushButton, "newThreadButton"), Qt.MouseButton.LeftButton)
    run_with(qtbot, win, "{}")
    assert win.runner.view.values["count"] == 42
    path = tmp_path / "counter.json"
    assert win.save_as(path)
    assert json.loads(path.read_text())["state"][0]["default"] == 41
    # a value that is not of the key's type is refused, with the reason
    edit_cell(qtbot, panel.table, 0, 6, '"many"')
    assert win.document.spec.state[0].default == 41


def test_a_messages_key_takes_the_add_messages_reducer(window, qtbot):
    win = window
    win.new_graph()
    panel = win.state_panel
    qtbot.mouseClick(panel.findChild(QPushButton, "addKeyButton"), Qt.MouseButton.LeftButton)
    choose(panel.table.cellWidget(0, 1), "messages")
    key = win.document.spec.state[0]
    assert (key.type, key.reducer) == ("messages", "add_messages")
    assert panel.table.cellWidget(0, 2).currentText() == "add_messages"
    choose(panel.table.cellWidget(0, 1), "list")  # another type: the reducer goes with it
    key = win.document.spec.state[0]
    assert (key.type, key.reducer, key.default) == ("list", "none", [])


def test_switching_a_router_to_send_asks_before_dropping_its_routes(window, qtbot):
    win = window
    win.new_graph()
    for x, y in ((330, 90), (180, 300), (480, 300)):
        drop_from_palette(win, "node:set_state", win.view.mapToScene(QPoint(x, y)))
    a, b, c = "set_state", "set_state_2", "set_state_3"
    drag(win.view, port(win, a, "route"), center(win.scene.nodes[b]))
    drag(win.view, port(win, a, "route"), center(win.scene.nodes[c]))
    edge = win.document.spec.conditional_edges[0]
    assert edge.path_map == [b, c]

    def switch_to_send() -> QMessageBox:
        win.scene.select_ids([edge.id])
        combo = win.inspector.findChild(QComboBox, "routerKindCombo")
        combo.showPopup()  # "Send fan-out" picked from the list with the mouse
        popup = combo.view()
        rect = popup.visualRect(popup.model().index(combo.findData("send"), 0))
        qtbot.mouseClick(popup.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.waitUntil(lambda: win.findChild(QMessageBox, "dropRoutesQuestion") is not None)
        box = win.findChild(QMessageBox, "dropRoutesQuestion")
        assert c in box.text() and "dropped" in box.text()
        return box

    box = switch_to_send()  # nothing changed yet, and "Keep the routes" keeps them
    assert win.document.spec.conditional_edges[0] == edge
    keep = next(b for b in box.buttons() if b.text() == "Keep the routes")
    qtbot.mouseClick(keep, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.findChild(QMessageBox, "dropRoutesQuestion") is None)
    assert win.document.spec.conditional_edges[0] == edge
    qtbot.waitUntil(lambda: win.inspector.findChild(QComboBox, "routerKindCombo") is not None
                    and win.inspector.findChild(QComboBox, "routerKindCombo").currentData()
                    == "expression")  # fmt: skip

    box = switch_to_send()  # asked again, and this time the user agrees
    drop = next(b for b in box.buttons() if b.text().startswith("Drop"))
    qtbot.mouseClick(drop, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.document.spec.conditional_edges[0].router.kind == "send")
    switched = win.document.spec.conditional_edges[0]
    assert (switched.router.target, switched.path_map) == (b, None)
    win.actions_by_name["undo"].trigger()  # one edit
    assert win.document.spec.conditional_edges[0] == edge


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_start_and_end_are_in_view_and_end_stays_below_the_cards(window, qtbot, size):
    win = window
    win.resize(*size)
    win.show_start()
    win.new_graph()  # from the start page, as a first-time user does
    view = win.view
    assert not win.scene.zooming  # drawn sharp at once, not from a picture at another scale
    qtbot.wait(50)
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    for terminal in win.scene.terminals.values():
        assert shown.contains(terminal.sceneBoundingRect()), (shown, terminal.node_id)
    drop_from_palette(win, "node:set_state", view.mapToScene(QPoint(300, 100)))
    drop_from_palette(win, "node:set_state", view.mapToScene(QPoint(300, 300)))
    end = win.scene.terminals["__end__"]
    lowest = win.scene.nodes["set_state_2"].sceneBoundingRect().bottom()
    y = end.pos().y()
    assert y > lowest
    # the first edge into END, from the upper card: END stays below both cards
    drag(view, port(win, "set_state", "out"), center(end))
    assert win.document.spec.finish == ["set_state"]
    assert end.pos().y() == y
    assert not end.sceneBoundingRect().intersects(
        win.scene.nodes["set_state_2"].sceneBoundingRect()
    )
