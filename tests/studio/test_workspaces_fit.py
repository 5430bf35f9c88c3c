"""Workspaces (View → Workspace: Design, Debug, Teach) at 1280×720, 1600×1000 and 1920×1080:
after a run, whichever run dock is brought to the front, every button of it (Checkpoints' Replay
and Fork, the Server dock's New thread and Refresh, ...) and the state editor are on screen
without scrolling: inside the window, inside their scroll area's viewport, nothing clipped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QComboBox,
    QDockWidget,
    QPushButton,
    QToolBar,
    QToolButton,
    QWidget,
)

from studio.dock_scroll import DockScroll
from tests.studio.test_run_steps import click, idle, open_template

pytestmark = pytest.mark.gui

SIZES = [(1280, 720), (1600, 1000), (1920, 1080)]
WORKSPACES = ["design", "debug", "teach"]
RUN_DOCKS = ("runInputDock", "threadsDock", "channelsDock", "historyDock", "traceDock",
             "diffDock", "eventsDock", "deepAgentDock", "chatDock", "testsDock", "remoteDock")  # fmt: skip
MUST_SEE = {"replayButton", "forkButton", "remoteNewThreadButton", "remoteRefreshButton",
            "remoteRunButton", "remoteForkButton", "remoteReplayButton", "remoteStop",
            "remoteResumeButton", "remoteConnectButton", "renameThreadButton",
            "deleteThreadButton", "clearEventsButton", "runTests", "saveTest", "chatSendButton",
            "chatStopButton", "historyStateEditor", "checkpointTree", "remoteThreads",
            "remoteHistory", "runInputEditor"}  # fmt: skip
TOOLBAR = {"runButton", "stepButton", "continueButton", "stopButton", "newThreadButton",
           "threadSelector", "compiledViewButton", "breakpointsButton"}  # fmt: skip


def sized(qtbot, win, size: tuple[int, int]):
    win.resize(*size)
    qtbot.waitUntil(lambda: (win.width(), win.height()) == size, timeout=3000)
    return win


def choose(qtbot, win, name: str) -> None:
    """View → Workspace → name, as the menu does it."""
    action = win.findChild(QAction, f"action_workspace_{name}")
    assert action is not None and action in win.findChild(QWidget, "workspaceMenu").actions()
    action.trigger()
    qtbot.wait(30)
    assert win.workspaces.current.name == name and action.isChecked()
    assert win.findChild(QComboBox, "workspaceChooser").currentData() == name


def run_approval(qtbot, win) -> None:
    """Open and run the approval template (it stops at an interrupt: the answer bar takes
    height above the canvas too), and open the Server dock."""
    open_template(qtbot, win, "approval")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    win.findChild(QAction, "connectServerAction").trigger()
    qtbot.wait(60)


def on_screen(win, widget: QWidget, where: str) -> None:
    """Shown whole: inside the window, every scroll area around it unscrolled and holding it."""
    assert widget.isVisible(), where
    rect = QRect(widget.mapTo(win, QPoint(0, 0)), widget.size())
    assert win.rect().contains(rect), (where, rect)
    assert widget.visibleRegion().boundingRect() == widget.rect(), (where, "clipped")
    parent = widget.parentWidget()
    while parent is not None and parent is not win:
        if isinstance(parent, QAbstractScrollArea):
            port = parent.viewport()
            assert QRect(port.mapTo(win, QPoint(0, 0)), port.size()).contains(rect), where
            if isinstance(parent, DockScroll):  # the dock's panel is not scrolled at all
                assert parent.verticalScrollBar().maximum() == 0, (where, "the panel scrolls")
        parent = parent.parentWidget()


def panel_parts(dock: QDockWidget) -> list[QWidget]:
    """The dock panel's own buttons and named views, not what a list or a transcript holds."""
    found = []
    for widget in dock.findChildren(QWidget):
        if not widget.isVisibleTo(dock):
            continue
        if isinstance(widget, (QPushButton, QToolButton)):
            area = widget.parentWidget()
            while area is not None and not isinstance(area, QAbstractScrollArea):
                area = area.parentWidget()
            if area is None or isinstance(area, DockScroll):
                found.append(widget)
        elif widget.objectName() in MUST_SEE:
            found.append(widget)
    return found


def assert_everything_shows(qtbot, win, label: str) -> set[str]:
    seen: set[str] = set()
    for name in RUN_DOCKS:
        dock = win.findChild(QDockWidget, name)
        dock.show()
        dock.raise_()  # its tab clicked
        qtbot.wait(20)
        assert not dock.visibleRegion().isEmpty(), (label, name)
        for widget in panel_parts(dock):
            on_screen(win, widget, f"{label} {name} {widget.objectName() or widget.text()}")
            seen.add(widget.objectName())
    bar = win.runner.toolbar
    for action in bar.actions():
        widget = bar.widgetForAction(action)
        if action.isVisible() and widget is not None and widget.objectName() in TOOLBAR:
            on_screen(win, widget, f"{label} toolbar {widget.objectName()}")
            seen.add(widget.objectName())
    assert MUST_SEE | TOOLBAR <= seen, (label, sorted((MUST_SEE | TOOLBAR) - seen))
    canvas = win.view.viewport()
    assert canvas.isVisible() and canvas.width() > 400 and canvas.height() > 150, label
    return seen


