"""A node card shows its whole name: real programs name nodes `llm_call_router`,
`generate_llm_output`, `final_report_generation`, and a 200-pixel card cut them to
`llm_call_ro…` beside its kind badge. The badge gives way when the title needs the room (the
icon and the colour still tell the kind), and a longer title widens the card up to an agent's
width."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QFontMetricsF

from studio.canvas.items.node_item import AGENT_WIDTH, MONO_FONT, TITLE_FONT, WIDTH
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


def test_a_code_line_too_long_for_the_card_ends_in_an_ellipsis(qtbot, window):
    """The line under the title (`wf_evaluator:llm_call_generator`) was clipped mid-name at the
    card's edge with nothing saying it goes on, unless the lecture text floor was on."""
    window.resize(1280, 720)
    open_program(qtbot, window, CORPUS / "wf_evaluator.py")
    painted_titles(qtbot, window)
    card = window.scene.nodes["llm_call_generator"]
    full = next(line for line in card.look.lines if "llm_call_generator" in line)
    room = card.size()[0] - 20
    assert QFontMetricsF(MONO_FONT).horizontalAdvance(full) > room  # too long: it is cut
    drawn = [text for _px, text in card.drawn if text.startswith(full[:8])]
    assert len(drawn) == 1 and drawn[0].endswith("…") and full.startswith(drawn[0][:-1])
    assert QFontMetricsF(MONO_FONT).horizontalAdvance(drawn[0]) <= room
