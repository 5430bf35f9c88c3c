"""Differential tests: async routers (conditional edges) are awaited under ainvoke/astream."""

import asyncio
import operator
from typing import Annotated, TypedDict

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class S(TypedDict):
    log: Annotated[list[str], operator.add]


def build(b, router):
    graph = b.graph.StateGraph(S)
    graph.add_node("start", lambda s: {"log": ["start"]})
    graph.add_node("left", lambda s: {"log": ["left"]})
    graph.add_node("right", lambda s: {"log": [f"right:{s['log'][-1]}"]})
    graph.add_edge(b.graph.START, "start")
    graph.add_conditional_edges("start", router, ["left", "right"])
    return graph.compile()


def test_an_async_router_picks_nodes_and_sends_packets():
    def scenario(b):
        async def route(state: S):
            await asyncio.sleep(0)
            return ["left", b.types.Send("right", {"log": ["sent"]})]

        graph = build(b, route)

        async def run():
            return await graph.ainvoke({"log": []}), [c async for c in graph.astream({"log": []})]

        return asyncio.run(run())

    assert_same(scenario)


def test_a_sync_router_under_ainvoke_and_an_async_one_under_invoke():
    def scenario(b):
        async def route_async(state: S) -> str:
            return "left"

        def route_sync(state: S) -> str:
            return "right"

        sync_result = asyncio.run(build(b, route_sync).ainvoke({"log": []}))
        try:
            build(b, route_async).invoke({"log": []})
        except TypeError as exc:
            return sync_result, str(exc).splitlines()[0]
        return sync_result, "no error"

    assert_same(scenario)
