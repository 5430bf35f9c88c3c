"""Edges back to their own node are drawn as a loop beside the card, with their label (issue
27.5), and labels of edges leaving one node do not lie on top of each other (issue 27.8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF

from tests.studio.helpers import center, click, drag
from tests.studio.test_canvas_gestures import drop_from_palette, port

pytestmark = pytest.mark.gui
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def assert_loop_beside(win, edge_key: str, node_id: str) -> None:
    """The loop runs right of the card, its label there too, and clicking the label picks it."""
    card = win.scene.nodes[node_id].sceneBoundingRect()
    edge = win.scene.edges[edge_key]
    label = edge.label_rect()
    assert edge.shape().boundingRect().right() > card.right() + 20
    assert label.left() > card.right() - 12 and not label.intersects(card.adjusted(8, 8, -8, -8))
    click(win.view, label.center())
    assert win.scene.selected_ids() == [edge.element_id]


def test_the_counter_loop_template_draws_its_loop_with_its_label(window):
    win = window
    assert win.open_path(TEMPLATES / "counter_loop.json", bundled=True)
    assert win.scene.edges["keep_going#0"].look.label == "increment"
    assert_loop_beside(win, "keep_going#0", "increment")


def test_a_route_dragged_back_to_its_own_card_is_a_loop(window):
    win = window
    win.new_graph()
    drop_from_palette(win, "node:set_state", win.view.mapToScene(QPoint(300, 200)))
    drag(win.view, port(win, "set_state", "route"), center(win.scene.nodes["set_state"]))
    [edge] = win.document.spec.conditional_edges
    assert edge.source == "set_state"
    key = next(k for k, e in win.scene.edges.items() if e.look.target == "set_state")
    assert_loop_beside(win, key, "set_state")
    # moved, it follows the card
    card = win.scene.nodes["set_state"]
    drag(win.view, card.sceneBoundingRect().topLeft() + QPointF(40, 12),
         card.sceneBoundingRect().topLeft() + QPointF(240, 112))  # fmt: skip
    assert_loop_beside(win, key, "set_state")


def test_two_routes_back_to_one_card_are_two_loops_with_both_labels_clear(window, tmp_path):
    path = tmp_path / "revise.json"
    path.write_text(json.dumps({
        "version": 2, "state": [{"name": "n", "type": "int"}],
        "nodes": [{"id": "draft", "kind": "set_state", "position": {"x": 200, "y": 100},
                   "values": {"n": "n + 1"}}],
        "conditional_edges": [{"id": "check", "source": "draft", "router": {
            "kind": "expression", "expression": "'again' if n < 3 else 'retry' if n < 4 else 'done'"},
            "path_map": {"again": "draft", "retry": "draft", "done": "__end__"}}],
        "entry": ["draft"]}), encoding="utf-8")  # fmt: skip
    win = window
    assert win.open_path(path)
    again, retry = win.scene.edges["check#0"], win.scene.edges["check#1"]
    assert (again.look.label, retry.look.label) == ("again", "retry")
    assert not again.label_rect().intersects(retry.label_rect())
    assert retry.shape().boundingRect().right() > again.shape().boundingRect().right() + 20
    for key in ("check#0", "check#1"):
        assert_loop_beside(win, key, "draft")


def test_a_goto_and_a_send_to_one_node_keep_their_labels_apart(window, tmp_path):
    path = tmp_path / "fan.json"
    path.write_text(json.dumps({
        "version": 2,
        "state": [{"name": "items", "type": "list"},
                  {"name": "out", "type": "list", "reducer": "add"}],
        "nodes": [
            {"id": "plan", "kind": "function", "position": {"x": 200, "y": 100},
             "code": "def plan(state):\n    return {}\n", "function": "plan",
             "destinations": ["work"]},
            {"id": "work", "kind": "set_state", "position": {"x": 200, "y": 300},
             "values": {"out": "[1]"}}],
        "conditional_edges": [{"id": "fan", "source": "plan", "router": {
            "kind": "send", "over": "items", "target": "work", "input": {"out": "[item]"}}}],
        "entry": ["plan"], "finish": ["work"]}), encoding="utf-8")  # fmt: skip
    win = window
    assert win.open_path(path)
    goto, send = win.scene.edges["plan>work"], win.scene.edges["fan#0"]
    assert not goto.label_rect().intersects(send.label_rect())
    card = win.scene.nodes["work"]  # still apart after a drag brings the cards closer
    start = card.sceneBoundingRect().topLeft() + QPointF(40, 12)
    drag(win.view, start, start + QPointF(60, -60))
    assert not goto.label_rect().intersects(send.label_rect())
    click(win.view, goto.label_rect().center())
    assert win.scene.selected_ids() == ["plan"]  # a goto edge stands for its node's Command
