"""The course in lecture mode at 1280×720: each lesson opened from the start page's course
section, played with Next phase, and its concept's visual checked at the phase it belongs to."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QPushButton

from graphspec.templates import TEMPLATES_DIR
from studio.lecture.course import COURSE
from tests.studio.test_run_steps import idle

pytestmark = pytest.mark.gui


def lecture(qtbot, win, stem: str):
    """Open the lesson as a user does (its card in the gallery), lecture mode on at 1280×720."""
    win.show_start()
    item = win.start_page.template_item(stem)
    assert item is not None, f"{stem} is listed on the start page"
    win.start_page.gallery.scrollToItem(item)
    rect = win.start_page.gallery.visualItemRect(item)
    qtbot.mouseClick(
        win.start_page.gallery.viewport(), Qt.MouseButton.LeftButton, pos=rect.center()
    )
    qtbot.waitUntil(lambda: win.pages.currentWidget() is win.view, timeout=3000)
    idle(qtbot, win)
    if not win.lecture.on:
        win.actions_by_name["lecture_mode"].trigger()
    win.resize(1280, 720)  # the projector (the editor's docks may have grown the window)
    minimum = win.minimumSizeHint()
    assert minimum.width() <= 1280 and minimum.height() <= 720, "lecture mode fits 1280×720"
    return win.lecture.player


def next_phase(qtbot, win, kind: str, step: int) -> None:
    """Click Next phase until the phase `kind` of superstep `step` is on screen."""
    player = win.lecture.player
    button = win.findChild(QPushButton, "lectureNextButton")
    for _ in range(40):
        phase = player.phase
        if phase is not None and phase.kind == kind and phase.step == step:
            return
        before = player.index
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(
            lambda b=before: player.index != b or not win.runner.session.busy, timeout=5000
        )
        idle(qtbot, win)
    raise AssertionError(
        f"never reached step {step} {kind}; at {player.phase and player.phase.title}"
    )


def marks(win, prefix: str, compiled: bool = False) -> list[str]:
    """The texts of the lecture cards named `prefix` on the shown view (unwrapped)."""
    player = win.lecture.player
    stage = player.compiled_stage if compiled else player.canvas_stage
    return [i.data(1) for i in stage.items
            if str(i.data(0) or "").startswith(prefix) and str(i.data(0)).endswith(":text")]  # fmt: skip


def has(win, name: str, compiled: bool = False) -> bool:
    stage = win.lecture.player.compiled_stage if compiled else win.lecture.player.canvas_stage
    return any(i.data(0) == name for i in stage.items)


def shot(win, name: str) -> None:
    folder = os.environ.get("SUPERSTEP_SCREENSHOT_DIR")
    if folder:
        win.lecture.player.canvas_stage.settle()
        win.lecture.player.compiled_stage.settle()
        assert win.grab().save(str(Path(folder) / name))


def check(qtbot, win, concept: str) -> None:
    if concept == "channel-types":
        win.actions_by_name["compiled_view"].setChecked(True)
        next_phase(qtbot, win, "plan", 1)
        kinds = {i.data(0): i.text() for i in win.compiled_view.compiled.items()
                 if str(i.data(0)).startswith("compiled:kind:")}  # fmt: skip
        assert kinds["compiled:kind:topic"] == "LastValue"
        assert kinds["compiled:kind:notes"] == "reducer: add"
        shot(win, "lecture-compiled-plan.png")
        next_phase(qtbot, win, "barrier", 1)
        assert has(win, "lecture:tick:notes", compiled=True)
        kinds = {i.data(0): i.text() for i in win.lecture.player.canvas_stage.items
                 if str(i.data(0)).startswith("lecture:kind:")}  # fmt: skip
        assert kinds["lecture:kind:notes"] == "reducer: add", "the drawn canvas's mailboxes too"
        assert kinds["lecture:kind:topic"] == "LastValue"
        shot(win, "lecture-compiled-barrier.png")
        win.actions_by_name["compiled_view"].setChecked(False)
    elif concept == "channel-versions":
        next_phase(qtbot, win, "barrier", 2)
        assert any(t.startswith("v3 → v4") for t in marks(win, "lecture:tick:count"))
        assert win.compiled_view.compiled.named("compiled:version:count")[0].text() == "v4"
    elif concept == "versions-seen":
        next_phase(qtbot, win, "plan", 2)
        woke = marks(win, "lecture:woke:step")
        assert woke and "branch:to:step now v" in woke[0] and ", it saw v" in woke[0], woke
        shot(win, "lecture-plan.png")
    elif concept == "branch-channels":
        next_phase(qtbot, win, "execute", 1)
        assert marks(win, "lecture:branch:check:big") == ["✉ check: write branch:to:big"]
        next_phase(qtbot, win, "barrier", 1)
        assert has(win, "lecture:tick:branch:to:big")
        next_phase(qtbot, win, "plan", 2)
        assert has(win, "lecture:plan:big")
    elif concept == "write-barrier":
        next_phase(qtbot, win, "execute", 1)
        assert has(win, "lecture:pending-note")
        assert marks(win, "lecture:packet:left:shared") == ['✉ left: shared = "written by left"']
        assert marks(win, "lecture:packet:right:seen_by_right") == [
            '✉ right: seen_by_right = "old value"'
        ], "right read the snapshot, not left's pending write"
        shot(win, "lecture-execute.png")
        next_phase(qtbot, win, "barrier", 1)
        assert any("written by left" in t for t in marks(win, "lecture:tick:shared"))
    elif concept == "reducer-merge":
        next_phase(qtbot, win, "barrier", 1)
        merged = marks(win, "lecture:merge:items")
        assert merged and merged[0].startswith("reducer merges 3 writes"), merged
        shot(win, "lecture-barrier.png")
    elif concept == "lastvalue-conflict":
        next_phase(qtbot, win, "execute", 1)
        assert len(marks(win, "lecture:packet:vote:winner")) == 2
        next_phase(qtbot, win, "barrier", 1)
        conflict = marks(win, "lecture:conflict:winner")
        assert conflict and conflict[0].startswith("✖ InvalidUpdateError"), conflict
        assert "At key 'winner'" in conflict[0]
        assert win.runner.state == "failed"
        shot(win, "lecture-conflict.png")
    elif concept == "send-packets":
        next_phase(qtbot, win, "execute", 0)
        assert len(marks(win, "lecture:sendpacket:__start__:__pregel_tasks")) == 2
        next_phase(qtbot, win, "plan", 1)
        sends = marks(win, "lecture:send:forecast")
        assert sends and "Oslo" in sends[0] and "Lima" in sends[0], sends
        shot(win, "lecture-send.png")
    elif concept == "command-goto":
        next_phase(qtbot, win, "execute", 1)
        assert marks(win, "lecture:goto:triage:billing") == ["✉ triage: Command goto billing"]
    elif concept == "interrupt-resume":
        next_phase(qtbot, win, "execute", 2)
        bubbled = marks(win, "lecture:interrupt:ask")
        assert bubbled and "bubbles up" in bubbled[0]
        qtbot.waitUntil(lambda: win.runner.state == "interrupted", timeout=5000)
        shot(win, "lecture-interrupt.png")
        answer = win.findChild(QLineEdit, "interruptAnswer")  # answered as a teacher does
        answer.clear()
        qtbot.keyClicks(answer, "true")
        qtbot.mouseClick(win.findChild(QPushButton, "resumeButton"), Qt.MouseButton.LeftButton)
        idle(qtbot, win)
        next_phase(qtbot, win, "plan", 2)
        assert marks(win, "lecture:resumed:ask") == ["resumed: runs again from its start"]
    elif concept == "checkpoints":
        next_phase(qtbot, win, "barrier", 1)
        assert has(win, "lecture:checkpoint:1")
        saved = marks(win, "lecture:checkpoint:0")
        assert saved and "pending writes: fetch" in saved[0], saved
    elif concept == "subgraph-namespaces":
        next_phase(qtbot, win, "execute", 2)
        spaces = marks(win, "lecture:namespace:shout")
        assert spaces and "namespace shout:" in spaces[0], spaces
    else:
        raise AssertionError(f"no check for {concept}")


def test_each_lesson_shows_its_concept_at_its_phase_in_lecture_mode(qtbot, window):
    win = window
    win.resize(1280, 720)
    assert [lesson.stem for lesson in COURSE] == sorted(
        p.stem for p in TEMPLATES_DIR.glob("lesson_*.json")
    )
    for lesson in COURSE:
        lecture(qtbot, win, lesson.stem)
        assert win.findChild(QLabel, "lectureLessonTitle").text() == lesson.title
        assert win.findChild(QLabel, "lecturePhaseText").font().pointSizeF() >= 15
        check(qtbot, win, lesson.concept)
        qtbot.waitUntil(lambda: (win.width(), win.height()) == (1280, 720), timeout=3000)
        assert all(not d.isVisible() for d in win.docks), (
            "lecture mode shows the canvas and its panel"
        )
    win.actions_by_name["lecture_mode"].trigger()  # off: the editor's docks come back
    assert not win.lecture.dock.isVisible()
    assert win.dock("inspectorDock").isVisible()
