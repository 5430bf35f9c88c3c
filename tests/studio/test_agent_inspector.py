"""An agent built entirely in the inspector with mouse and keyboard: model, two tools, two
configured prebuilt middleware and a custom hook; run offline, saved, reopened, undone, redone."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QTableWidget,
    QWidget,
)

from graphspec.io import dumps_spec
from studio.panels.code_editor import CodeEditor
from tests.studio.conftest import settle
from tests.studio.helpers import center, click, drag, type_in_cell
from tests.studio.test_canvas_gestures import drop_from_palette, port

pytestmark = pytest.mark.gui


def find(qtbot, win, cls, name: str) -> QWidget:
    """The inspector's current widget `name` (the form is rebuilt a moment after each edit)."""
    found: list[QWidget] = []

    def ready() -> bool:
        QApplication.processEvents()
        widget = win.inspector.widget().findChild(cls, name)
        found[:] = [widget] if widget is not None and widget.isVisibleTo(win.inspector) else []
        return bool(found)

    qtbot.waitUntil(ready, timeout=3000)
    return found[0]


def press(qtbot, win, name: str) -> None:
    qtbot.mouseClick(find(qtbot, win, QPushButton, name), Qt.MouseButton.LeftButton)


def type_line(qtbot, win, name: str, text: str) -> None:
    edit = find(qtbot, win, QLineEdit, name)
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)
    edit.selectAll()
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def type_code(qtbot, win, name: str, lines: list[str]) -> None:
    """Types code line by line; Return auto-indents; a line starting with `<` is typed after a
    Backspace, which removes one indentation level."""
    editor = find(qtbot, win, CodeEditor, name)
    qtbot.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton)
    QTest.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(editor, Qt.Key.Key_Delete)
    for i, line in enumerate(lines):
        if i:
            QTest.keyClick(editor, Qt.Key.Key_Return)
        if line.startswith("<"):
            QTest.keyClick(editor, Qt.Key.Key_Backspace)
            line = line[1:]
        QTest.keyClicks(editor, line)
    QTest.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # commit


def pick(qtbot, win, name: str, text: str) -> None:
    """Choose `text` in a combo box with the keyboard."""
    combo = find(qtbot, win, QComboBox, name)
    combo.setFocus()
    index = combo.findText(text)
    assert index >= 0, (name, text)
    while combo.currentIndex() != index:
        QTest.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < index else Qt.Key.Key_Up)


def edit_cell(qtbot, win, table_name: str, row: int, column: int, text: str) -> None:
    type_in_cell(qtbot, find(qtbot, win, QTableWidget, table_name), row, column, text)


def select_row(qtbot, win, list_name: str, row: int) -> None:
    widget = find(qtbot, win, QListWidget, list_name)
    qtbot.mouseClick(
        widget.viewport(),
        Qt.MouseButton.LeftButton,
        pos=widget.visualItemRect(widget.item(row)).center(),
    )


def add_messages_key(qtbot, win) -> None:
    panel = win.state_panel
    qtbot.mouseClick(panel.findChild(QPushButton, "addKeyButton"), Qt.MouseButton.LeftButton)
    table = panel.table
    qtbot.mouseClick(
        table.viewport(),
        Qt.MouseButton.LeftButton,
        pos=table.visualItemRect(table.item(0, 0)).center(),
    )
    table.editItem(table.item(0, 0))  # what a double click does
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    QTest.keyClicks(editor, "messages")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    for column, value in ((1, "messages"), (2, "add_messages")):
        combo = table.cellWidget(0, column)  # the current row's (an old table's may linger)
        combo.setFocus()
        while combo.currentText() != value:
            QTest.keyClick(combo, Qt.Key.Key_Down)
    key = win.document.spec.state[0]
    assert (key.name, key.type, key.reducer) == ("messages", "messages", "add_messages")


