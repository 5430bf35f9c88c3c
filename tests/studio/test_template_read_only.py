"""A bundled template opened by its path (File → Open on templates/agent_hitl.json) is read-only
to the studio, as one opened from the gallery: its runs go to the studio's folder and Save never
writes into templates/ (issue 27.2; a stray file there once emptied the gallery)."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog

from graphspec.templates import TEMPLATES_DIR, list_templates
from tests.studio.test_run_steps import click, idle

pytestmark = pytest.mark.gui

CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def templates_untouched():
    """The templates folder's names before; anything a failing run leaves there is removed."""
    before = {p.name for p in TEMPLATES_DIR.iterdir()}
    yield before
    for path in TEMPLATES_DIR.iterdir():
        if path.name not in before:
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def test_a_template_opened_by_path_runs_and_saves_outside_templates(qtbot, window, home,
                                                                    templates_untouched,
                                                                    monkeypatch):  # fmt: skip
    win = window
    path = TEMPLATES_DIR / "agent_hitl.json"
    original = path.read_bytes()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    QTest.keyClick(win, Qt.Key.Key_O, CTRL)
    idle(qtbot, win)
    assert win.pages.currentWidget() is win.view and win.document.path is None  # a copy
    assert win.run_blocker() is None  # trusted as the gallery's
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    runner = win.runner
    assert runner.view is not None and runner.view.history, runner.status.text()
    assert runner.db_path().parent == home / "runs" and runner.db_path().exists()
    # Save: the dialog pointed back at the template is refused, the file stays as it was
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    win.editor.add_note(0, 0, "mine")
    QTest.keyClick(win.view, Qt.Key.Key_S, CTRL)
    assert "read-only" in win.statusBar().currentMessage() and win.unsaved()
    assert path.read_bytes() == original
    assert {p.name for p in TEMPLATES_DIR.iterdir()} == templates_untouched
    assert "agent_hitl" in [t.name for t in list_templates()]
