"""First-run traps (issue 27.8): a counter drawn from scratch runs on `{}` because its key got
its type's default, and the default is the key's own (saved with it, exported with it)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDockWidget, QPushButton

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
    combo.setFocus()
    while combo.currentText() != value:
        QTest.keyClick(combo, Qt.Key.Key_Down)


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
