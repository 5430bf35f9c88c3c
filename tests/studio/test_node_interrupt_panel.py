"""A node raising the deprecated NodeInterrupt pauses the run as interrupt() does, but an answer
never reaches it: langgraph runs the node again on resume, and it raises again until its state
has changed. The panel says so and offers what works, the thread's state to edit; forking the
tip with the change runs the node again, past its check."""

from __future__ import annotations

import json
import textwrap

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from tests.studio.code_programs import open_program
from tests.studio.test_run_steps import click, idle

pytestmark = pytest.mark.gui

PROGRAM = textwrap.dedent("""
    from typing import TypedDict

    from langgraph.errors import NodeInterrupt
    from langgraph.graph import END, START, StateGraph


    class S(TypedDict):
        x: int


    def check(state):
        if state["x"] < 5:
            raise NodeInterrupt(f"x is {state['x']}: set it to 5 or more")
        return {"x": state["x"] + 100}


    builder = StateGraph(S)
    builder.add_node("check", check)
    builder.add_edge(START, "check")
    builder.add_edge("check", END)
    graph = builder.compile()
""")


def test_a_raised_node_interrupt_offers_the_state_to_edit_not_an_answer(qtbot, window, tmp_path):
    program = tmp_path / "raises_node_interrupt.py"
    program.write_text(PROGRAM, encoding="utf-8")
    open_program(qtbot, window, program)
    window.runner.input_panel.editor.setPlainText('{"x": 1}')
    click(qtbot, window, "runButton")
    idle(qtbot, window)
    panel = window.runner.interrupt_panel
    qtbot.waitUntil(panel.isVisible)
    assert panel.title.text() == "check raised NodeInterrupt"
    assert "Edit the state" in window.runner.status.text()
    assert panel.answer.isHidden() and panel.resume.isHidden()  # an answer would do nothing
    edit = panel.findChild(QPushButton, "interruptEditStateButton")
    assert edit.isVisible()
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)
    dialog = window.runner.history.fork_dialog
    qtbot.waitUntil(dialog.isVisible)
    assert json.loads(dialog.editor.toPlainText()) == {"x": 1}  # the tip's state
    dialog.editor.setPlainText('{"x": 7}')
    qtbot.mouseClick(
        dialog.findChild(QPushButton, "checkpointStateFork"), Qt.MouseButton.LeftButton
    )
    idle(qtbot, window)
    qtbot.waitUntil(lambda: window.runner.state == "finished")
    assert window.runner.view.values == {"x": 107} and panel.isHidden()
