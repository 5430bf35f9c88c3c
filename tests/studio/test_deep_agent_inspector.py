"""A deep agent set up in the inspector with mouse and keyboard: made deep, its files moved to a
folder, a tool put under review, a subagent added and described; each change one undo step, and
the graph still validates (docs/deep-agent-inspector.png: `SUPERSTEP_SCREENSHOT_DIR=docs python -m
pytest tests/studio/test_deep_agent_inspector.py`)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QDockWidget, QPushButton

from graphspec.templates import TEMPLATES_DIR
from tests.studio.conftest import settle
from tests.studio.helpers import center, click
from tests.studio.test_agent_inspector import find, pick, press, select_row, type_line
from tests.studio.test_run_screenshot import save_grab

pytestmark = pytest.mark.gui
pytest.importorskip("deepagents")


def _deep(win):
    return win.document.spec.agent("report_writer").deep


def test_deep_agent_settings_edited_in_the_inspector(qtbot, window, tmp_path):
    win = window
    assert win.open_path(TEMPLATES_DIR / "deep_agent.json", bundled=True)
    click(win.view, center(win.scene.nodes["writer"]))
    assert win.scene.selected_ids() == ["writer"]
    toggle = find(qtbot, win, QCheckBox, "deepAgentToggle")
    assert toggle.isChecked()

    pick(qtbot, win, "deepAgentBackend", "in a folder")
    qtbot.waitUntil(lambda: _deep(win).backend == "folder")
    type_line(qtbot, win, "deepAgentRoot", "workspace")
    qtbot.waitUntil(lambda: _deep(win).root == "workspace")
    type_line(qtbot, win, "deepAgentReview", "write_file, edit_file")
    qtbot.waitUntil(lambda: _deep(win).interrupt_on == {"write_file": True, "edit_file": True})

    press(qtbot, win, "subagentAdd")
    qtbot.waitUntil(lambda: len(_deep(win).subagents) == 2)
    type_line(qtbot, win, "subagentName", "editor")
    type_line(qtbot, win, "subagentDescription", "Polishes a draft.")
    qtbot.waitUntil(lambda: _deep(win).subagents[1].description == "Polishes a draft.")
    assert [s.name for s in _deep(win).subagents] == ["researcher", "editor"]
    select_row(qtbot, win, "subagentsList", 0)
    assert find(qtbot, win, QPushButton, "subagentRemove").isEnabled()
    settle(qtbot, win)
    assert not [f for f in win.validator.findings if f.severity == "error"]
    win.resize(1280, 720)
    inspector = win.findChild(QDockWidget, "inspectorDock")
    win.resizeDocks([inspector], [520], Qt.Orientation.Vertical)
    toggle = find(qtbot, win, QCheckBox, "deepAgentToggle")
    bar = win.inspector.verticalScrollBar()  # the deep agent section at the top of the view
    bar.setValue(toggle.mapTo(win.inspector.widget(), toggle.rect().topLeft()).y() - 8)
    image = save_grab(win, "deep-agent-inspector.png", tmp_path)
    assert (image.width(), image.height()) == (1280, 720)

    # each change is one undo step: back to the template's settings
    for _ in range(6):
        win.actions_by_name["undo"].trigger()
    assert _deep(win).backend == "state" and _deep(win).root is None
    assert [s.name for s in _deep(win).subagents] == ["researcher"]

    qtbot.mouseClick(find(qtbot, win, QCheckBox, "deepAgentToggle"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _deep(win) is None)
    win.actions_by_name["undo"].trigger()
    assert _deep(win) is not None
