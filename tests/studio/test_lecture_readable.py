"""Lecture mode at 1280×720 draws no graph text below READABLE_PX on screen: a tall graph is
not zoomed into the overview (where cards lose their text), and the presenter's zoom
(Ctrl + / Ctrl -) scales the canvas's text and the panel's type together."""

from __future__ import annotations

import json

import pytest
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest

from studio.lecture.readable import READABLE_PX, drawn_text, smallest_text
from tests.studio.test_lecture_course import next_phase
from tests.studio.test_run_steps import idle, open_template

pytestmark = pytest.mark.gui


def chain_spec(levels: int) -> dict:
    """START, `levels` set_state nodes one under the other, END."""
    names = [f"level_{i}" for i in range(1, levels + 1)]
    return {
        "version": 2,
        "name": "A tall graph",
        "state": [{"name": "depth", "type": "int"}],
        "nodes": [
            {
                "id": n,
                "kind": "set_state",
                "position": {"x": 0.0, "y": 110.0 * i},
                "values": {"depth": str(i)},
            }
            for i, n in enumerate(names, 1)
        ],  # fmt: skip
        "edges": [
            {"id": f"e{i}", "sources": [a], "target": b}
            for i, (a, b) in enumerate(zip(names, names[1:], strict=False))
        ],  # fmt: skip
        "entry": [names[0]],
        "finish": [names[-1]],
    }


def lecture_at_projector_size(qtbot, win) -> None:
    win.actions_by_name["lecture_mode"].trigger()
    win.resize(1280, 720)
    qtbot.waitUntil(lambda: (win.width(), win.height()) == (1280, 720), timeout=3000)
    qtbot.wait(50)  # the fit after the resize
    win.grab()  # painted: the cards note the fonts they drew


def test_a_tall_graph_is_fitted_with_its_cards_text_readable(qtbot, window, tmp_path):
    win = window
    path = tmp_path / "tall.json"
    path.write_text(json.dumps(chain_spec(8)))
    assert win.open_path(path), win.load_errors
    idle(qtbot, win)
    lecture_at_projector_size(qtbot, win)
    view = win.view
    assert not view.overview.active(), "cards keep their text: no overview in lecture mode"
    px, text = smallest_text(view)
    assert px >= READABLE_PX - 1e-6, f"{text!r} is {px:.1f} px"
    titles = {text for _px, text in drawn_text(view)}
    assert {"level_1", "START"} <= titles, titles
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert shown.intersects(win.scene.nodes["level_1"].sceneBoundingRect())

    win.actions_by_name["lecture_mode"].trigger()  # off: text scales with the zoom again
    assert win.scene.text_floor == 0


def test_the_presenters_zoom_scales_the_canvas_text_and_the_panel_together(qtbot, window):
    win = window
    open_template(qtbot, win, "lesson_06_reducer")
    lecture_at_projector_size(qtbot, win)
    next_phase(qtbot, win, "barrier", 1)
    win.grab()
    label = win.lecture.panel.phase_text
    panel_before = label.font().pointSizeF()
    assert smallest_text(win.view)[0] >= READABLE_PX - 1e-6, smallest_text(win.view)
    assert not win.actions_by_name["zoom_in"].isEnabled(), "Ctrl + is the presenter's now"
    win.activateWindow()
    QTest.keySequence(win, QKeySequence(QKeySequence.StandardKey.ZoomIn))
    QTest.keySequence(win, QKeySequence(QKeySequence.StandardKey.ZoomIn))
    qtbot.waitUntil(lambda: label.font().pointSizeF() > panel_before, timeout=3000)
    win.grab()
    scale = win.lecture.zoom
    assert scale == pytest.approx(1.15**2)
    assert label.font().pointSizeF() == pytest.approx(panel_before * scale, abs=0.2)
    px, text = smallest_text(win.view)
    assert px >= READABLE_PX * scale - 1e-6, f"{text!r} is {px:.1f} px"
    assert all(p >= READABLE_PX * scale - 1e-6 for p, _t in drawn_text(win.view))
    QTest.keySequence(win, QKeySequence(QKeySequence.StandardKey.ZoomOut))
    assert win.lecture.zoom == pytest.approx(1.15)

    win.actions_by_name["lecture_mode"].trigger()
    assert win.actions_by_name["zoom_in"].isEnabled(), "the editor's zoom is back"
    assert win.view.transform().m11() > 0
