"""Differential: the order a saver gives back a checkpoint's pending writes in. Savers sort them
by the writing task's path, so the loop must pass each task's path to put_writes: parallel
tasks (pulls, a subgraph, Sends) where one interrupts, and a DeltaChannel rebuilt from the
writes of parallel tasks, on both savers and each durability."""

import asyncio
import operator
import sqlite3
from typing import Annotated, TypedDict

import pytest

from tests.oracle import Backend, assert_same

pytestmark = pytest.mark.differential

SAVERS = ("memory", "sqlite")


class Log(TypedDict):
    log: Annotated[list, operator.add]


def _saver(b: Backend, kind: str):
    if kind == "memory":
        return b.mod("checkpoint.memory").InMemorySaver()
    return b.mod("checkpoint.sqlite").SqliteSaver(
        sqlite3.connect(":memory:", check_same_thread=False)
    )


def _fan_out(b: Backend, builder, nodes: list[str]) -> None:
    """fan, then in one superstep: six Sends to "w" and the pull tasks `nodes`."""
    g, types = b.graph, b.types
    builder.add_node("w", lambda x: {"log": [f"w{x}"]})
    builder.add_edge(g.START, "fan")
    builder.add_conditional_edges("fan", lambda s: [types.Send("w", i) for i in range(6)] + nodes)


def _interrupting_graph(b: Backend, saver):
    g, types = b.graph, b.types

    def asker(state: Log) -> dict:
        return {"log": [f"asker:{types.interrupt('go?')}"]}

    inner = g.StateGraph(Log)
    inner.add_node("inner", lambda s: {"log": ["sub"]})
    inner.add_edge(g.START, "inner")
    builder = g.StateGraph(Log)
    builder.add_node("fan", lambda s: {"log": ["fan"]})
    builder.add_node("asker", asker)
    builder.add_node("sub", inner.compile())
    builder.add_node("zed", lambda s: {"log": ["zed"]})
    builder.add_node("early", lambda s: {"log": ["early"]})
    _fan_out(b, builder, ["zed", "asker", "sub", "early"])
    return builder.compile(checkpointer=saver)


def _observe(graph, saver, cfg) -> tuple:
    state = graph.get_state(cfg)
    stored = saver.get_tuple(cfg).pending_writes
    return (
        [(t.name, t.path, t.interrupts) for t in state.tasks],
        [(channel, value) for _, channel, value in stored],
    )


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
@pytest.mark.parametrize("kind", SAVERS)
def test_pending_writes_of_parallel_tasks_one_interrupting(kind, durability):
    def scenario(b: Backend):
        saver = _saver(b, kind)
        graph = _interrupting_graph(b, saver)
        cfg = {"configurable": {"thread_id": "t"}}
        first = graph.invoke({"log": []}, cfg, durability=durability)
        seen = _observe(graph, saver, cfg)
        resumed = graph.invoke(b.types.Command(resume="yes"), cfg, durability=durability)
        return first, seen, resumed, graph.get_state(cfg).values

    assert_same(scenario)


def test_pending_writes_order_of_an_async_run():
    # (langgraph's SqliteSaver has no async methods)
    def scenario(b: Backend):
        saver = _saver(b, "memory")
        graph = _interrupting_graph(b, saver)
        cfg = {"configurable": {"thread_id": "t"}}
        first = asyncio.run(graph.ainvoke({"log": []}, cfg))
        return first, _observe(graph, saver, cfg)

    assert_same(scenario)


def extend(state, writes):
    out = list(state)
    for w in writes:
        out.extend(w if isinstance(w, list) else [w])
    return out


@pytest.mark.parametrize("kind", SAVERS)
def test_delta_channel_rebuilt_from_parallel_writes(kind):
    def scenario(b: Backend):
        g = b.graph

        class S(TypedDict):
            log: Annotated[list, b.channels.DeltaChannel(extend, snapshot_frequency=50)]

        builder = g.StateGraph(S)
        builder.add_node("fan", lambda s: {"log": ["fan"]})
        for name in "abc":
            builder.add_node(name, lambda s, name=name: {"log": [name]})
        _fan_out(b, builder, list("abc"))
        saver = _saver(b, kind)
        graph = builder.compile(checkpointer=saver)
        cfg = {"configurable": {"thread_id": "t"}}
        out = graph.invoke({"log": []}, cfg)
        # a fresh graph on the same saver reads the value back from the stored writes
        again = builder.compile(checkpointer=saver).get_state(cfg).values
        return out, again

    assert_same(scenario)
