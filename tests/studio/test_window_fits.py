"""A 1280×720 projector: every bundled template, opened and run, leaves the window at that size
(the docks' minimum heights once added up past it), the canvas and the run docks still shown."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDockWidget, QPushButton

from graphspec.templates import TEMPLATES_DIR
from tests.studio.test_run_steps import click, idle, open_template

pytestmark = pytest.mark.gui

TEMPLATES = sorted(path.stem for path in TEMPLATES_DIR.glob("*.json"))
RUN_DOCKS = ("channelsDock", "historyDock", "traceDock", "eventsDock")
"""The docks a run raises; each tab group's front dock (Deep agent for an agent) has room."""


def projector(qtbot, window):
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == (1280, 720), timeout=3000)
    return window


def run_it(qtbot, win, name: str) -> None:
    """Run to the end (or the first interrupt), then step on where a step is still possible."""
    open_template(qtbot, win, name)
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    step = win.findChild(QPushButton, "stepButton")
    for _ in range(2):
        if step.isEnabled():
            click(qtbot, win, "stepButton")
            idle(qtbot, win)
    qtbot.wait(20)  # the docks the run raised are laid out


def assert_fits(win, name: str) -> None:
    assert (win.width(), win.height()) == (1280, 720), f"{name} grew the window"
    assert win.minimumSizeHint().height() <= 720, name
    canvas = win.view.viewport()
    assert canvas.isVisible() and canvas.width() > 400 and canvas.height() > 200, name
    for dock_name in RUN_DOCKS:
        dock = win.findChild(QDockWidget, dock_name)
        group = [dock, *win.tabifiedDockWidgets(dock)]
        front = [d for d in group if d.isVisible() and not d.visibleRegion().isEmpty()]
        assert len(front) == 1, (name, dock_name, [d.objectName() for d in front])
        panel = front[0].widget()
        assert panel.width() > 150 and panel.height() > 60, (name, dock_name, panel.size())


@pytest.mark.parametrize("name", TEMPLATES)
def test_each_template_run_keeps_the_window_at_1280x720(qtbot, window, name):
    win = projector(qtbot, window)
    run_it(qtbot, win, name)
    assert_fits(win, name)


def test_all_templates_in_one_window_never_grow_it(qtbot, window):
    """As in a class: one template after another, the window's size never creeps up."""
    win = projector(qtbot, window)
    for name in TEMPLATES:
        run_it(qtbot, win, name)
        assert_fits(win, name)


@pytest.mark.parametrize("name", ["react_agent", "approval"])
def test_grab_a_busy_template_after_a_run(qtbot, window, tmp_path, name):
    """fits-<name>.png in $SUPERSTEP_SCREENSHOT_DIR (else tmp_path), to look at."""
    win = projector(qtbot, window)
    run_it(qtbot, win, name)
    path = Path(os.environ.get("SUPERSTEP_SCREENSHOT_DIR") or tmp_path) / f"fits-{name}.png"
    image = win.grab().toImage()
    assert image.save(str(path))
    assert (image.width(), image.height()) == (1280, 720)
