"""Differential tests: ToolErrorMiddleware (langchain 1.5) on engine.agents and langchain.agents:
a handled exception becomes an error ToolMessage, the rest propagate (issue 31)."""

import asyncio

import pytest
from langchain_core.tools import tool

from tests.engine.agents.helpers import add, ai, dump, explode, fake, same

pytestmark = pytest.mark.differential

USER = {"messages": [{"role": "user", "content": "hi"}]}


@tool
def picky(x: int) -> str:
    """Refuses odd numbers."""
    if x % 2:
        raise ValueError(f"odd {x}")
    return f"even {x}"


def _on_error(exc: Exception, request) -> str | None:
    if isinstance(exc, ValueError):
        return f"`{request.tool_call['name']}` failed ({type(exc).__name__}); fix the input."
    return None


def _calls(*calls):
    return fake(ai("", *calls), ai("done"))


def test_handled_errors_become_error_tool_messages(agent_backend):
    def scenario(b):
        mw = b.middleware.ToolErrorMiddleware(_on_error)
        model = _calls(
            ("picky", {"x": 3}, "c1"), ("picky", {"x": 4}, "c2"), ("add", {"a": 1, "b": 2}, "c3")
        )
        agent = b.agents.create_agent(model, [picky, add], middleware=[mw])
        return dump(agent.invoke(USER)["messages"])

    msgs = same(agent_backend, scenario)
    assert msgs[2][1] == "`picky` failed (ValueError); fix the input." and msgs[2][5] == "error"
    assert [m[1] for m in msgs[3:5]] == ["even 4", "3"]


def test_unhandled_errors_and_unlisted_tools_propagate(agent_backend):
    def scenario(b):
        out = []
        for mw in (
            b.middleware.ToolErrorMiddleware(_on_error),  # RuntimeError: on_error returns None
            b.middleware.ToolErrorMiddleware(lambda e, r: "handled", tools=["picky"]),
        ):
            agent = b.agents.create_agent(
                _calls(("explode", {"x": 1}, "c1")), [explode], middleware=[mw]
            )
            try:
                out.append(agent.invoke(USER))
            except RuntimeError as exc:
                out.append(("raised", str(exc)))
        return out

    assert same(agent_backend, scenario) == [("raised", "boom 1"), ("raised", "boom 1")]


def test_async_handlers(agent_backend):
    def scenario(b):
        async def aon_error(exc, request):
            return [{"type": "text", "text": f"async {type(exc).__name__}"}]

        out = []
        for mw in (
            b.middleware.ToolErrorMiddleware(aon_error=aon_error),
            b.middleware.ToolErrorMiddleware(lambda e, r: "sync handler"),
        ):
            agent = b.agents.create_agent(
                _calls(("explode", {"x": 2}, "c1")), [explode], middleware=[mw]
            )
            out.append(dump(asyncio.run(agent.ainvoke(USER))["messages"])[2])
        agent = b.agents.create_agent(
            _calls(("explode", {"x": 2}, "c1")),
            [explode],
            middleware=[b.middleware.ToolErrorMiddleware(aon_error=aon_error)],
        )
        try:
            agent.invoke(USER)
        except RuntimeError as exc:
            out.append(str(exc))
        try:
            b.middleware.ToolErrorMiddleware()
        except ValueError as exc:
            out.append(str(exc))
        return out

    out = same(agent_backend, scenario)
    assert out[0][1] == [{"type": "text", "text": "async RuntimeError"}]
    assert out[1][1] == "sync handler"
    assert out[2].startswith("ToolErrorMiddleware has no sync `on_error`")
    assert out[3] == "ToolErrorMiddleware requires `on_error` and/or `aon_error`."


def test_interrupts_pass_through(agent_backend):
    def scenario(b):
        interrupt = b.types.interrupt

        @tool
        def ask(question: str) -> str:
            """Ask the user."""
            return interrupt(question)

        saver = b.mod("checkpoint.memory").InMemorySaver()
        mw = b.middleware.ToolErrorMiddleware(lambda e, r: "swallowed")
        agent = b.agents.create_agent(
            _calls(("ask", {"question": "ok?"}, "c1")), [ask], middleware=[mw], checkpointer=saver
        )
        config = {"configurable": {"thread_id": "t"}}
        first = agent.invoke(USER, config)["__interrupt__"][0].value
        done = agent.invoke(b.types.Command(resume="yes"), config)
        return first, dump(done["messages"])

    first, msgs = same(agent_backend, scenario)
    assert first == "ok?" and msgs[2][1] == "yes"
