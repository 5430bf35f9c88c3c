"""Shared helpers for agent tests: a fake chat model with bind_tools, tools, and comparison."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool

from tests.engine.agents.conftest import AgentBackend
from tests.oracle import normalize


class FakeToolModel(FakeMessagesListChatModel):
    """langchain-core's list-replay fake model, accepting bind_tools (tools are ignored)."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> FakeToolModel:
        return self


def ai(content: str = "", *calls: tuple[str, dict, str]) -> AIMessage:
    """An AIMessage with tool calls given as (name, args, id)."""
    return AIMessage(
        content=content,
        tool_calls=[{"name": n, "args": a, "id": i, "type": "tool_call"} for n, a, i in calls],
    )


def fake(*replies: AIMessage) -> FakeToolModel:
    return FakeToolModel(responses=list(replies))


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def shout(text: str) -> str:
    """Upper-case the text."""
    return text.upper()


@tool
def explode(x: int) -> str:
    """Always fails."""
    raise RuntimeError(f"boom {x}")


@tool(return_direct=True)
def final_answer(answer: str) -> str:
    """Return the answer straight to the user."""
    return f"ANSWER: {answer}"


def _run(scenario, b: AgentBackend) -> Any:
    try:
        return scenario(b)
    except Exception as exc:  # compared as (class name, message)
        return exc


def same(b: AgentBackend, scenario) -> Any:
    """Run `scenario` on `b` and on the oracle (langchain); assert equal normalised results.

    On the langchain parametrisation this checks the scenario is deterministic once normalised.
    Returns b's result (an exception is returned, not raised) for further assertions.
    """
    expected = _run(scenario, AgentBackend("langgraph"))
    actual = _run(scenario, b)
    assert normalize(actual) == normalize(expected), (
        f"{b.prefix} differs from langchain\n langchain: {expected!r}\n {b.prefix}:    {actual!r}"
    )
    return actual


def graph_shape(agent: Any) -> tuple[list, list]:
    """Sorted node ids and (source, target, conditional) edges of agent.get_graph()."""
    g = agent.get_graph()
    nodes = sorted(g.nodes)
    edges = sorted((e.source, e.target, bool(e.conditional)) for e in g.edges)
    return nodes, edges


def dump(messages: list) -> list:
    """Messages as comparable tuples (type, content, tool calls, tool_call_id, name, status)."""
    out = []
    for m in messages:
        out.append(
            (
                m.type,
                m.content,
                [(c["name"], c["args"], c["id"]) for c in getattr(m, "tool_calls", []) or []],
                getattr(m, "tool_call_id", None),
                m.name,
                getattr(m, "status", None),
            )
        )
    return out
