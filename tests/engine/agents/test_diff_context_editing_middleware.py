"""Differential tests: ContextEditingMiddleware and ClearToolUsesEdit (langchain 1.5) on
engine.agents and langchain.agents: what each model call is sent, and the state kept (issue 31)."""

import asyncio

import pytest
from langchain_core.tools import tool
from pydantic import Field

from tests.engine.agents.helpers import FakeToolModel, ai, dump, same

pytestmark = pytest.mark.differential

USER = {"messages": [{"role": "user", "content": "hi"}]}


class Recording(FakeToolModel):
    """Replays its replies; keeps what each call was sent."""

    sent: list = Field(default_factory=list)

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.sent.append(
            [
                (m.type, m.content, getattr(m, "tool_calls", None), m.response_metadata)
                for m in messages
            ]
        )
        return super()._generate(messages, stop, run_manager, **kwargs)

    def get_num_tokens_from_messages(self, messages, tools=None) -> int:
        return sum(len(str(m.content)) for m in messages) + 7 * len(tools or [])


@tool
def fetch(page: int) -> str:
    """Fetch a long page."""
    return f"page {page}: " + "lorem ipsum " * 40


@tool
def note(text: str) -> str:
    """Keep a note."""
    return f"noted {text} " * 20


def _reads(*pages) -> list:
    return [ai("", ("fetch", {"page": p}, f"f{p}")) for p in pages]


def _run(b, mw, replies, asynchronous=False):
    model = Recording(responses=[*replies, ai("done")])
    agent = b.agents.create_agent(model, [fetch, note], middleware=[mw])
    out = asyncio.run(agent.ainvoke(USER)) if asynchronous else agent.invoke(USER)
    return model.sent, dump(out["messages"])


@pytest.mark.parametrize("asynchronous", [False, True])
def test_default_edit_clears_older_results_past_the_trigger(agent_backend, asynchronous):
    def scenario(b):
        edit = b.middleware.ClearToolUsesEdit(trigger=300, keep=1)
        return _run(
            b, b.middleware.ContextEditingMiddleware(edits=[edit]), _reads(1, 2, 3, 4), asynchronous
        )

    sent, state = same(agent_backend, scenario)
    last = sent[-1]
    assert [c for t, c, _, _ in last if t == "tool"][:3] == ["[cleared]"] * 3
    assert last[-1][1].startswith("page 4:")
    assert last[2][3] == {"context_editing": {"cleared": True, "strategy": "clear_tool_uses"}}
    assert all(m[1] != "[cleared]" for m in state)  # the state keeps every result


def test_inputs_exclusions_and_clear_at_least(agent_backend):
    def scenario(b):
        ClearToolUsesEdit = b.middleware.ClearToolUsesEdit
        replies = [
            ai("", ("note", {"text": "a"}, "n1")),
            *_reads(1, 2),
            ai("", ("note", {"text": "b"}, "n2")),
            *_reads(3),
        ]
        out = []
        for edit in (
            ClearToolUsesEdit(trigger=100, keep=0, clear_tool_inputs=True, exclude_tools=["note"]),
            ClearToolUsesEdit(trigger=100, keep=2, clear_at_least=100, placeholder="<gone>"),
            ClearToolUsesEdit(trigger=10**6),
        ):
            out.append(_run(b, b.middleware.ContextEditingMiddleware(edits=[edit]), replies)[0][-1])
        return out

    excluded, at_least, untouched = same(agent_backend, scenario)
    assert [c[:5] for t, c, _, _ in excluded if t == "tool"] == [
        "noted",
        "[clea",
        "[clea",
        "noted",
        "[clea",
    ]
    assert excluded[3][2][0]["args"] == {} and excluded[3][3]["context_editing"] == {
        "cleared_tool_inputs": ["f1"]
    }
    assert [c for t, c, _, _ in at_least if t == "tool"].count("<gone>") == 2  # of 3 candidates
    assert "[cleared]" not in [c for _, c, _, _ in untouched]


def test_token_counters(agent_backend):
    def scenario(b):
        out = []
        for mw in (
            b.middleware.ContextEditingMiddleware(
                edits=[b.middleware.ClearToolUsesEdit(trigger=2, keep=1)],
                token_counter=lambda messages: len(messages),
            ),
            b.middleware.ContextEditingMiddleware(
                edits=[b.middleware.ClearToolUsesEdit(trigger=700, keep=0)],
                token_count_method="model",
            ),
        ):
            out.append(_run(b, mw, _reads(1, 2, 3))[0])
        return out

    by_count, by_model = same(agent_backend, scenario)
    assert [c for t, c, _, _ in by_count[-1] if t == "tool"][:2] == ["[cleared]"] * 2
    assert any(c == "[cleared]" for call in by_model for _, c, _, _ in call)
