"""Differential tests: stream_mode="tools" reports each tool call's start, partial output
(ToolRuntime.emit_output_delta), end and error, on langgraph and on engine."""

import asyncio
from typing import Annotated

import pytest
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def build(b, *tools, calls):
    class State(TypedDict):
        messages: Annotated[list, b.graph.message.add_messages]

    def caller(state):
        return {
            "messages": [
                AIMessage("", tool_calls=[{"name": n, "args": a, "id": i} for n, a, i in calls])
            ]
        }

    graph = b.graph.StateGraph(State)
    graph.add_node("caller", caller)
    graph.add_node("tools", b.prebuilt.ToolNode(list(tools)))
    graph.add_edge(b.graph.START, "caller")
    graph.add_edge("caller", "tools")
    return graph.compile()


def tool_events(chunks) -> list:
    out = []
    for ns, mode, payload in chunks:
        if mode == "tools":
            payload = dict(payload)
            if "output" in payload:
                payload["output"] = getattr(payload["output"], "content", payload["output"])
            out.append((ns, payload))
    return out


def test_a_tool_call_starts_streams_its_deltas_and_finishes():
    def scenario(b):
        ToolRuntime = b.prebuilt.ToolRuntime  # noqa: N806

        @tool
        def echo(text: str, runtime: ToolRuntime) -> str:
            """Echo in pieces."""
            for piece in ("a", "b"):
                runtime.emit_output_delta(piece)
            return f"echoed {text}"

        graph = build(b, echo, calls=[("echo", {"text": "hi"}, "tc1")])
        return tool_events(graph.stream({"messages": []}, stream_mode=["tools"], subgraphs=True))

    events = assert_same(scenario)
    assert [e[1]["event"] for e in events] == [
        "tool-started",
        "tool-output-delta",
        "tool-output-delta",
        "tool-finished",
    ]


def test_a_failing_tool_reports_an_error_and_deltas_without_the_mode_are_dropped():
    def scenario(b):
        ToolRuntime = b.prebuilt.ToolRuntime  # noqa: N806

        @tool
        def boom() -> str:
            """Fails."""
            raise ValueError("nope")

        @tool
        def quiet(runtime: ToolRuntime) -> str:
            """Emits deltas nobody listens to."""
            runtime.emit_output_delta("unheard")
            return "ok"

        seen = []
        try:
            for chunk in build(b, boom, calls=[("boom", {}, "tc1")]).stream(
                {"messages": []}, stream_mode=["tools"], subgraphs=True
            ):
                seen.append(chunk)
        except ValueError as exc:
            seen.append(("raised", str(exc)))
        result = build(b, quiet, calls=[("quiet", {}, "q1")]).invoke({"messages": []})
        return (
            tool_events(c for c in seen if c[0] != "raised"),
            seen[-1],
            result["messages"][-1].content,
        )

    assert_same(scenario)


def test_async_tools_stream_too():
    def scenario(b):
        ToolRuntime = b.prebuilt.ToolRuntime  # noqa: N806

        @tool
        async def slow(n: int, runtime: ToolRuntime) -> int:
            """Counts up."""
            for i in range(n):
                runtime.emit_output_delta(i)
                await asyncio.sleep(0)
            return n

        graph = build(b, slow, calls=[("slow", {"n": 2}, "s1")])

        async def run():
            return [
                c
                async for c in graph.astream(
                    {"messages": []}, stream_mode=["tools"], subgraphs=True
                )
            ]

        return tool_events(asyncio.run(run()))

    assert_same(scenario)