def new_agent(qtbot, win) -> None:
    """A new graph: a messages key and an agent node from START to END, selected."""
    win.new_graph()
    add_messages_key(qtbot, win)
    view = win.view
    drop_from_palette(win, "node:agent", view.mapToScene(QPoint(400, 250)))
    drag(view, port(win, "__start__", "out"), center(win.scene.nodes["agent"]))
    drag(view, port(win, "agent", "out"), center(win.scene.terminals["__end__"]))
    click(view, center(win.scene.nodes["agent"]))
    assert win.scene.selected_ids() == ["agent"]


def build_agent(qtbot, win) -> None:
    new_agent(qtbot, win)

    # model: scripted, two replies (two tool calls, then the answer); a model name typed too
    assert find(qtbot, win, QComboBox, "modelProviderCombo").currentText() == "scripted"
    type_line(qtbot, win, "modelNameEdit", "demo")
    press(qtbot, win, "responseAdd")
    press(qtbot, win, "toolCallAdd")
    press(qtbot, win, "toolCallAdd")
    edit_cell(qtbot, win, "toolCallsTable", 0, 0, "shout")
    edit_cell(qtbot, win, "toolCallsTable", 0, 1, '{"text": "hi"}')
    edit_cell(qtbot, win, "toolCallsTable", 1, 0, "count")
    edit_cell(qtbot, win, "toolCallsTable", 1, 1, '{"text": "a b c"}')
    press(qtbot, win, "responseAdd")
    type_code(qtbot, win, "responseContent", ["All done."])

    # two tools: names, descriptions, code typed with auto-indent
    press(qtbot, win, "toolAdd")
    type_line(qtbot, win, "toolName", "shout")
    type_line(qtbot, win, "toolDescription", "Upper-cases the text.")
    type_code(qtbot, win, "toolCode", ["def shout(text: str) -> str:", "return text.upper() + '!'"])
    press(qtbot, win, "toolAdd")
    type_line(qtbot, win, "toolName", "count")
    type_code(qtbot, win, "toolCode", ["def count(text: str) -> int:", "words = text.split()",
                                       "if not words:", "return 0", "<return len(words)"])  # fmt: skip

    # prebuilt middleware: PII (its required pii_type marked and typed) and a tool call limit
    pick(qtbot, win, "middlewareAddCombo", "pii")
    press(qtbot, win, "middlewareAdd")
    form = find(qtbot, win, QWidget, "middlewareSettingsForm")
    assert form.findChild(QWidget, "settingLabel_pii_type").text() == "pii type *"
    type_line(qtbot, win, "setting_pii_type", "email")
    pick(qtbot, win, "setting_strategy", "mask")
    find(qtbot, win, QComboBox, "setting_strategy").activated.emit(
        find(qtbot, win, QComboBox, "setting_strategy").currentIndex()
    )
    pick(qtbot, win, "middlewareAddCombo", "tool call limit")
    press(qtbot, win, "middlewareAdd")
    type_line(qtbot, win, "setting_run_limit", "5")
    # a custom middleware with an after_agent hook
    pick(qtbot, win, "middlewareAddCombo", "custom")
    press(qtbot, win, "middlewareAdd")
    pick(qtbot, win, "hookAddCombo", "after_agent")
    press(qtbot, win, "hookAdd")
    type_code(qtbot, win, "hook_after_agent", [
        "def audit(state, runtime):",
        "return {'messages': [{'role': 'assistant', 'content': 'audited %d' % len(state['messages'])}]}",
    ])  # fmt: skip
    # reorder: the custom middleware first (Up twice)
    press(qtbot, win, "middlewareUp")
    press(qtbot, win, "middlewareUp")


