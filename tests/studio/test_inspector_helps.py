"""The agent inspector works with the user (issue 27.6): selecting a node brings the Inspector
forward and gives a tall form room, an edit keeps the form where it was scrolled to, a new
scripted tool call calls the agent's tools by their current names, and the Problems panel adds
a missing `messages` key with one click."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QPushButton, QTabBar, QTableWidget, QWidget

from tests.studio.conftest import settle
from tests.studio.helpers import center, click
from tests.studio.test_agent_inspector import find, press, type_line
from tests.studio.test_canvas_gestures import drop_from_palette

pytestmark = pytest.mark.gui


def agent_selected(win) -> None:
    win.new_graph()
    drop_from_palette(win, "node:agent", win.view.mapToScene(QPoint(300, 200)))
    click(win.view, center(win.scene.nodes["agent"]))


def test_selecting_a_node_brings_the_inspector_forward_with_room(window, qtbot):
    win = window
    win.resize(1600, 1000)
    win.new_graph()
    drop_from_palette(win, "node:agent", win.view.mapToScene(QPoint(300, 200)))

    def inspector_tabs() -> QTabBar | None:
        return next((bar for bar in win.findChildren(QTabBar) if bar.isVisible()
                     and "Inspector" in [bar.tabText(i) for i in range(bar.count())]), None)  # fmt: skip

    qtbot.waitUntil(lambda: inspector_tabs() is not None)  # the workspace lays the docks out
    tabs = inspector_tabs()
    other = next(i for i in range(tabs.count()) if tabs.tabText(i) != "Inspector")
    qtbot.mouseClick(tabs, Qt.MouseButton.LeftButton, pos=tabs.tabRect(other).center())
    qtbot.waitUntil(
        lambda: win.inspector.visibleRegion().isEmpty()
    )  # the user was reading another panel of the inspector's group (in any workspace)
    before = win.dock_named("inspectorDock").height()
    state = win.dock_named("stateDock")
    state_before = state.height()
    click(win.view, center(win.scene.nodes["agent"]))
    qtbot.waitUntil(lambda: not win.inspector.visibleRegion().isEmpty())
    assert tabs.tabText(tabs.currentIndex()) == "Inspector"
    assert win.inspector.widget().findChild(QWidget, "toolsEditor") is not None
    # the agent's form is taller than the dock was: the inspector took the column's room
    qtbot.waitUntil(lambda: win.dock_named("inspectorDock").height() > before + 30)
    assert state_before - 30 > state.height() >= state.minimumSizeHint().height()


def test_an_edit_keeps_the_form_where_it_was_scrolled(window, qtbot):
    win = window
    win.resize(1280, 720)
    agent_selected(win)
    press(qtbot, win, "toolAdd")
    bar = win.inspector.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 200)
    tools = find(qtbot, win, QWidget, "toolsEditor")
    win.inspector.ensureWidgetVisible(tools, 0, 0)  # the user scrolled down to the tools
    scrolled = bar.value()
    assert scrolled > 100
    type_line(qtbot, win, "toolDescription", "Says it back.")
    assert win.document.spec.agents[0].tools[0].description == "Says it back."
    qtbot.waitUntil(lambda: find(qtbot, win, QWidget, "toolsEditor") is not tools)  # rebuilt
    assert abs(win.inspector.verticalScrollBar().value() - scrolled) <= 2


def test_a_new_tool_call_calls_the_agents_tools_by_their_names(window, qtbot):
    win = window
    agent_selected(win)
    press(qtbot, win, "toolAdd")
    type_line(qtbot, win, "toolName", "shout")
    press(qtbot, win, "toolAdd")
    type_line(qtbot, win, "toolName", "count")
    press(qtbot, win, "responseAdd")
    press(qtbot, win, "toolCallAdd")
    press(qtbot, win, "toolCallAdd")
    calls = win.document.spec.agents[0].model.responses[0].tool_calls
    assert [c.name for c in calls] == ["shout", "count"]
    table = find(qtbot, win, QTableWidget, "toolCallsTable")
    assert [table.item(r, 0).text() for r in range(table.rowCount())] == ["shout", "count"]


def test_the_problems_panel_adds_the_missing_messages_key_in_one_click(window, qtbot):
    win = window
    win.new_graph()
    drop_from_palette(win, "node:agent", win.view.mapToScene(QPoint(300, 200)))
    settle(qtbot, win)
    problems = win.problems
    row = next(i for i in range(problems.topLevelItemCount())
               if "'messages' is not a state key" in problems.topLevelItem(i).text(2))  # fmt: skip
    button = problems.itemWidget(problems.topLevelItem(row), 3)
    assert isinstance(button, QPushButton) and "'messages'" in button.toolTip()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    key = win.document.spec.state[0]
    assert (key.name, key.type, key.reducer) == ("messages", "messages", "add_messages")
    settle(qtbot, win)
    assert not any(f.code == "unknown-key" for f in win.validator.findings)
    win.actions_by_name["undo"].trigger()  # one undoable edit
    assert win.document.spec.state == []
