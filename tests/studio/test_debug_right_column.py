"""Debug at 1280×720: the right column's checkpoint tree had a small share, the top group being
sized for the Deep agent panel's full height (its file tree, to-dos and file view: 168 px) on
graphs with no deep agent. Until a deep agent runs, that panel is its caption alone; once one
does, its parts show and the column is fitted to them."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDockWidget, QTreeView, QWidget

from studio.workspaces import panel_min_height
from tests.studio.test_run_steps import click, idle, open_template
from tests.studio.test_threads_columns import ran_in_debug_at_1280x720
from tests.studio.test_workspaces_fit import choose, on_screen, sized

pytestmark = pytest.mark.gui


def test_a_graph_without_a_deep_agent_shows_every_checkpoint_row(qtbot, window):
    win = ran_in_debug_at_1280x720(qtbot, window, "react_agent")
    deep = win.findChild(QDockWidget, "deepAgentDock")
    channels = win.findChild(QDockWidget, "channelsDock")
    assert panel_min_height(deep) < panel_min_height(channels)
    tree = win.findChild(QTreeView, "checkpointTree")
    assert tree.model().rowCount() == 3  # input, loop, loop (the end)
    qtbot.waitUntil(lambda: tree.verticalScrollBar().maximum() == 0, timeout=2000)


def test_a_deep_agent_run_shows_its_files_and_fits_the_column(qtbot, window):
    win = sized(qtbot, window, (1280, 720))
    open_template(qtbot, win, "deep_agent")
    choose(qtbot, win, "debug")
    deep = win.findChild(QDockWidget, "deepAgentDock")
    small = panel_min_height(deep)
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    qtbot.wait(300)
    assert panel_min_height(deep) > small
    for name in ("deepFilesTree", "deepStepChooser"):
        assert deep.findChild(QWidget, name).isVisible(), name
    assert not win.workspaces.cramped()
    for name in ("replayButton", "forkButton", "historyStateEditor"):
        on_screen(win, win.findChild(QWidget, name), f"deep agent run: {name}")
