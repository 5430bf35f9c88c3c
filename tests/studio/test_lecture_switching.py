"""The lecture and compiled views survive switching lessons, documents and views in any order:
100 random switches (a fixed seed) with every Qt warning and Python error caught as a failure
(issue 28.3: "Internal C++ object already deleted" in compiled_scene.py)."""

from __future__ import annotations

import random
import sys

import pytest
from PySide6.QtCore import QtMsgType, qInstallMessageHandler

from graphspec.templates import TEMPLATES_DIR
from studio.lecture.course import COURSE
from tests.studio.test_run_steps import idle

pytestmark = pytest.mark.gui

PLATFORM_NOTICES = ("This plugin does not support",)
"""The offscreen platform says what it cannot do (propagateSizeHints...): not our errors."""
OTHER_DOCUMENTS = ("fanout_join", "hello_world", "subgraph", "counter_loop", "map_reduce")


@pytest.fixture
def errors(monkeypatch):
    """Every Qt warning and every exception a slot or a virtual method let out."""
    seen: list[str] = []

    def on_message(kind, _context, text) -> None:
        if kind not in (QtMsgType.QtDebugMsg, QtMsgType.QtInfoMsg) and not text.startswith(
            PLATFORM_NOTICES
        ):
            seen.append(f"Qt {kind.name}: {text}")

    def on_exception(kind, value, _tb) -> None:
        seen.append(f"{kind.__name__}: {value}")

    previous = qInstallMessageHandler(on_message)
    monkeypatch.setattr(sys, "excepthook", on_exception)
    yield seen
    qInstallMessageHandler(previous)


def _switches(win, qtbot):
    """What a teacher does between and during lessons, each a name and how."""

    def open_lesson(rng):
        assert win.open_path(TEMPLATES_DIR / f"{rng.choice(COURSE).stem}.json", bundled=True)

    def open_other(rng):
        name = rng.choice(OTHER_DOCUMENTS)
        assert win.open_path(TEMPLATES_DIR / f"{name}.json", bundled=True)

    def toggle(name):
        return lambda _rng: win.actions_by_name[name].toggle()

    def start_page(rng):
        win.show_start() if rng.random() < 0.5 else win.show_editor()

    def step(_rng):
        button = win.runner.step_button
        if button.isEnabled() and button.isVisible():
            button.click()

    def edit(rng):
        """An edit while a phase shows: a node deleted (the graph may no longer compile), undone."""
        stack = win.editor.stack
        nodes = list(win.document.spec.nodes)
        if stack.canUndo() and rng.random() < 0.5:
            stack.undo()
        elif nodes:
            win.editor.delete([rng.choice(nodes).id])

    def play(rng):
        player = win.lecture.player
        player.set_speed(40.0)
        player.play() if rng.random() < 0.7 else player.pause()

    return [
        ("lesson", open_lesson),
        ("edit", edit),
        ("play", play),
        ("document", open_other),
        ("new", lambda _rng: win.new_graph()),
        ("compiled view", toggle("compiled_view")),
        ("lecture mode", toggle("lecture_mode")),
        ("start page", start_page),
        ("next phase", lambda _rng: win.lecture.player.next_phase()),
        ("previous phase", lambda _rng: win.lecture.player.previous_phase()),
        ("step", step),
        ("run", lambda _rng: win.runner.run_button.isEnabled() and win.runner.run_button.click()),
    ]


def test_a_hundred_random_switches_log_no_error(qtbot, window, errors):
    win = window
    win.resize(1280, 720)
    rng = random.Random(28)
    switches = _switches(win, qtbot)
    done = []
    for _ in range(100):
        name, switch = rng.choice(switches)
        switch(rng)
        done.append(name)
        qtbot.wait(rng.choice((0, 5, 40)))  # sometimes before the run's report, sometimes after
        assert not errors, f"after {' → '.join(done[-8:])}: {errors}"
    idle(qtbot, win)
    for stage in (win.lecture.player.canvas_stage, win.lecture.player.compiled_stage):
        stage.settle()
    qtbot.wait(50)
    assert not errors, errors
    assert len(set(done)) == len(switches), "each kind of switch was made"
