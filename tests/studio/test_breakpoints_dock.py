"""Breakpoints as a developer expects them (issue 30.1), driven through the Breakpoints dock:
a condition and a hit count, inside a subgraph, on an agent's tool and middleware hook, pause on
error with the input edited and the step retried, enable/disable, and kept with the document
(spec files and graphs from code) without marking it modified."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QToolButton,
)

from tests.studio.test_open_code import FACTORY, program
from tests.studio.test_run_steps import click, idle, open_template

pytestmark = pytest.mark.gui

DIVIDE = {
    "version": 2,
    "name": "divide",
    "state": [{"name": "divisor", "type": "int"}, {"name": "result", "type": "int"}],
    "nodes": [{"id": "divide", "position": {"x": 200.0, "y": 100.0}, "kind": "set_state",
               "values": {"result": "100 // divisor"}}],
    "entry": ["divide"],
    "finish": ["divide"],
}  # fmt: skip


def panel(win):
    return win.breakpoints_panel


def add(qtbot, win, where: str, at: str = "before", tool: str = "", condition: str = "",
        hit: int = 0) -> None:  # fmt: skip
    """Fill the dock's form and press Add."""
    p = panel(win)
    at_box = p.findChild(QComboBox, "breakpointAt")
    at_box.setCurrentIndex(at_box.findData(at))
    p.findChild(QComboBox, "breakpointWhere").setEditText(where)
    p.findChild(QLineEdit, "breakpointTool").setText(tool)
    p.findChild(QLineEdit, "breakpointCondition").setText(condition)
    p.findChild(QSpinBox, "breakpointHit").setValue(hit)
    click(qtbot, win, "addBreakpointButton")


def run(qtbot, win, value: dict) -> list:
    """Run a new thread from `value`; the tasks that stopped at a breakpoint are collected."""
    held: list = []
    win.runner.held_changed.append(lambda h: h is not None and held.append(h))
    win.runner.new_thread()
    win.runner.input_panel.editor.setPlainText(json.dumps(value))
    click(qtbot, win, "runButton")
    return held


def wait_held(qtbot, win):
    qtbot.waitUntil(lambda: win.runner.held is not None, timeout=20000)
    p = panel(win)
    assert p.pause_box.isVisible()
    # the dock is raised and laid out again: its buttons are in view before anyone clicks them
    qtbot.waitUntil(lambda: any(not b.visibleRegion().isEmpty()
                                for b in (p.continue_button, p.retry_button)))  # fmt: skip
    return win.runner.held


def finish(qtbot, win) -> dict:
    idle(qtbot, win, timeout=20000)
    assert win.runner.state == "finished", win.runner.last_failure
    return win.runner.view.values


def set_cell(win, row: int, column: int, text: str) -> None:
    panel(win).table.item(row, column).setText(text)


def test_a_conditional_breakpoint_pauses_on_the_third_visit_only_when_it_holds(qtbot, window):
    win = window
    open_template(qtbot, win, "counter_loop")
    add(qtbot, win, "increment", condition="count >= 2", hit=3)
    assert win.document.spec.breakpoints.points[0].hit == 3
    held = run(qtbot, win, {"count": 0, "limit": 5})
    stop = wait_held(qtbot, win).stop
    assert (stop.path, stop.visit, stop.state["count"]) == (("increment",), 3, 2)
    assert "visit 3" in panel(win).pause_label.text()
    assert not win.runner.continue_button.isHidden() and win.runner.continue_button.isEnabled()
    click(qtbot, win, "pauseContinueButton")
    assert finish(qtbot, win)["count"] == 5
    assert len(held) == 1 and not panel(win).pause_box.isVisible()  # the 3rd visit only

    table = panel(win).table
    set_cell(win, 0, 3, "count > 5")  # the 3rd visit sees count == 2: no pause
    assert win.document.spec.breakpoints.points[0].condition == "count > 5"
    assert run(qtbot, win, {"count": 0, "limit": 5}) == [] and finish(qtbot, win)["count"] == 5
    set_cell(win, 0, 3, "count >= 2")
    set_cell(win, 0, 4, "2")  # the 2nd visit sees count == 1: the condition does not hold
    assert run(qtbot, win, {"count": 0, "limit": 5}) == [] and finish(qtbot, win)["count"] == 5
    set_cell(win, 0, 3, "count ++ ")  # not a safe expression: refused, kept as it was
    assert win.document.spec.breakpoints.points[0].condition == "count >= 2"
    assert "not a safe expression" in panel(win).status.text()
    assert table.item(0, 3).text() == "count >= 2"

    # after the node: its condition reads the state as the node leaves it, shown with its writes
    table.item(0, 0).setCheckState(Qt.CheckState.Unchecked)
    add(qtbot, win, "increment", at="after", condition="count == 4")
    run(qtbot, win, {"count": 0, "limit": 5})
    held = wait_held(qtbot, win)
    assert (held.stop.at, held.stop.visit, held.input["count"]) == ("after", 4, 3)
    shown = json.loads(panel(win).pause_input.toPlainText())
    assert shown["wrote"][0] == ["count", 4] and panel(win).pause_input.isReadOnly()
    click(qtbot, win, "pauseContinueButton")
    assert finish(qtbot, win)["count"] == 5


