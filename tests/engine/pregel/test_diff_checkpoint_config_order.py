"""Differential tests: the order of the configurable keys in a "checkpoints" (and "debug")
chunk's config and parent_config. Programs print those chunks whole (Walid-Ahmed's
langgraph-tutorials agent streamed with stream_mode=["checkpoints", ...]); langgraph's loop puts
checkpoint_ns first, then the run's own configurable keys, then checkpoint_id."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def counter_graph(b, *, nested: bool):
    graph = b.graph

    class Count(TypedDict):
        n: Annotated[int, operator.add]

    inner = graph.StateGraph(Count)
    inner.add_node("bump", lambda s: {"n": 1})
    inner.add_edge(graph.START, "bump")

    outer = graph.StateGraph(Count)
    outer.add_node("first", lambda s: {"n": 1})
    outer.add_node("inner", inner.compile() if nested else (lambda s: {"n": 1}))
    outer.add_edge(graph.START, "first")
    outer.add_edge("first", "inner")
    return outer.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())


def key_orders(chunks):
    """Per chunk: its namespace and the configurable keys of its config and parent_config."""
    out = []
    for ns, mode, payload in chunks:
        if mode == "debug":
            if payload["type"] != "checkpoint":
                continue
            payload = payload["payload"]
        parent = payload["parent_config"]
        out.append((ns != (), list(payload["config"]["configurable"]),
                    parent and list(parent["configurable"])))  # fmt: skip
    return out


def test_a_new_threads_checkpoints_name_their_namespace_first():
    def scenario(b):
        app = counter_graph(b, nested=False)
        config = {"configurable": {"thread_id": "t", "user": "ann"}}
        return key_orders(app.stream({"n": 0}, config, stream_mode=["checkpoints", "debug"],
                                     subgraphs=True))  # fmt: skip

    orders = assert_same(scenario)
    assert orders[1][1] == ["checkpoint_ns", "thread_id", "user", "checkpoint_id"]


def test_a_second_run_on_the_thread_and_a_subgraphs_checkpoints_keep_the_order():
    def scenario(b):
        app = counter_graph(b, nested=True)
        config = {"configurable": {"thread_id": "t"}}
        app.invoke({"n": 0}, config)
        return key_orders(app.stream({"n": 0}, config, stream_mode=["checkpoints"], subgraphs=True))

    orders = assert_same(scenario)
    assert any(nested for nested, _, _ in orders)
    assert orders[0][1][0] == "checkpoint_ns"
