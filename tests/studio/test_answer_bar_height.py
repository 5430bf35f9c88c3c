"""The answer bar of an interrupt at 1280×720 took ~150 px above the canvas: a four-line box for
a payload that fits one line (`{"prompt": ..., "payload": ...}`), and an empty error line. A
short payload shows on one line, a longer one in a box as tall as its lines, and the error line
only when there is an error."""

from __future__ import annotations

import json

import pytest

from tests.studio.test_run_steps import click, idle, open_template
from tests.studio.test_workspaces_fit import choose, sized

pytestmark = pytest.mark.gui


def test_a_short_payload_leaves_the_canvas_its_height(qtbot, window):
    win = sized(qtbot, window, (1280, 720))
    open_template(qtbot, win, "approval")
    choose(qtbot, win, "teach")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    bar = win.runner.interrupt_panel
    qtbot.waitUntil(bar.isVisible, timeout=3000)
    shown = bar.payload.toPlainText()
    assert json.loads(shown) == {"prompt": "Publish this draft?", "payload": "A post about owls"}
    assert "\n" not in shown and bar.payload.verticalScrollBar().maximum() == 0
    assert not bar.error.isVisible()
    assert bar.height() <= 100, bar.height()
    bar.answer.setText("not json")
    click(qtbot, win, "resumeButton")
    assert bar.error.isVisible() and "not JSON" in bar.error.text()


def test_a_long_payload_is_indented_in_a_box_as_tall_as_its_lines(qtbot, window):
    bar = window.runner.interrupt_panel
    value = {f"question_{i}": f"a longer answer is wanted here, number {i}" for i in range(3)}
    bar.show_interrupts([("review", value, "id-1")])
    shown = bar.payload.toPlainText()
    assert json.loads(shown) == value and shown.count("\n") == 4
    assert bar.payload.verticalScrollBar().maximum() == 0  # all five lines in view


def test_in_lecture_mode_a_payload_wrapped_by_the_large_type_shows_whole(qtbot, window):
    # the box was as tall as the text's lines, not as the lines it wraps to: lecture mode's
    # type wrapped the approval's one-line payload at 1280×720 and the box cut its second line
    win = sized(qtbot, window, (1280, 720))
    open_template(qtbot, win, "lesson_10_interrupt")
    choose(qtbot, win, "teach")
    win.actions_by_name["lecture_mode"].trigger()
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    bar = win.runner.interrupt_panel
    qtbot.waitUntil(bar.isVisible, timeout=3000)
    box = bar.payload
    qtbot.waitUntil(lambda: box.document().lineCount() > 1, timeout=3000)  # wrapped
    assert box.verticalScrollBar().maximum() == 0  # every line in view
    win.actions_by_name["lecture_mode"].trigger()  # back to the usual type: one line again
    qtbot.waitUntil(lambda: box.document().lineCount() == 1, timeout=3000)
    assert box.verticalScrollBar().maximum() == 0 and bar.height() <= 100
