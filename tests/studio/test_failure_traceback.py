"""A node of the developer's own program raises: the trace's failure panel shows the line of
their code that raised beside the message, in view on a 1280×720 projector, and its traceback
starts at their code, not in the studio's and the engine's frames that ran it."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit, QTreeView

from tests.studio.code_programs import open_program
from tests.studio.test_failure_panel import on_screen

pytestmark = pytest.mark.gui

PROGRAM = """\
import operator
from typing import Annotated, TypedDict

from langgraph.graph import START, StateGraph
from langgraph.types import Send


class State(TypedDict):
    items: list[str]
    results: Annotated[list[float], operator.add]


def ratio(item):
    return len(item) / (len(item) - 3)


def worker(state):
    return {"results": [ratio(state["item"])]}


def plan(state):
    return {}


def fan_out(state):
    return [Send("worker", {"item": item}) for item in state["items"]]


builder = StateGraph(State)
builder.add_node("plan", plan)
builder.add_node("worker", worker)
builder.add_edge(START, "plan")
builder.add_conditional_edges("plan", fan_out, ["worker"])
graph = builder.compile()
"""


def fail_a_worker(qtbot, window, tmp_path) -> None:
    """Open the program and Step until a worker (the one given "cat") raises."""
    program = tmp_path / "fanout.py"
    program.write_text(PROGRAM, encoding="utf-8")
    open_program(qtbot, window, program, "graph")
    runner = window.runner
    runner.new_thread()
    runner.input_panel.editor.setPlainText(json.dumps({"items": ["ab", "cat", "dogs"]}))
    for _ in range(5):
        qtbot.mouseClick(runner.step_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not runner.session.busy, timeout=20000)
        if runner.state == "failed":
            return
    raise AssertionError(f"the run did not fail: {runner.state}")


def test_the_line_that_raised_is_in_view_and_the_traceback_starts_in_user_code(
    qtbot, window, tmp_path
):
    window.resize(1280, 720)
    window.choose_workspace("debug")
    fail_a_worker(qtbot, window, tmp_path)
    view = window.findChild(QPlainTextEdit, "tracebackView")
    qtbot.waitUntil(view.isVisible)
    lines = view.toPlainText().splitlines()
    assert lines[0] == "worker: ZeroDivisionError: division by zero"
    assert lines[1] == "at fanout.py, line 14, in ratio: return len(item) / (len(item) - 3)"
    assert on_screen(view, 0) and on_screen(view, 1)
    frames = [line for line in lines if line.startswith('  File "')]
    assert "fanout.py" in frames[0] and frames[0].endswith("in worker")
    assert not any("/studio/" in f or "/engine/" in f for f in frames), frames
    assert "frames of the studio and engine above your code left out" in view.toPlainText()


def test_the_task_that_raised_shows_its_input_and_frames_open_in_the_trace(qtbot, window, tmp_path):
    """Three tasks of one node ran (a Send each): the failure's row in the trace says which one
    raised (the input it was given) and where in the program, open without a click."""
    fail_a_worker(qtbot, window, tmp_path)
    tree = window.findChild(QTreeView, "traceTree")
    model = tree.model()
    step = model.index(model.rowCount() - 1, 0)
    assert tree.isExpanded(step)
    rows = [model.index(r, 0, step) for r in range(model.rowCount(step))]
    raised = [i for i in rows if i.data() == "worker raised"]
    assert len(raised) == 1 and tree.isExpanded(raised[0])
    assert raised[0].siblingAtColumn(1).data() == "ZeroDivisionError: division by zero"
    under = [
        (model.index(r, 0, raised[0]).data(), model.index(r, 1, raised[0]).data())
        for r in range(model.rowCount(raised[0]))
    ]
    assert under == [
        ("input", '{"item": "cat"}'),
        ("fanout.py:18", 'in worker: return {"results": [ratio(state["item"])]}'),
        ("fanout.py:14", "in ratio: return len(item) / (len(item) - 3)"),
    ]
    assert "fanout.py" in raised[0].data(Qt.ItemDataRole.ToolTipRole)  # the whole traceback
