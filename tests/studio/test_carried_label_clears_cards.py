"""What an edge carried is labelled beside the edge where the label covers no card: a loop
edge passing beside a card put its label over that card's lines (a supervisor's handoffs:
`messages = [...]` over the supervisor card), where another point of the same edge was clear."""

from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QGraphicsRectItem

pytestmark = pytest.mark.gui

SPEC = {
    "version": 2,
    "name": "Beside a card",
    "state": [{"name": "x", "type": "int"}],
    "nodes": [
        {"id": "a", "kind": "set_state", "values": {"x": "1"}, "position": {"x": 200, "y": 100}},
        {"id": "b", "kind": "set_state", "values": {"x": "2"}, "position": {"x": 200, "y": 700}},
        # just right of the middle of the edge a -> b, where its label went first
        {"id": "c", "kind": "set_state", "values": {"x": "3"}, "position": {"x": 330, "y": 400}},
    ],
    "edges": [{"id": "a_to_b", "sources": ["a"], "target": "b"}],
    "entry": ["a"],
    "finish": ["b"],
}


def test_a_carried_label_sits_where_the_edge_passes_no_card(qtbot, window, tmp_path):
    path = tmp_path / "beside_a_card.json"
    path.write_text(json.dumps(SPEC), encoding="utf-8")
    assert window.open_path(path)
    overlay = window.runner.overlay
    overlay.carried = {("a", "b"): "x = 1 (what a wrote)"}
    overlay.redraw()
    label = next(i.sceneBoundingRect() for i in window.scene.items()
                 if isinstance(i, QGraphicsRectItem) and i.data(0) == "edge:a->b")  # fmt: skip
    cards = {n: item.sceneBoundingRect() for n, item in window.scene.nodes.items()}
    assert [n for n, card in cards.items() if card.intersects(label)] == []
    a, b = cards["a"], cards["b"]
    assert a.bottom() < label.top() < label.bottom() < b.top()  # still along its edge
    assert abs(label.left() - a.center().x()) < 20  # beside the straight edge
