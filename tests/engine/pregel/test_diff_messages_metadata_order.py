"""Differential tests: the order of the keys of a messages-mode chunk's metadata. Programs print
that dict (`for msg, meta in graph.stream(..., stream_mode="messages"): print(meta)`), so the
order shows: the run's own metadata first, then the configurable ids langgraph copies into it
(thread_id; a subgraph's checkpoint_ns after the keys it inherits), then `ls_integration`,
then the keys the task adds."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def nested_graph(b):
    graph = b.graph

    inner = graph.StateGraph(graph.MessagesState)
    inner.add_node("answer", lambda s: {"messages": [AIMessage("below", id="m-below")]})
    inner.add_edge(graph.START, "answer")

    outer = graph.StateGraph(graph.MessagesState)
    outer.add_node("greet", lambda s: {"messages": [AIMessage("above", id="m-above")]})
    outer.add_node("inner", inner.compile())
    outer.add_edge(graph.START, "greet")
    outer.add_edge("greet", "inner")
    saver = b.mod("checkpoint.memory").InMemorySaver()
    return outer.compile(checkpointer=saver)


def test_a_returned_message_has_its_metadata_keys_in_langgraphs_order():
    def scenario(b):
        app = nested_graph(b)
        config = {"configurable": {"thread_id": "t"}}
        return [(m.content, list(meta)) for m, meta in app.stream(
            {"messages": []}, config, stream_mode="messages")]  # fmt: skip

    chunks = assert_same(scenario)
    assert chunks[0][1][:3] == ["thread_id", "ls_integration", "langgraph_step"]


def test_the_runs_own_metadata_comes_before_the_ids_and_a_subgraphs_namespace_last():
    def scenario(b):
        app = nested_graph(b)
        config = {"configurable": {"thread_id": "t"}, "metadata": {"user": "ann"}}
        return [(ns != (), m.content, list(meta)) for ns, (m, meta) in app.stream(
            {"messages": []}, config, stream_mode="messages", subgraphs=True)]  # fmt: skip

    chunks = assert_same(scenario)
    below = next(keys for nested, _, keys in chunks if nested)
    assert below[:2] == ["user", "thread_id"] and below[-1] == "checkpoint_ns"
