"""Differential test: the keys a graph gives its cache are langgraph's. A cached node's entry is
namespaced by the node's function (module and qualified name) and its name, and keyed by the
xxh3-128 hex digest of its key_func's value; a task's by its function; the value set is the
task's writes as langgraph holds them (a deque). So a cache of the
program's own (a BaseCache subclass printing what it stores, a Redis or disk cache shared
with runs on langgraph) sees the same entries on both, and clear_cache clears the same ones."""

from __future__ import annotations

import asyncio

import pytest
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class State(TypedDict):
    value: int


def double(state: State) -> dict:
    return {"value": state["value"] * 2}


async def add_one(state: State) -> dict:
    return {"value": state["value"] + 1}


class Halver:
    def __call__(self, state: State) -> dict:
        return {"value": state["value"] // 2}


def _recording_cache(b, seen):
    memory = b.mod("cache.memory")

    class Recording(memory.InMemoryCache):
        def set(self, pairs):
            seen.extend(
                ("set", ns, key, ttl, type(value).__name__)
                for (ns, key), (value, ttl) in pairs.items()
            )
            super().set(pairs)

        def clear(self, namespaces=None):
            seen.append(("clear", namespaces))
            super().clear(namespaces)

    return Recording()


def test_node_and_task_cache_keys():
    def scenario(b):
        StateGraph, START = b.graph.StateGraph, b.graph.START
        CachePolicy = b.types.CachePolicy
        seen = []
        cache = _recording_cache(b, seen)
        builder = StateGraph(State)
        builder.add_node("double", double, cache_policy=CachePolicy(ttl=60))
        builder.add_node("halve", Halver(), cache_policy=CachePolicy())
        builder.add_node("bump", lambda s: {"value": s["value"] + 3}, cache_policy=CachePolicy())
        builder.add_edge(START, "double")
        builder.add_edge("double", "halve")
        builder.add_edge("halve", "bump")
        graph = builder.compile(cache=cache)
        graph.invoke({"value": 5})
        graph.invoke({"value": 5})
        graph.clear_cache(["double", "missing"])
        graph.clear_cache()

        async_graph = (
            StateGraph(State)
            .add_node("add_one", add_one, cache_policy=CachePolicy(key_func=lambda s: str(s)))
            .add_edge(START, "add_one")
            .compile(cache=cache)
        )
        asyncio.run(async_graph.ainvoke({"value": 1}))

        func = b.func

        @func.task(cache_policy=CachePolicy())
        def square(x: int) -> int:
            return x * x

        @func.entrypoint(cache=cache)
        def main(x: int) -> int:
            return square(x).result() + square(x + 1).result()

        main.invoke(3)
        return seen

    seen = assert_same(scenario)
    assert [entry[0] for entry in seen].count("set") == 6