README_SHOTS = {"debug-1280x720", "design-1600x1000", "teach-1920x1080"}
"""The grabs README shows; with SUPERSTEP_SCREENSHOT_DIR=docs they go there, the rest to tmp_path."""


def grab(win, label: str, tmp_path: Path) -> Path:
    """workspace-<label>.png, to look at."""
    folder = os.environ.get("SUPERSTEP_SCREENSHOT_DIR") if label in README_SHOTS else None
    path = Path(folder or tmp_path) / f"workspace-{label}.png"
    image = win.grab().toImage()
    assert image.save(str(path))
    assert (image.width(), image.height()) == (win.width(), win.height())
    return path


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", WORKSPACES)
def test_every_run_dock_button_shows_in_each_workspace_and_size(qtbot, window, tmp_path, name,
                                                                size):  # fmt: skip
    win = sized(qtbot, window, size)
    open_template(qtbot, win, "approval")
    choose(qtbot, win, name)
    run_approval(qtbot, win)
    assert (win.width(), win.height()) == size, "the workspace grew the window"
    for raised in ("historyDock", "traceDock", "channelsDock"):  # the run's docks, none hidden
        assert not win.findChild(QDockWidget, raised).visibleRegion().isEmpty(), (name, raised)
    label = f"{name}-{size[0]}x{size[1]}"
    assert_everything_shows(qtbot, win, label)
    for dock_name in (*win.workspaces.current.front, "historyDock", "remoteDock"):
        win.findChild(QDockWidget, dock_name).raise_()  # the workspace's, then the issue's
    qtbot.wait(20)
    grab(win, label, tmp_path)


def test_default_layout_at_1600x1000_shows_time_travel_and_server_buttons(qtbot, window):
    """Issue 27.4 as found: the studio as it first opens, maximized at 1600×1000, a run."""
    win = sized(qtbot, window, (1600, 1000))
    run_approval(qtbot, win)
    assert_everything_shows(qtbot, win, "default-1600x1000")
    assert win.workspaces.current.name == "design"


def test_a_smaller_window_refits_the_workspace(qtbot, window):
    """Debug chosen at 1920×1080, then the window un-maximized to 1280×720: the docks that
    would now scroll get the workspace's sizes again."""
    win = sized(qtbot, window, (1920, 1080))
    open_template(qtbot, win, "approval")
    choose(qtbot, win, "debug")
    run_approval(qtbot, win)
    sized(qtbot, win, (1280, 720))
    qtbot.wait(300)  # the refit waits for the resizes to settle
    assert not win.workspaces.cramped()
    assert_everything_shows(qtbot, win, "debug-refit-1280x720")
    bar = win.runner.toolbar
    assert win.toolBarBreak(bar), "both toolbars do not fit one row at 1280"
    sized(qtbot, win, (1920, 1080))
    qtbot.wait(50)
    assert not win.toolBarBreak(bar), "at 1920 they share a row again"


def test_workspace_chooser_and_the_next_start(qtbot, window, home):
    """The toolbar's chooser picks a workspace; it is the one the studio opens in next time."""
    from studio.main_window import MainWindow

    win = sized(qtbot, window, (1600, 1000))
    open_template(qtbot, win, "router")
    chooser = win.findChild(QComboBox, "workspaceChooser")
    assert chooser.parentWidget() is win.findChild(QToolBar, "mainToolbar")
    assert [chooser.itemText(i) for i in range(chooser.count())] == ["Design", "Debug", "Teach"]
    chooser.setCurrentIndex(chooser.findData("teach"))
    chooser.activated.emit(chooser.currentIndex())
    qtbot.wait(30)
    assert win.workspaces.current.name == "teach"
    palette = win.findChild(QDockWidget, "paletteDock")
    assert not palette.isVisible(), "Teach closes the palette: the canvas is larger"
    assert not win.findChild(QDockWidget, "traceDock").visibleRegion().isEmpty()
    win.save_layout()
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.workspaces.current.name == "teach"
    assert again.findChild(QAction, "action_workspace_teach").isChecked()


def test_a_deep_agent_run_raising_its_dock_leaves_the_checkpoints_whole(qtbot, window):
    """The Deep agent dock, raised by a run whose files moved, takes no height the Checkpoints'
    buttons need (it once asked for 430 px of the right column)."""
    win = sized(qtbot, window, (1280, 720))
    open_template(qtbot, win, "deep_agent")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    qtbot.wait(50)
    assert not win.findChild(QDockWidget, "deepAgentDock").visibleRegion().isEmpty()
    assert not win.workspaces.cramped()
    for name in ("replayButton", "forkButton", "historyStateEditor"):
        on_screen(win, win.findChild(QWidget, name), f"deep agent run: {name}")
