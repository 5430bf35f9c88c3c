"""A long streamed answer costs the chat panel's GUI thread little (issue 26 item 8): tokens reach
the panel as in a run, through the panel's LangChain callback handler with the event loop turning
after each, and the bubble is redrawn in batches, not re-rendered as Markdown once per token
(8,000 tokens took 14.2 s). The same feeding is `python -m bench.chat_stream`."""

from __future__ import annotations

import pytest

from bench.chat_stream import chat_panel, stream, tokens

pytestmark = pytest.mark.gui

TOKENS = 8_000
GUI_BUDGET_S = 1.0


def test_eight_thousand_tokens_stream_in_well_under_a_second(qtbot, window):
    window.resize(1280, 720)
    panel = chat_panel(window)
    parts = tokens(TOKENS)
    took, text = stream(panel, parts, limit_s=30)
    assert text == "".join(parts)
    assert took < GUI_BUDGET_S, f"{TOKENS} tokens took {took:.2f} s of GUI time"
    [bubble] = panel.live.values()
    assert bubble.body.text() == text and bubble.body.isVisibleTo(panel)
    assert "streaming" in bubble.head.text()
