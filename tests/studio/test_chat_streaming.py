"""A long streamed answer costs the chat panel's GUI thread little (issue 26 item 8): tokens reach
the panel as in a run, through the panel's LangChain callback handler with the event loop turning
after each, and the bubble is redrawn in batches, not re-rendered as Markdown once per token
(8,000 tokens took 14.2 s). Its GUI time is measured by `python -m bench.chat_stream` (the same
feeding); the test checks the batching, which does not depend on the machine's load."""

from __future__ import annotations

import pytest

from bench.chat_stream import chat_panel, stream, tokens

pytestmark = pytest.mark.gui

TOKENS = 8_000
MAX_RENDERS = TOKENS // 40
"""Redraws come on a timer (50 ms, longer when one is slow), so their number follows the time
the stream takes, not its tokens: one per token was the quadratic cost."""


def test_eight_thousand_tokens_are_drawn_in_a_few_batches(qtbot, window, monkeypatch):
    from studio.chat import chat_panel as module

    renders: list[int] = []
    set_text = module.Bubble.set_text
    monkeypatch.setattr(module.Bubble, "set_text",
                        lambda self, text: (renders.append(len(text)), set_text(self, text))[1])  # fmt: skip
    window.resize(1280, 720)
    panel = chat_panel(window)
    parts = tokens(TOKENS)
    _took, text = stream(panel, parts, limit_s=60)
    assert text == "".join(parts)
    assert 0 < len(renders) <= MAX_RENDERS, f"{len(renders)} redraws for {TOKENS} tokens"
    [bubble] = panel.live.values()
    assert bubble.body.text() == text and bubble.body.isVisibleTo(panel)
    assert "streaming" in bubble.head.text()