def test_a_breakpoint_inside_a_subgraph_edits_the_input_of_its_node(qtbot, window):
    win = window
    open_template(qtbot, win, "subgraph")
    add(qtbot, win, "shout › exclaim")
    run(qtbot, win, {"text": "  hello  ", "steps": []})
    held = wait_held(qtbot, win)
    assert held.stop.path == ("shout", "exclaim") and held.input == {"text": "HELLO"}
    panel(win).findChild(QPlainTextEdit, "pauseInput").setPlainText('{"text": "bye"}')
    click(qtbot, win, "pauseContinueButton")
    assert finish(qtbot, win)["text"] == "bye!"  # the inner node ran with the edited input


def test_a_breakpoint_on_an_agents_tool_and_on_a_middleware_hook(qtbot, window):
    win = window
    open_template(qtbot, win, "react_agent")
    add(qtbot, win, "assistant / tools", tool="get_weather", condition="city == 'Paris'")
    question = {"messages": [{"role": "user", "content": "What's the weather in Paris?"}]}
    run(qtbot, win, question)
    held = wait_held(qtbot, win)
    assert held.stop.path == ("assistant", "tools") and held.stop.state == {"city": "Paris"}
    calls = held.input
    calls[0]["args"]["city"] = "Rome"
    panel(win).findChild(QPlainTextEdit, "pauseInput").setPlainText(json.dumps(calls))
    win.runner.carry_on()  # the run toolbar's Continue lets it go on too
    messages = finish(qtbot, win)["messages"]
    assert any("sunny in Rome" in str(m.content) for m in messages)

    open_template(qtbot, win, "agent_limits_pii")
    add(qtbot, win, "assistant › PIIMiddleware[email].before_model", hit=2)
    run(qtbot, win, win.document.spec.inputs[0].value)
    held = wait_held(qtbot, win)
    assert held.stop.path == ("assistant", "PIIMiddleware[email].before_model")
    assert held.stop.visit == 2
    click(qtbot, win, "pauseContinueButton")
    finish(qtbot, win)


def test_pause_on_error_edit_the_input_and_retry_the_step(qtbot, window, tmp_path):
    win = window
    path = tmp_path / "divide.json"
    path.write_text(json.dumps(DIVIDE), encoding="utf-8")
    assert win.open_path(path)
    idle(qtbot, win)
    panel(win).findChild(QCheckBox, "pauseOnErrorsCheck").setChecked(True)
    assert win.document.spec.breakpoints.points[0].node == "*"
    run(qtbot, win, {"divisor": 0})
    held = wait_held(qtbot, win)
    assert held.stop.at == "error" and "ZeroDivisionError" in held.stop.error
    assert json.loads(panel(win).pause_input.toPlainText()) == {"divisor": 0}
    assert panel(win).retry_button.isVisible() and not panel(win).continue_button.isVisible()
    panel(win).pause_input.setPlainText('{"divisor": 4}')
    click(qtbot, win, "pauseRetryButton")
    assert finish(qtbot, win)["result"] == 25

    run(qtbot, win, {"divisor": 0})
    wait_held(qtbot, win)
    click(qtbot, win, "pauseFailButton")  # let it fail: the run fails as without the dock
    idle(qtbot, win, timeout=20000)
    assert win.runner.state == "failed" and "ZeroDivisionError" in win.runner.last_failure.message


