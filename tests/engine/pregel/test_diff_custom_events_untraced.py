"""Differential tests: langchain's dispatch_custom_event from a node nobody traces.

A langgraph node always runs inside its task's callback run, so langchain's
(a)dispatch_custom_event finds a parent run id even when no handler listens, and does nothing.
The engine skips callback runs nobody listens to, and the dispatch raised "Unable to dispatch
an adhoc event without a parent run id" (tutran27/langgraph-learning-labs' streaming lab reports
its progress this way from a node of a subgraph, streamed with stream_mode="updates").
"""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.callbacks.manager import adispatch_custom_event, dispatch_custom_event
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class State(TypedDict):
    x: int


async def async_progress(state: State) -> State:
    await adispatch_custom_event("progress", {"at": state["x"]})
    return {"x": state["x"] + 1}


def sync_progress(state: State) -> State:
    dispatch_custom_event("progress", {"at": state["x"]})
    return {"x": state["x"] + 1}


def _graphs(b, node):
    StateGraph, START = b.graph.StateGraph, b.graph.START
    flat = StateGraph(State).add_node("n", node).add_edge(START, "n").compile()
    inner = StateGraph(State).add_node("inner", node).add_edge(START, "inner").compile()
    nested = StateGraph(State).add_node("research", inner).add_edge(START, "research").compile()
    return {"flat": flat, "nested": nested}


def _outcome(run):
    try:
        return run()
    except Exception as exc:  # compared by class and message
        return (type(exc).__name__, str(exc)[:60])


def test_a_node_dispatches_custom_events_with_nobody_listening():
    def scenario(b):
        out = {}
        for label, node in (("async", async_progress), ("sync", sync_progress)):
            for name, graph in _graphs(b, node).items():

                async def streamed(graph=graph):
                    return [part async for part in graph.astream({"x": 0}, stream_mode="updates")]

                out[label, name, "ainvoke"] = _outcome(
                    lambda graph=graph: asyncio.run(graph.ainvoke({"x": 0}))
                )
                out[label, name, "astream"] = _outcome(lambda s=streamed: asyncio.run(s()))
                if label == "sync":
                    out[label, name, "invoke"] = _outcome(lambda g=graph: g.invoke({"x": 0}))
        return out

    assert_same(scenario)


def test_the_events_still_reach_astream_events():
    def scenario(b):
        graph = _graphs(b, async_progress)["nested"]

        async def custom():
            return [
                (event["name"], event["data"])
                async for event in graph.astream_events({"x": 2}, version="v2")
                if event["event"] == "on_custom_event"
            ]

        return asyncio.run(custom())

    assert assert_same(scenario) == [("progress", {"at": 2})]
