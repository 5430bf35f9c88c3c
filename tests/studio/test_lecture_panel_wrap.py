"""The lecture panel's phase text wraps a subgraph's namespace (`shout:<task id>`): a task id
whose hyphens are each followed by a digit gives the line breaker no place to break, and one
such line widened the label past the panel, clipping every line (seen in Chinese at 1280×720)."""

from __future__ import annotations

import pytest

from studio.lecture.panel import LecturePanel
from studio.lecture.phases import Phase

pytestmark = pytest.mark.gui


def test_a_namespace_id_does_not_widen_the_phase_text(qtbot):
    panel = LecturePanel()
    qtbot.addWidget(panel)
    phase = Phase("execute", 2)
    phase.lines = ["shout runs a graph of its own: its supersteps and checkpoints live under "
                   "namespace shout:71234126-61c6-185f-3742-99f544800000"]  # fmt: skip
    panel.show_phase(phase)
    assert panel.phase_text.minimumSizeHint().width() < 200
