"""After a step, each edge that carried a write is labelled with the values it carried: where
several edges meet in one node (three parallel branches joining in `combine`, a router's routes)
those labels are each readable, none on top of another, of a route's label or of the channel
chips under a card. Placed at a fixed point of each curve, the branches' labels of a longer
value lay over one another."""

from __future__ import annotations

import itertools
import json

import pytest
from PySide6.QtWidgets import QGraphicsRectItem

from tests.studio.test_run_steps import click, idle, open_template

pytestmark = pytest.mark.gui


def boxes(scene, prefix: str) -> dict[str, object]:
    """The cards behind the run overlay's labels whose name starts with `prefix`."""
    return {i.data(0): i.sceneBoundingRect() for i in scene.items()
            if isinstance(i, QGraphicsRectItem) and str(i.data(0) or "").startswith(prefix)}  # fmt: skip


def step(qtbot, win, times: int, run_input: dict) -> None:
    win.runner.input_panel.editor.setPlainText(json.dumps(run_input))
    for _ in range(times):
        click(qtbot, win, "stepButton")
        idle(qtbot, win)


def apart(rects: dict) -> list[tuple[str, str]]:
    return [(a, b) for (a, ra), (b, rb) in itertools.combinations(rects.items(), 2)
            if ra.intersects(rb)]  # fmt: skip


def test_the_labels_of_parallel_branches_into_a_join_do_not_overlap(qtbot, window):
    window.resize(1280, 720)
    open_template(qtbot, window, "fanout_join")
    step(qtbot, window, 2, {"query": "supersteps, channels and barriers"})  # the branches ran
    carried = boxes(window.scene, "edge:")
    assert set(carried) == {f"edge:search_{s}->combine" for s in ("web", "docs", "code")}
    chips = boxes(window.scene, "wrote:")
    assert len(chips) == 3
    assert apart(carried | chips) == []


def test_the_labels_of_a_routers_edges_clear_its_route_labels(qtbot, window):
    window.resize(1280, 720)
    open_template(qtbot, window, "ticket_triage")
    step(qtbot, window, 2, {"ticket": "The app crashes twice a day since the last update"})
    carried = boxes(window.scene, "edge:")
    assert set(carried) == {"edge:classify->technical"}
    routes = {e.look.label: e.label_rect() for e in window.scene.edges.values() if e.look.label}
    assert set(routes) == {"billing", "technical", "general"}
    assert apart(carried | routes) == []
