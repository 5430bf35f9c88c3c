"""No bundled template opens with cards lying over one another: ticket_triage placed its three
routes 190 pixels apart, and 200-pixel cards hid the ends of their neighbours' lines and ports."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QRectF

from graphspec.templates import TEMPLATES_DIR

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("path", sorted(TEMPLATES_DIR.glob("*.json")), ids=lambda p: p.stem)
def test_a_templates_cards_do_not_overlap(window, path):
    assert window.open_path(path, bundled=True)
    cards = {node_id: QRectF(card.scenePos(), QRectF(0, 0, *card.size()).size())
             for node_id, card in window.scene.nodes.items()}  # fmt: skip
    assert cards
    over = [(a, b) for (a, ra), (b, rb) in itertools.combinations(cards.items(), 2)
            if ra.intersects(rb)]  # fmt: skip
    assert over == []
