"""The run view after a superstep, grabbed to PNG (docs/run-step.png:
`SUPERSTEP_SCREENSHOT_DIR=docs python -m pytest tests/studio/test_run_screenshot.py`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from tests.studio.test_run_steps import click, idle, open_template

pytestmark = pytest.mark.gui


def test_grab_after_a_step(qtbot, window, tmp_path):
    win = window
    win.resize(1440, 900)
    runner = open_template(qtbot, win, "fanout_join")
    win.editor.auto_layout()  # the template's own positions let the three searches overlap
    win.view.fit()
    for _ in range(2):  # step 0 writes the input; step 1 runs the three searches at once
        click(qtbot, win, "stepButton")
        idle(qtbot, win)
    assert runner.overlay.running == {"search_web", "search_docs", "search_code"}
    assert (
        "→" in runner.channels.row_text("results")[2]
        and "web: pregel" in runner.channels.row_text("results")[2]
    )
    runner.history.select(runner.history.entries[0].checkpoint_id)
    idle(qtbot, win)
    win.view.minimap.refresh()
    qtbot.waitUntil(lambda: not win.validator.busy, timeout=5000)
    image = save_grab(win, "run-step.png", tmp_path)
    assert image.width() >= 1200 and image.height() >= 800


def save_grab(win, name: str, tmp_path: Path) -> QImage:
    """Grab the window to `name` in $SUPERSTEP_SCREENSHOT_DIR (docs/ to regenerate), else tmp_path."""
    path = Path(os.environ.get("SUPERSTEP_SCREENSHOT_DIR") or tmp_path) / name
    assert win.grab().save(str(path))
    return QImage(str(path))
