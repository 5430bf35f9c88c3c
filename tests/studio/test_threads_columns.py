"""The Threads dock at 1280×720 (Debug's left column, ~220 px): a thread's name and when it was
created are both read whole; fixed column widths (120 + 130 px) cut the date at "2026-12-07 11"."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDockWidget, QTreeView

from tests.studio.test_run_steps import run_template
from tests.studio.test_workspaces_fit import choose, sized

pytestmark = pytest.mark.gui


def ran_in_debug_at_1280x720(qtbot, window, template: str):
    """The window at 1280×720 on Debug, after a run of the bundled `template`."""
    win = sized(qtbot, window, (1280, 720))
    run_template(qtbot, win, template)
    choose(qtbot, win, "debug")
    qtbot.wait(50)
    return win


def test_name_and_created_are_read_whole_in_debug_at_1280x720(qtbot, window):
    win = ran_in_debug_at_1280x720(qtbot, window, "react_agent")
    threads = win.findChild(QDockWidget, "threadsDock").findChild(QTreeView, "threadList")
    model = threads.model()
    assert model.rowCount() >= 1
    port = threads.viewport().width()
    metrics = threads.fontMetrics()
    for col in (0, 1):
        text = model.index(0, col).data()
        assert text and threads.columnWidth(col) >= metrics.horizontalAdvance(text), (col, text)
        right = threads.columnViewportPosition(col) + threads.columnWidth(col)
        assert right <= port, (col, text, right, port)