def test_build_run_save_reopen_undo_redo_an_agent(window, qtbot, tmp_path):
    win = window
    build_agent(qtbot, win)
    agent = win.document.spec.agents[0]
    assert agent.model.model == "demo"
    assert [t.name for t in agent.tools] == ["shout", "count"]
    assert agent.tools[1].code == (
        "def count(text: str) -> int:\n    words = text.split()\n    if not words:\n        return 0\n"
        "    return len(words)"
    )
    assert (
        agent.tools[0].function == "shout" and agent.tools[0].description == "Upper-cases the text."
    )
    assert [m.name for m in agent.middleware] == ["custom", "pii", "tool_call_limit"]
    assert agent.middleware[1].settings == {"pii_type": "email", "strategy": "mask"}
    assert agent.middleware[2].settings == {"run_limit": 5}
    assert list(agent.middleware[0].hooks) == ["after_agent"]
    assert agent.middleware[0].hooks["after_agent"].function == "audit"
    assert [r.content for r in agent.model.responses] == ["", "All done."]
    assert [(c.name, c.args) for c in agent.model.responses[0].tool_calls] == [
        ("shout", {"text": "hi"}), ("count", {"text": "a b c"})]  # fmt: skip
    settle(qtbot, win)
    assert [f for f in win.validator.findings if f.severity == "error"] == []

    # run it offline with the scripted model
    editor = win.runner.input_panel.editor
    editor.setFocus()
    QTest.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(
        editor, json.dumps({"messages": [{"role": "user", "content": "mail ada@example.com"}]})
    )
    qtbot.mouseClick(win.findChild(QPushButton, "runButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: not win.runner.session.busy and win.runner.view is not None, timeout=15000
    )
    messages = win.runner.view.values["messages"]
    assert [m.type for m in messages] == ["human", "ai", "tool", "tool", "ai", "ai"]
    assert "ada@example.com" not in messages[0].content  # PII masked the input
    assert [m.content for m in messages[2:4]] == ["HI!", "3"]
    assert messages[4].content == "All done." and messages[5].content == "audited 5"

    # save, reopen: the same spec
    path = tmp_path / "agent.json"
    assert win.save_as(path)
    built = dumps_spec(win.document.spec)
    assert win.open_path(path)
    assert dumps_spec(win.document.spec) == built == path.read_text(encoding="utf-8")

    # undo and redo, in the window that built it
    win.new_graph()
    build_agent(qtbot, win)
    built = dumps_spec(win.document.spec)
    stack = win.editor.stack
    while stack.canUndo():
        win.actions_by_name["undo"].trigger()
    assert win.document.spec.nodes == [] and win.document.spec.agents == []
    while stack.canRedo():
        win.actions_by_name["redo"].trigger()
    assert dumps_spec(win.document.spec) == built
    settle(qtbot, win)


def test_typing_a_provider_or_model_keeps_the_edit(window, qtbot):
    """`updated(agent, model=...)` once raised TypeError (a field named like its parameter)."""
    win = window
    win.new_graph()
    drop_from_palette(win, "node:model", win.view.mapToScene(QPoint(300, 200)))
    click(win.view, center(win.scene.nodes["model"]))
    type_line(qtbot, win, "modelNameEdit", "tiny")
    assert win.document.spec.node("model").model.model == "tiny"
    drop_from_palette(win, "node:agent", win.view.mapToScene(QPoint(300, 420)))
    click(win.view, center(win.scene.nodes["agent"]))
    type_line(qtbot, win, "modelNameEdit", "big")
    assert win.document.spec.agents[0].model.model == "big"
    assert win.inspector.widget().findChild(QWidget, "inspectorError").text() == ""


def test_code_that_does_not_parse_is_kept_flagged_and_not_run(window, qtbot):
    win = window
    build_agent(qtbot, win)
    select_row(qtbot, win, "toolsList", 0)
    type_code(qtbot, win, "toolCode", ["def shout(text: str) -> str:", "return (text"])
    assert win.document.spec.agents[0].tools[0].code.endswith("return (text")  # kept as typed
    settle(qtbot, win)
    errors = [f for f in win.validator.findings if f.severity == "error"]
    assert [(f.code, f.element_id, f.path) for f in errors] == [
        ("bad-code", "agent", "$.agents[0].tools[0].code")
    ]
    card = win.scene.nodes["agent"]
    assert card.mark == "error" and "does not parse" in card.mark_text  # flagged on the node
    qtbot.mouseClick(win.findChild(QPushButton, "runButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: not win.runner.session.busy and win.runner.last_failure is not None, timeout=15000
    )
    failure = win.runner.last_failure  # refused: the old, parsing version is not run
    assert failure.element_id == "agent" and "does not parse" in failure.message


def test_agent_inspector_screenshot(window, qtbot):
    """docs/agent-inspector.png (with SUPERSTEP_SCREENSHOT_DIR=docs): the window at 1280x720 with
    the inspector given the right-hand column, showing an agent's tools and middleware settings."""
    win = window
    win.resize(1280, 720)
    build_agent(qtbot, win)
    select_row(qtbot, win, "middlewareList", 1)  # PII: a required setting, a choice, flags
    form = find(qtbot, win, QWidget, "middlewareSettingsForm")
    for dock in win.findChildren(QDockWidget):
        area = win.dockWidgetArea(dock)
        if dock.objectName() != "inspectorDock" and area in (
            Qt.DockWidgetArea.RightDockWidgetArea,
            Qt.DockWidgetArea.BottomDockWidgetArea,
        ):
            dock.hide()
    inspector_dock = win.findChild(QDockWidget, "inspectorDock")
    inspector_dock.show()
    inspector_dock.raise_()
    win.resizeDocks([inspector_dock], [560], Qt.Orientation.Horizontal)
    settle(qtbot, win)
    QApplication.processEvents()
    win.view.centerOn(win.scene.nodes["agent"])  # the agent card beside its inspector
    win.inspector.ensureWidgetVisible(find(qtbot, win, QWidget, "toolsEditor"), 0, 0)
    win.inspector.verticalScrollBar().setValue(
        find(qtbot, win, QWidget, "toolsEditor").mapTo(win.inspector.widget(), QPoint(0, 0)).y()
        - 30
    )
    QApplication.processEvents()
    assert form.isVisible() and win.inspector.width() >= 500
    image = win.grab()
    assert (image.width(), image.height()) == (1280, 720)
    if os.environ.get("SUPERSTEP_SCREENSHOT_DIR"):
        image.save(str(Path(os.environ["SUPERSTEP_SCREENSHOT_DIR"]) / "agent-inspector.png"))
    assert find(qtbot, win, QCheckBox, "setting_apply_to_input").isChecked()


CLASS_MIDDLEWARE_AGENT = """
from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage


class Scripted(FakeMessagesListChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


class Stamp(AgentMiddleware):
    def __init__(self, mark: str = "*") -> None:
        super().__init__()
        self.mark = mark

    def after_model(self, state, runtime):
        return None


agent = create_agent(Scripted(responses=[AIMessage("hi")]), middleware=[Stamp(mark="!")])
"""


def test_a_programs_own_middleware_shows_where_it_comes_from_and_takes_no_hooks(
    qtbot, window, tmp_path
):
    """An imported class middleware runs as the program wrote it: the inspector names it and
    its hooks, and offers no hook to add (the spec would refuse one)."""
    from studio.python_open import open_python

    win = window
    program = tmp_path / "stamped.py"
    program.write_text(CLASS_MIDDLEWARE_AGENT, encoding="utf-8")
    assert open_python(win, program, trusted=True)
    assert win.document.code is None  # it becomes an editable spec
    agent = next(n.id for n in win.document.spec.nodes if n.kind == "agent")
    click(win.view, center(win.scene.nodes[agent]))
    select_row(qtbot, win, "middlewareList", 0)
    source = find(qtbot, win, QLabel, "middlewareImportPath")
    assert source.text() == "stamped:Stamp  (built with its settings)"
    assert win.inspector.widget().findChild(QPushButton, "hookAdd") is None
