"""An agent drawn in the studio exports (issue 27.3): a new tool's default code binds a name the
exported module can take, and code binding one it cannot (a builtin, a module name) is a
problem shown at the tool before export, by the exporter's own rule."""

from __future__ import annotations

import ast

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QLabel

from tests.studio.conftest import settle
from tests.studio.helpers import center, click
from tests.studio.test_agent_inspector import find, press, type_code
from tests.studio.test_canvas_gestures import drop_from_palette

pytestmark = pytest.mark.gui


def unexportable(win) -> list[tuple[str, str | None, str]]:
    return [(f.severity, f.element_id, f.path)
            for f in win.validator.findings if f.code == "unexportable-name"]  # fmt: skip


def test_a_new_tool_exports_and_a_builtin_name_is_a_problem_at_the_tool(window, qtbot, tmp_path):
    win = window
    win.new_graph()
    drop_from_palette(win, "node:agent", win.view.mapToScene(QPoint(400, 250)))
    click(win.view, center(win.scene.nodes["agent"]))
    press(qtbot, win, "toolAdd")
    settle(qtbot, win)
    assert unexportable(win) == []
    assert not win.inspector.widget().findChild(QLabel, "elementProblem").isVisibleTo(win.inspector)
    out = tmp_path / "agent.py"
    assert win.export("langgraph", out), win.statusBar().currentMessage()
    ast.parse(out.read_text(encoding="utf-8"))

    # code that binds `print`: shown at the tool (its agent's card) before export is tried
    type_code(qtbot, win, "toolCode", ["def print(text: str) -> str:", "return text"])
    settle(qtbot, win)
    assert unexportable(win) == [("warning", "agent", "$.agents[0].tools[0].code")]
    card = win.scene.nodes["agent"]
    assert card.mark is not None and "code binds 'print'" in card.mark_text
    at_tool = find(qtbot, win, QLabel, "elementProblem")  # under the tool's own fields
    assert at_tool.property("findingPath") == "$.agents[0].tools[0]"
    assert "code binds 'print'" in at_tool.text()
    problems = win.problems
    texts = [problems.topLevelItem(i).text(2) for i in range(problems.topLevelItemCount())]
    assert any("code binds 'print'" in t for t in texts)
    assert not win.export("langgraph", out)
    assert "code binds 'print'" in win.statusBar().currentMessage()