def test_enable_and_disable_from_the_dock(qtbot, window):
    win = window
    open_template(qtbot, win, "counter_loop")
    win.editor.toggle_breakpoint("increment", "before")  # F9: LangGraph's interrupt_before
    table = panel(win).table
    assert table.rowCount() == 1 and table.item(0, 2).text() == "increment"
    table.item(0, 0).setCheckState(Qt.CheckState.Unchecked)
    bp = win.document.spec.breakpoints
    assert bp.before == [] and bp.points[0].enabled is False
    toolbar = win.findChild(QToolButton, "breakpointsButton")  # lists the dock's too
    assert toolbar.text() == "Breakpoints: before increment (off)"
    assert run(qtbot, win, {"count": 0, "limit": 3}) == [] and finish(qtbot, win)["count"] == 3
    panel(win).table.item(0, 0).setCheckState(Qt.CheckState.Checked)
    assert win.document.spec.breakpoints.before == ["increment"]  # plain again
    assert not win.document.spec.breakpoints.points

    add(qtbot, win, "increment", hit=2)
    assert panel(win).table.rowCount() == 2
    panel(win).table.item(0, 0).setCheckState(Qt.CheckState.Unchecked)  # the plain one off
    run(qtbot, win, {"count": 0, "limit": 3})
    assert wait_held(qtbot, win).stop.visit == 2
    click(qtbot, win, "pauseContinueButton")
    finish(qtbot, win)
    panel(win).table.item(1, 0).setCheckState(Qt.CheckState.Unchecked)
    assert run(qtbot, win, {"count": 0, "limit": 3}) == [] and finish(qtbot, win)["count"] == 3


def test_breakpoints_are_kept_with_the_document_without_marking_it_modified(qtbot, window,
                                                                            tmp_path):  # fmt: skip
    win = window
    path = tmp_path / "loop.json"
    open_template(qtbot, win, "counter_loop")
    assert win.save_as(path) and win.open_path(path)
    add(qtbot, win, "increment", condition="count >= 2", hit=3)
    panel(win).findChild(QCheckBox, "pauseOnErrorsCheck").setChecked(True)
    assert not win.unsaved() and "*" not in win.windowTitle()
    assert win.save()
    saved = json.loads(path.read_text(encoding="utf-8"))["breakpoints"]["points"]
    assert saved[0] == {"node": "increment", "condition": "count >= 2", "hit": 3}
    assert win.open_path(path)
    assert panel(win).table.rowCount() == 2
    assert panel(win).findChild(QCheckBox, "pauseOnErrorsCheck").isChecked()

    # a graph from code: its program is never written; they come back when it is opened again
    code = program(tmp_path, "bumps", FACTORY)
    from studio.python_open import open_python

    assert open_python(win, code, "make_graph", trusted=True)
    add(qtbot, win, "bump", hit=2)
    assert not win.unsaved()
    assert open_python(win, code, "make_graph", trusted=True)
    assert panel(win).table.rowCount() == 1 and panel(win).points[0].hit == 2
    run(qtbot, win, {"count": 0})
    assert wait_held(qtbot, win).stop.visit == 2
    click(qtbot, win, "pauseContinueButton")
    assert finish(qtbot, win)["count"] == 3


NESTED = """
from typing_extensions import TypedDict

from langgraph.graph import END, START, StateGraph


class S(TypedDict):
    divisor: int
    result: int


def divide(state: S) -> dict:
    return {"result": 100 // state["divisor"]}


inner = StateGraph(S)
inner.add_node("divide", divide)
inner.add_edge(START, "divide")
inner.add_edge("divide", END)
builder = StateGraph(S)
builder.add_node("sub", inner.compile())
builder.add_edge(START, "sub")
app = builder.compile()
"""


def test_an_error_inside_a_subgraph_pauses_once_and_stop_ends_a_pause(qtbot, window, tmp_path):
    from studio.python_open import open_python

    win = window
    assert open_python(win, program(tmp_path, "nested", NESTED), "app", trusted=True)
    panel(win).findChild(QCheckBox, "pauseOnErrorsCheck").setChecked(True)
    held = run(qtbot, win, {"divisor": 0})
    assert wait_held(qtbot, win).stop.path == ("sub", "divide")
    click(qtbot, win, "pauseFailButton")
    idle(qtbot, win, timeout=20000)
    assert win.runner.state == "failed" and len(held) == 1  # not again at `sub`, which failed too

    held = run(qtbot, win, {"divisor": 0})
    wait_held(qtbot, win)
    panel(win).pause_input.setPlainText('{"divisor": 5}')
    click(qtbot, win, "pauseRetryButton")
    assert finish(qtbot, win)["result"] == 20 and len(held) == 1

    run(qtbot, win, {"divisor": 0})
    wait_held(qtbot, win)

    click(qtbot, win, "stopButton")  # Stop lets the waiting task go on: it fails, no pause again
    idle(qtbot, win, timeout=20000)
    assert win.runner.held is None and not panel(win).pause_box.isVisible()

    run(qtbot, win, {"divisor": 0})
    wait_held(qtbot, win)
    assert open_template(qtbot, win, "hello_world")  # another document: the run ends with it
    idle(qtbot, win, timeout=20000)
    assert win.runner.held is None and not panel(win).pause_box.isVisible()
