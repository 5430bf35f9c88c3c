"""The Checkpoints dock's line about its thread ("Thread main: 4 checkpoint(s); ★ marks the tip")
is read whole at 1280×720 in every workspace: beside the Replay and Fork buttons, in a
400-pixel dock, it was cut after "Thread main: 4 check". It has the row of its own that the
editor's caption had (the caption moved beside the buttons), so the column is no taller."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from tests.studio.test_run_steps import click, idle, open_template
from tests.studio.test_workspaces_fit import WORKSPACES, choose, sized

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("name", WORKSPACES)
def test_the_thread_line_is_whole_at_1280x720(qtbot, window, name):
    sized(qtbot, window, (1280, 720))
    open_template(qtbot, window, "fanout_join")
    choose(qtbot, window, name)
    click(qtbot, window, "runButton")
    idle(qtbot, window)
    window.dock_named("historyDock").raise_()
    qtbot.wait(30)
    status = window.findChild(QLabel, "historyStatus")
    assert status.text() == "Thread main: 4 checkpoint(s); ★ marks the tip"
    assert status.isVisible() and not status.visibleRegion().isEmpty()
    needed = status.fontMetrics().horizontalAdvance(status.text())
    assert status.contentsRect().width() >= needed, (status.width(), needed)
