"""With lecture mode off a run only keeps its reports for the player: no PhaseBook is built
(that cost 0.1-0.3 s of GUI time per run); turning lecture mode on reads them into one."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from studio.lecture import player as player_module
from tests.studio.test_run_steps import click, idle, open_template

pytestmark = pytest.mark.gui


@pytest.fixture
def built(monkeypatch) -> list[object]:
    """Each PhaseBook the player builds, in order (asked for before `window`, so counted from
    the window's start)."""
    books: list[object] = []

    class CountedBook(player_module.PhaseBook):
        def __init__(self) -> None:
            super().__init__()
            books.append(self)

    monkeypatch.setattr(player_module, "PhaseBook", CountedBook)
    return books


def test_a_run_with_lecture_mode_off_builds_no_phase_book(qtbot, built, window):
    win = window
    open_template(qtbot, win, "lesson_02_versions")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    assert win.runner.state == "finished"
    assert built == [], "lecture mode is off: the run's phases are not read"

    win.actions_by_name["lecture_mode"].trigger()  # on afterwards: that run's phases show
    player = win.lecture.player
    qtbot.mouseClick(win.findChild(QPushButton, "lectureNextButton"), Qt.MouseButton.LeftButton)
    assert len(built) == 1
    assert player.phase.title == "Step 0 · Plan"
    kinds = [p.kind for p in player.book.phases]
    assert kinds[:3] == ["plan", "execute", "barrier"] and len(kinds) == 12, kinds
    assert win.runner.state == "finished", "Next showed a kept phase; it did not step again"
    assert len(built) == 1, "read once"


def test_a_new_document_drops_the_unread_reports(qtbot, built, window):
    win = window
    open_template(qtbot, win, "lesson_02_versions")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    open_template(qtbot, win, "lesson_06_reducer")  # another graph: the old run is not its story
    win.actions_by_name["lecture_mode"].trigger()
    assert win.lecture.player.phase is None
    assert win.lecture.player.book.phases == []
