"""A node card shows its whole name: real programs name nodes `llm_call_router`,
`generate_llm_output`, `final_report_generation`, and a 200-pixel card cut them to
`llm_call_ro…` beside its kind badge. The badge gives way when the title needs the room (the
icon and the colour still tell the kind), and a longer title widens the card up to an agent's
width."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QFontMetricsF

from studio.canvas.items.node_item import AGENT_WIDTH, TITLE_FONT, WIDTH
from tests.studio.code_programs import open_program

pytestmark = pytest.mark.gui

CORPUS = Path(__file__).parents[1] / "graphspec" / "corpus"


def painted_titles(qtbot, window) -> dict[str, str]:
    """Each card's title as its last paint drew it (the first text a card draws)."""
    window.view.fit()
    window.view.viewport().grab()  # paints every card in view
    return {node_id: card.drawn[0][1] for node_id, card in window.scene.nodes.items()}


@pytest.mark.parametrize(
    ("program", "names"),
    [
        ("wf_routing.py", {"llm_call_router"}),
        ("wf_evaluator.py", {"llm_call_generator", "llm_call_evaluator"}),
        ("interrupt_approve.py", {"generate_llm_output", "human_approval", "rejected_path"}),
    ],
)
def test_real_programs_node_names_are_drawn_whole(qtbot, window, program, names):
    window.resize(1280, 720)
    open_program(qtbot, window, CORPUS / program)
    drawn = painted_titles(qtbot, window)
    assert names <= set(drawn)
    assert {node_id: title for node_id, title in drawn.items() if node_id in names} == {
        name: name for name in names
    }
    for name in names:  # no wider than the title needs, and never past an agent's card
        card = window.scene.nodes[name]
        assert WIDTH <= card.size()[0] <= AGENT_WIDTH
        assert card.title_rect().width() >= QFontMetricsF(TITLE_FONT).horizontalAdvance(name)


def test_a_short_name_keeps_its_kind_badge_and_width(qtbot, window):
    window.resize(1280, 720)
    open_program(qtbot, window, CORPUS / "wf_routing.py")
    painted_titles(qtbot, window)
    card = window.scene.nodes["llm_call_1"]
    assert card.size()[0] == WIDTH
    assert [text for _px, text in card.drawn[:2]] == ["llm_call_1", "function"]
