"""A run whose input does not fit the program's pydantic state fails with a ValidationError: the
trace's failure panel says every field error (field, what is wrong, the value given) and has
them in view, however short its dock; the status line stays one line."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QScrollArea

from tests.studio.code_programs import open_program

pytestmark = pytest.mark.gui

PROGRAM = """\
from pydantic import BaseModel

from langgraph.graph import END, START, StateGraph


class Order(BaseModel):
    name: str
    count: int
    price: float


def total(state: Order):
    return {"price": state.count * state.price}


builder = StateGraph(Order)
builder.add_node("total", total)
builder.add_edge(START, "total")
builder.add_edge("total", END)
graph = builder.compile()
"""

FIELD_ERRORS = [
    "Order.name: Input should be a valid string, got 5",
    "Order.count: Input should be a valid integer, unable to parse string as an integer, "
    "got 'many'",
    "Order.price: Field required, got {'name': 5, 'count': 'many'}",
]


def on_screen(view, line: int) -> bool:
    """Whether line `line` of the plain text view is drawn where the user sees it: inside the
    view's viewport and the viewport of the dock's scroll area around it."""
    cursor = QTextCursor(view.document().findBlockByNumber(line))
    cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
    port = view.viewport()
    spot = port.mapToGlobal(view.cursorRect(cursor).center())
    seen = QRect(port.mapToGlobal(port.rect().topLeft()), port.size())
    area = view.parentWidget()
    while area is not None and not isinstance(area, QScrollArea):
        area = area.parentWidget()
    if area is not None:
        dock = area.viewport()
        seen = seen.intersected(QRect(dock.mapToGlobal(dock.rect().topLeft()), dock.size()))
    return seen.contains(spot)


@pytest.mark.parametrize("height", [800, 640])
def test_every_field_error_of_a_run_input_is_shown_and_in_view(qtbot, window, tmp_path, height):
    window.resize(1200, height)
    program = tmp_path / "order.py"
    program.write_text(PROGRAM, encoding="utf-8")
    open_program(qtbot, window, program, "graph")
    runner = window.runner
    runner.new_thread()
    runner.input_panel.editor.setPlainText(json.dumps({"name": 5, "count": "many"}))
    for _ in range(3):
        runner.step()
        qtbot.waitUntil(lambda: not runner.session.busy, timeout=20000)
        if runner.state == "failed":
            break
    assert runner.state == "failed"

    view = runner.trace.error_view
    lines = view.toPlainText().splitlines()
    assert lines[:4] == ["ValidationError: 3 validation errors for Order",
                         *(f"  {error}" for error in FIELD_ERRORS)]  # fmt: skip
    assert "errors.pydantic.dev" not in "\n".join(lines[:4])
    qtbot.waitUntil(lambda: all(on_screen(view, line) for line in range(4)), timeout=3000)
    # the status line is one line (a taller one would squeeze the docks), all of it its tooltip
    assert runner.status.text() == "Run failed — ValidationError: 3 validation errors for Order"
    assert FIELD_ERRORS[2] in runner.status.toolTip()


NODE_RAISES = """\
from typing import TypedDict

from pydantic import BaseModel

from langgraph.graph import END, START, StateGraph


class Order(BaseModel):
    name: str
    count: int


class State(TypedDict):
    name: str


def check(state: State):
    Order(name=5, count="many")
    return {}


builder = StateGraph(State)
builder.add_node("check", check)
builder.add_edge(START, "check")
builder.add_edge("check", END)
graph = builder.compile()
"""


def test_a_node_raising_a_validation_error_names_it_and_says_each_field(qtbot, window, tmp_path):
    program = tmp_path / "check_order.py"
    program.write_text(NODE_RAISES, encoding="utf-8")
    open_program(qtbot, window, program, "graph")
    runner = window.runner
    runner.new_thread()
    runner.input_panel.editor.setPlainText(json.dumps({"name": "a"}))
    for _ in range(3):
        runner.step()
        qtbot.waitUntil(lambda: not runner.session.busy, timeout=20000)
        if runner.state == "failed":
            break
    lines = runner.trace.error_view.toPlainText().splitlines()
    assert lines[:3] == [
        "check: ValidationError: 2 validation errors for Order",
        "  Order.name: Input should be a valid string, got 5",
        "  Order.count: Input should be a valid integer, unable to parse string as an integer, "
        "got 'many'",
    ]
    # the card's label is the message's first line (the panel holds the rest)
    assert runner.overlay.errors == {"check": "ValidationError: 2 validation errors for Order"}
