"""Stop and closing the window end a run whose expression would loop for hours (issue 10.5)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from graphspec import expression_limits
from tests.graphspec.helpers import setter, write_spec
from tests.studio.conftest import settle
from tests.studio.test_run_steps import click

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
X = "[0] * 100000"
LOOP = f"[0 for a in {X} for b in {X} if a]"  # 10**10 iterations


def _spec(tmp_path: Path, node: str, text: str) -> Path:
    return write_spec(tmp_path, state=[{"name": "text"}], nodes=[setter(node, text=text)],
                      entry=[node], finish=[node])  # fmt: skip


def _run(qtbot, win, path: Path) -> None:
    assert win.open_path(path)
    settle(qtbot, win)
    click(qtbot, win, "runButton")
    qtbot.waitUntil(lambda: win.runner.session.running, timeout=5000)


def test_stop_ends_a_running_expression_and_the_error_shows_on_its_node(qtbot, window, tmp_path,
                                                                        monkeypatch):  # fmt: skip
    monkeypatch.setattr(expression_limits, "MAX_STEPS", 10**12)  # only Stop can end it
    _run(qtbot, window, _spec(tmp_path, "spin", LOOP))
    qtbot.wait(500)
    assert window.runner.session.busy, "the expression is still running"
    click(qtbot, window, "stopButton")
    start = time.monotonic()
    qtbot.waitUntil(lambda: not window.runner.session.busy, timeout=5000)
    assert time.monotonic() - start < 3
    assert window.runner.overlay.errors["spin"].startswith(
        "StoppedError: node 'spin', field 'values.text': stopped"
    )


def test_a_limit_hit_shows_on_its_node(qtbot, window, tmp_path):
    _run(qtbot, window, _spec(tmp_path, "summarise", "'x' * 12 * 10**9"))
    qtbot.waitUntil(lambda: not window.runner.session.busy, timeout=10000)
    error = window.runner.overlay.errors["summarise"]
    assert "LimitError: node 'summarise', field 'values.text'" in error


SCRIPT = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QPushButton
    import graphspec.expression_limits as limits
    import studio.main_window as main_window

    limits.MAX_STEPS = 10**12  # the loop would run for hours: only closing can end it
    show = main_window.MainWindow.show

    def close(win):
        print("running" if win.runner.session.running else "idle", flush=True)
        win.close()

    def show_and_schedule(win):
        show(win)
        QTimer.singleShot(1500, lambda: win.findChild(QPushButton, "runButton").click())
        QTimer.singleShot(3500, lambda: close(win))

    main_window.MainWindow.show = show_and_schedule
    from studio.cli import main
    sys.exit(main(["studio", sys.argv[1]]))
    """
)


def test_closing_the_window_during_a_run_ends_the_process(tmp_path):
    path = _spec(tmp_path, "spin", LOOP)
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "SUPERSTEP_STUDIO_HOME": str(tmp_path / "home"),
    }
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(path)], env=env, capture_output=True,
                            text=True, timeout=60, cwd=ROOT)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "running", result.stdout  # closed mid-run
    assert time.monotonic() - start < 15  # 3.5 s to the close, then a prompt exit
