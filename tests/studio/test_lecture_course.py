"""The course in lecture mode at 1280×720: each lesson opened from the start page's course
section, played with Next phase, and its concept's visual checked at the phase it belongs to."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QLabel, QLineEdit, QPushButton, QScrollArea

from graphspec.templates import TEMPLATES_DIR
from studio.lecture.course import COURSE
from studio.lecture.readable import READABLE_PX, smallest_text
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
    return [i.data(1) for i in stage.items  # a card's label keeps its whole text in data(1)
            if str(i.data(0) or "").startswith(prefix) and i.data(1) is not None]  # fmt: skip


def has(win, name: str, compiled: bool = False) -> bool:
    stage = win.lecture.player.compiled_stage if compiled else win.lecture.player.canvas_stage
    return any(i.data(0) == name for i in stage.items)


def langgraph_conflict() -> str:
    """The error langgraph itself raises when two Send tasks write one LastValue key."""
    pytest.importorskip("langgraph")
    from typing import TypedDict

    from langgraph.errors import InvalidUpdateError
    from langgraph.graph import START, StateGraph
    from langgraph.types import Send

    class State(TypedDict, total=False):
        voters: list
        voter: str
        winner: str

    builder = StateGraph(State)
    builder.add_node("vote", lambda state: {"winner": state["voter"]})
    builder.add_conditional_edges(
        START, lambda state: [Send("vote", {"voter": v}) for v in state["voters"]]
    )
    with pytest.raises(InvalidUpdateError) as raised:
        builder.compile().invoke({"voters": ["alice", "bob"]})
    return f"InvalidUpdateError: {str(raised.value).splitlines()[0]}"


def on_screen(win, *names: str, compiled: bool = False) -> None:
    """Each named lecture item lies whole inside the view (nothing cut at its edge)."""
    view = win.compiled_view if compiled else win.view
    stage = win.lecture.player.compiled_stage if compiled else win.lecture.player.canvas_stage
    port = view.viewport().rect()
    for name in names:
        items = [i for i in stage.items if i.data(0) == name]
        assert items, f"{name} is drawn"
        for item in items:
            shown = view.mapFromScene(item.sceneBoundingRect()).boundingRect()
            assert port.contains(shown), f"{name} at {shown} is cut off by the view {port}"


def readable(win, lesson: str) -> None:
    """No graph text on the view shown is smaller than READABLE_PX on screen (each text's font
    pixel size times the view's scale, as painted)."""
    win.grab()  # paints: the cards note the fonts they drew
    view = win.compiled_view if win.compiled_view.isVisible() else win.view
    px, text = smallest_text(view)
    assert px >= READABLE_PX - 1e-6, f"{lesson}: {text!r} is drawn {px:.1f} px high"
    assert not getattr(view, "overview", None) or not view.overview.active()


def panel_fits(qtbot, win, lesson: str) -> None:
    """The lecture panel's text wraps inside it: no word wider than the panel (a whole task id,
    a link) pushes its right edge out of sight."""
    scroll = win.findChild(QScrollArea, "lectureScroll")
    body, port = scroll.widget(), scroll.viewport()
    try:  # (the body follows a scroll bar that came or went on the next layout pass)
        qtbot.waitUntil(lambda: body.width() <= port.width(), timeout=1000)
    except qtbot.TimeoutError:
        widest = max(body.findChildren(QLabel), key=lambda w: w.minimumSizeHint().width())
        raise AssertionError(f"{lesson}: the panel's text is cut: {widest.text()!r}") from None


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
        assert win.runner.state == "failed"
        collide = sorted(marks(win, "lecture:collide:vote:winner"))
        assert collide == ['✉ vote: winner = "alice"', '✉ vote: winner = "bob"'], collide
        conflict = marks(win, "lecture:conflict:winner")
        assert conflict and conflict[0].startswith("✖ 2 writes collide in winner"), conflict
        assert conflict[0].endswith(langgraph_conflict()), "langgraph's own words"
        assert win.findChild(QLabel, "lecturePhaseTitle").text() == "Step 1 · Barrier"
        said = win.findChild(QLabel, "lecturePhaseText").text()
        assert "LastValue" in said and "InvalidUpdateError" in said, said
        on_screen(win, "lecture:mailbox:winner", "lecture:conflict-frame:winner",
                  "lecture:collide:vote:winner", "lecture:conflict:winner")  # fmt: skip
        win.actions_by_name["compiled_view"].setChecked(True)  # the mailbox among the others
        qtbot.wait(50)
        on_screen(win, "lecture:conflict-frame:winner", "lecture:collide:vote:winner",
                  "lecture:conflict:winner", compiled=True)  # fmt: skip
        readable(win, "lesson_07_conflict on the compiled view")
        shot(win, "lecture-conflict.png")
        win.actions_by_name["compiled_view"].setChecked(False)
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
        steps = marks(win, "lecture:inner-step:shout:")
        assert steps == ["inner step 0: __start__", "inner step 1: upper", "inner step 2: exclaim"]
        (channel,) = marks(win, "lecture:inner-channel:shout:text")
        assert channel.startswith("✉ shout:") and "› text  v" in channel, channel
        assert '"HELLO!"' in channel, "the inner graph's channel, under its namespace"
        stage = win.lecture.player.canvas_stage
        (frame,) = [i for i in stage.items if i.data(0) == "lecture:subgraph-frame:shout"]
        for card in stage.named("lecture:inner-") + stage.named("lecture:namespace:shout"):
            assert frame.sceneBoundingRect().contains(card.sceneBoundingRect()), card.data(0)
        (callout,) = [i for i in stage.items if i.data(0) == "lecture:callout:shout"]
        node = win.scene.nodes["shout"].sceneBoundingRect()
        assert callout.sceneBoundingRect().intersects(node), "drawn out of shout's node"
        on_screen(win, "lecture:subgraph-frame:shout")
        shot(win, "lecture-namespace.png")
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
        readable(win, lesson.stem)
        panel_fits(qtbot, win, lesson.stem)
        docks = [d for d in win.findChildren(QDockWidget) if d is not win.lecture.dock]
        assert all(not d.isVisible() for d in docks), "lecture mode shows the canvas and its panel"
    win.actions_by_name["lecture_mode"].trigger()  # off: the editor's docks come back
    assert not win.lecture.dock.isVisible()
    assert win.dock("inspectorDock").isVisible()
