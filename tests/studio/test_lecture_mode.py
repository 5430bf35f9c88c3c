"""Lecture mode itself: the toggle and what it changes, the player's controls, the exports."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QComboBox, QDockWidget, QFileDialog, QPushButton, QSlider, QToolBar

from tests.studio.test_lecture_course import next_phase
from tests.studio.test_run_steps import idle, open_template

pytestmark = pytest.mark.gui


def click(qtbot, win, name: str) -> None:
    button = win.findChild(QPushButton, name)
    assert button is not None and button.isEnabled(), name
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_lecture_mode_enlarges_the_panels_and_keeps_the_projector_size(qtbot, window):
    win = window
    open_template(qtbot, win, "lesson_06_reducer")
    channels = win.runner.channels.table
    small = channels.font().pointSizeF()
    action = next(a for a in win.menus["&View"].actions() if a.objectName() == "lectureModeAction")
    action.trigger()
    win.resize(1280, 720)  # the projector (the editor's docks may have grown the window)
    qtbot.wait(50)
    assert win.lecture.on and win.findChild(QDockWidget, "lectureDock").isVisible()
    assert not win.findChild(QToolBar, "mainToolbar").isVisible()
    assert not win.findChild(QComboBox, "threadSelector").isVisible(), "minimal chrome"
    assert all(not d.isVisible() for d in win.docks)
    channels.ensurePolished()
    assert channels.font().pointSizeF() >= 15 > small, "panels get large type too"
    click(qtbot, win, "lectureNextButton")  # starts the run: its docks stay hidden
    idle(qtbot, win)
    qtbot.waitUntil(lambda: (win.width(), win.height()) == (1280, 720), timeout=3000)
    assert all(not d.isVisible() for d in win.docks)
    assert win.lecture.player.phase.title == "Step 0 · Plan"

    action.trigger()  # off: as it was
    assert not win.lecture.on and not win.findChild(QDockWidget, "lectureDock").isVisible()
    assert win.findChild(QToolBar, "mainToolbar").isVisible()
    assert win.findChild(QComboBox, "threadSelector").isVisible()
    assert win.dock("inspectorDock").isVisible()
    assert win.styleSheet() == ""
    assert not win.lecture.player.canvas_stage.items, "the phase's marks go with the mode"


def test_play_walks_the_run_phase_by_phase_and_pause_stops_it(qtbot, window):
    win = window
    open_template(qtbot, win, "lesson_02_versions")
    win.actions_by_name["lecture_mode"].trigger()
    player = win.lecture.player
    speed = win.findChild(QSlider, "lectureSpeed")
    speed.setValue(40)
    assert win.lecture.panel.speed_label.text() == "Speed 4×"
    assert player.timer.interval() == 600
    click(qtbot, win, "lecturePlayButton")
    assert not win.findChild(QPushButton, "lecturePlayButton").isEnabled()
    qtbot.waitUntil(lambda: player.index >= 4, timeout=10000)
    click(qtbot, win, "lecturePauseButton")
    at = player.index
    qtbot.wait(900)
    assert player.index == at and not player.playing
    kinds = [p.kind for p in player.book.phases[:6]]
    assert kinds == ["plan", "execute", "barrier", "plan", "execute", "barrier"]
    click(qtbot, win, "lecturePlayButton")  # on to the end: the run finishes, play stops
    qtbot.waitUntil(lambda: not player.playing, timeout=20000)
    assert win.runner.state == "finished"
    assert player.phase.title == "Step 3 · Barrier", "the last superstep's barrier: nothing wakes"


def test_the_step_exports_as_png_and_svg_and_its_phases_as_a_sequence(
    qtbot, window, tmp_path, monkeypatch
):
    win = window
    open_template(qtbot, win, "lesson_06_reducer")
    win.actions_by_name["lecture_mode"].trigger()
    next_phase(qtbot, win, "execute", 1)
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "s.png"), "")
    )
    click(qtbot, win, "lectureExportStepButton")
    image = QImage(str(tmp_path / "s.png"))
    assert not image.isNull() and image.width() > 600
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "s.svg"), "")
    )
    click(qtbot, win, "lectureExportStepButton")
    assert "<svg" in (tmp_path / "s.svg").read_text(encoding="utf-8")

    win.actions_by_name["compiled_view"].setChecked(True)  # the compiled view's phases
    monkeypatch.setattr(
        QFileDialog, "getExistingDirectory", lambda *a, **k: str(tmp_path / "slides")
    )
    click(qtbot, win, "lectureExportPhasesButton")
    names = sorted(p.name for p in (tmp_path / "slides").iterdir())
    assert names == ["step1-1-plan.png", "step1-2-execute.png", "step1-3-barrier.png"]
    images = [QImage(str(tmp_path / "slides" / n)) for n in names]
    assert len({bytes(i.constBits()) for i in images}) == 3, "each phase draws differently"
    assert win.lecture.player.phase.title == "Step 1 · Execute", "the phase on screen comes back"


def test_page_down_and_up_walk_the_phases_and_the_new_checkpoint_drops_in(qtbot, window):
    win = window
    open_template(qtbot, win, "lesson_02_versions")
    win.actions_by_name["lecture_mode"].trigger()
    player = win.lecture.player
    for _ in range(3):  # a presenter's clicker: Page Down, to step 0's barrier
        qtbot.keyClick(win.view.viewport(), Qt.Key.Key_PageDown)
        idle(qtbot, win)
    qtbot.waitUntil(
        lambda: player.phase is not None and player.phase.kind == "barrier", timeout=5000
    )
    card = next(i for i in player.canvas_stage.items if i.data(0) == "lecture:checkpoint:0")
    assert card.opacity() < 1, "the checkpoint saved at this barrier is dropping in"
    qtbot.waitUntil(lambda: card.opacity() == 1.0, timeout=3000)
    qtbot.keyClick(win.view.viewport(), Qt.Key.Key_PageUp)
    assert player.phase.title == "Step 0 · Execute"


def test_another_thread_starts_its_own_story(qtbot, window):
    win = window
    open_template(qtbot, win, "lesson_03_why_fired")
    win.actions_by_name["lecture_mode"].trigger()
    player = win.lecture.player
    next_phase(qtbot, win, "plan", 2)
    assert find_seen(player) is not None
    win.runner.new_thread()
    next_phase(qtbot, win, "plan", 1)
    assert player.book.phases[0].step == 0, "the first thread's phases are gone"
    assert find_seen(player) is None, "on a new thread step has seen nothing yet"


def find_seen(player):
    ((_channel, _now, seen),) = player.phase.woke["step"]
    return seen


def test_lecture_mode_after_a_failed_run_explains_the_conflict(qtbot, window):
    """A run made before lecture mode is turned on: the panel says where it ended (the
    LastValue conflict), never "No superstep yet"; Next walks it from its start."""
    win = window
    open_template(qtbot, win, "lesson_07_conflict")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    assert win.runner.state == "failed"
    win.actions_by_name["lecture_mode"].trigger()
    panel = win.lecture.panel
    assert panel.phase_title.text() == "Ended at Step 1 · Barrier"
    assert "InvalidUpdateError" in panel.phase_text.text()
    assert "LastValue" in panel.phase_text.text()
    next_phase(qtbot, win, "barrier", 1)  # walked from the start, to the conflict
    assert win.lecture.player.canvas_stage.named("lecture:conflict:winner")
    assert "InvalidUpdateError" in panel.phase_text.text()


def test_next_phase_on_a_lesson_opened_again_tells_its_run_anew(qtbot, window):
    """Opened again, a lesson's thread still holds its last run (failed here): Next phase
    starts the story on a new thread instead of doing nothing."""
    win = window
    open_template(qtbot, win, "lesson_07_conflict")
    win.actions_by_name["lecture_mode"].trigger()
    next_phase(qtbot, win, "barrier", 1)
    open_template(qtbot, win, "lesson_07_conflict")
    assert win.runner.state == "failed" and win.lecture.player.phase is None
    next_phase(qtbot, win, "barrier", 1)
    assert win.lecture.player.canvas_stage.named("lecture:conflict:winner")
