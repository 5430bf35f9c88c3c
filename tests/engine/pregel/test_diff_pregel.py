"""Differential tests of the low-level Pregel API: NodeBuilder nodes reading and writing
channels (LastValue, EphemeralValue, Topic, BinaryOperatorAggregate), cycles, a StateGraph's
compiled nodes and channels.
"""

from __future__ import annotations

import pytest


def test_pregel_single_node(backend):
    EphemeralValue = backend.channels.EphemeralValue
    Pregel, NodeBuilder = backend.pregel.Pregel, backend.pregel.NodeBuilder

    node1 = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b")
    app = Pregel(
        nodes={"node1": node1},
        channels={"a": EphemeralValue(str), "b": EphemeralValue(str)},
        input_channels=["a"],
        output_channels=["b"],
    )
    assert app.invoke({"a": "foo"}) == {"b": "foofoo"}


def test_pregel_multi_node(backend):
    LastValue, EphemeralValue = backend.channels.LastValue, backend.channels.EphemeralValue
    Pregel, NodeBuilder = backend.pregel.Pregel, backend.pregel.NodeBuilder

    node1 = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b")
    node2 = NodeBuilder().subscribe_only("b").do(lambda x: x + x).write_to("c")
    app = Pregel(
        nodes={"node1": node1, "node2": node2},
        channels={"a": EphemeralValue(str), "b": LastValue(str), "c": EphemeralValue(str)},
        input_channels=["a"],
        output_channels=["b", "c"],
    )
    assert app.invoke({"a": "foo"}) == {"b": "foofoo", "c": "foofoofoofoo"}


def test_pregel_topic_accumulate(backend):
    EphemeralValue, Topic = backend.channels.EphemeralValue, backend.channels.Topic
    Pregel, NodeBuilder = backend.pregel.Pregel, backend.pregel.NodeBuilder

    node1 = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b", "c")
    # subscribe_to (not subscribe_only): the node receives a dict keyed by channel name
    node2 = NodeBuilder().subscribe_to("b").do(lambda x: x["b"] + x["b"]).write_to("c")
    app = Pregel(
        nodes={"node1": node1, "node2": node2},
        channels={
            "a": EphemeralValue(str),
            "b": EphemeralValue(str),
            "c": Topic(str, accumulate=True),
        },
        input_channels=["a"],
        output_channels=["c"],
    )
    assert app.invoke({"a": "foo"}) == {"c": ["foofoo", "foofoofoofoo"]}


def test_pregel_binary_operator_aggregate_reducer(backend):
    EphemeralValue = backend.channels.EphemeralValue
    BinaryOperatorAggregate = backend.channels.BinaryOperatorAggregate
    Pregel, NodeBuilder = backend.pregel.Pregel, backend.pregel.NodeBuilder

    node1 = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b", "c")
    node2 = NodeBuilder().subscribe_only("b").do(lambda x: x + x).write_to("c")

    def reducer(current, update):
        if current:
            return current + " | " + update
        else:
            return update

    app = Pregel(
        nodes={"node1": node1, "node2": node2},
        channels={
            "a": EphemeralValue(str),
            "b": EphemeralValue(str),
            "c": BinaryOperatorAggregate(str, operator=reducer),
        },
        input_channels=["a"],
        output_channels=["c"],
    )
    # the document prints only the value of c: "foofoo | foofoofoofoo"
    assert app.invoke({"a": "foo"}) == {"c": "foofoo | foofoofoofoo"}


def test_pregel_cycle_doc_import_of_channel_write_entry_fails(backend):
    # The document imports ChannelWriteEntry from langgraph.pregel; in langgraph 1.2.24 that
    # raises ImportError (pregel/__init__ exports only Pregel and NodeBuilder).
    with pytest.raises(ImportError):
        exec(f"from {backend.prefix}.pregel import Pregel, NodeBuilder, ChannelWriteEntry", {})


def test_pregel_cycle_skip_none(backend):
    EphemeralValue = backend.channels.EphemeralValue
    Pregel, NodeBuilder = backend.pregel.Pregel, backend.pregel.NodeBuilder
    # langgraph 1.2.24: ChannelWriteEntry is reachable as langgraph.pregel.main.ChannelWriteEntry
    ChannelWriteEntry = backend.mod("pregel.main").ChannelWriteEntry

    example_node = (
        NodeBuilder()
        .subscribe_only("value")
        .do(lambda x: x + x if len(x) < 10 else None)
        .write_to(ChannelWriteEntry("value", skip_none=True))
    )
    app = Pregel(
        nodes={"example_node": example_node},
        channels={"value": EphemeralValue(str)},
        input_channels=["value"],
        output_channels=["value"],
    )
    assert app.invoke({"value": "a"}) == {"value": "aaaaaaaaaaaaaaaa"}
