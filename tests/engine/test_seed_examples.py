"""The runnable examples of the two seed documents, with the outputs they print.

Sources: /work/shared/seeds/000_b6a9fff001268235.txt (Pregel + NodeBuilder examples 1-5 and the
StateGraph "Essay" example) and /work/shared/seeds/001_88db02ee0b1f226e.txt (sections 2 to 5c).
Every test runs on both backends through the `backend` fixture. Where langgraph 1.2.24 prints
something other than the document, the test asserts langgraph and says so in a comment.
"""

from __future__ import annotations

import operator
import re
from typing import Annotated, TypedDict

import pytest

from tests.oracle import normalize

HEX32 = re.compile(r"^[0-9a-f]{32}$")


# --------------------------------------------------------------------------------------------
# Document 000: low-level Pregel API
# --------------------------------------------------------------------------------------------


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


class Essay(TypedDict):
    topic: str
    content: str | None
    score: float | None


def _essay_graph(backend):
    START = backend.constants.START
    StateGraph = backend.graph.StateGraph

    def write_essay(essay: Essay):
        return {"content": f"Essay about {essay['topic']}"}

    def score_essay(essay: Essay):
        return {"score": 10}

    builder = StateGraph(Essay)
    builder.add_node(write_essay)
    builder.add_node(score_essay)
    builder.add_edge(START, "write_essay")
    builder.add_edge("write_essay", "score_essay")
    return builder.compile()


def test_essay_graph_nodes(backend):
    graph = _essay_graph(backend)
    assert list(graph.nodes) == ["__start__", "write_essay", "score_essay"]
    assert {type(n).__name__ for n in graph.nodes.values()} == {"PregelNode"}


def test_essay_graph_channels(backend):
    graph = _essay_graph(backend)
    # The document guesses 'write_essay'/'score_essay' EphemeralValue channels; langgraph
    # 1.2.24 names them branch:to:<node> and also has the __pregel_tasks Topic.
    assert {k: type(v).__name__ for k, v in graph.channels.items()} == {
        "topic": "LastValue",
        "content": "LastValue",
        "score": "LastValue",
        "__start__": "EphemeralValue",
        "__pregel_tasks": "Topic",
        "branch:to:write_essay": "EphemeralValue",
        "branch:to:score_essay": "EphemeralValue",
    }


def test_essay_graph_invoke(backend):
    graph = _essay_graph(backend)
    assert graph.invoke({"topic": "cats"}) == {
        "topic": "cats",
        "content": "Essay about cats",
        "score": 10,
    }


# --------------------------------------------------------------------------------------------
# Document 001, sections 1-3: compile(), the superstep loop, Send
# --------------------------------------------------------------------------------------------


class S(TypedDict):
    total: int  # bare key: one write per superstep
    visited: Annotated[list, operator.add]  # reducer: appends


def a(s):
    return {"total": s["total"] * 2, "visited": ["a"]}


def b(s):
    return {"total": s["total"] + 1, "visited": ["b"]}


def c(s):
    return {"total": 0, "visited": ["c"]}


def route(s):
    return "b" if s["total"] > 5 else "c"


def _two_node(backend, **compile_kwargs):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    g = StateGraph(S)
    g.add_node("a", a)
    g.add_node("b", b)
    g.add_edge(START, "a")
    g.add_edge("a", "b")
    g.add_edge("b", END)
    return g.compile(**compile_kwargs)


def _router_graph(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    g = StateGraph(S)
    g.add_node("a", a)
    g.add_node("b", b)
    g.add_node("c", c)
    g.add_edge(START, "a")
    g.add_conditional_edges("a", route, ["b", "c"])
    g.add_edge("b", END)
    g.add_edge("c", END)
    return g.compile()


def test_compiled_graph_is_a_runnable(backend):
    from langchain_core.runnables import Runnable

    app = _two_node(backend)
    assert isinstance(app, Runnable)
    assert [k.__name__ for k in type(app).__mro__[:3]] == [
        "CompiledStateGraph",
        "Pregel",
        "PregelProtocol",
    ]


def test_two_node_graph_invoke(backend):
    app = _two_node(backend)
    assert app.invoke({"total": 10, "visited": []}) == {"total": 21, "visited": ["a", "b"]}


def test_two_node_graph_inspection(backend):
    app = _two_node(backend)
    channels = {
        name: type(ch).__name__
        for name, ch in app.channels.items()
        if not name.startswith("branch:")
    }
    assert channels == {
        "total": "LastValue",
        "visited": "BinaryOperatorAggregate",
        "__start__": "EphemeralValue",
        "__pregel_tasks": "Topic",
    }
    lines = [
        f"node {name!r}: triggers={node.triggers} bound={type(node.bound).__name__}"
        f" writers={len(node.writers)}"
        for name, node in app.nodes.items()
        if name != "__start__"
    ]
    assert lines == [
        "node 'a': triggers=['branch:to:a'] bound=RunnableCallable writers=2",
        "node 'b': triggers=['branch:to:b'] bound=RunnableCallable writers=1",
    ]
    # what the node reads, as described under the PregelNode listing
    assert app.nodes["a"].channels == ["total", "visited"]
    assert app.nodes["a"].mapper is None


def test_router_graph(backend):
    app = _router_graph(backend)
    assert app.invoke({"total": 10, "visited": []}) == {"total": 21, "visited": ["a", "b"]}
    assert app.invoke({"total": 1, "visited": []}) == {"total": 0, "visited": ["a", "c"]}


def test_router_graph_inspection(backend):
    app = _router_graph(backend)
    assert {k: type(v).__name__ for k, v in app.channels.items()} == {
        "total": "LastValue",
        "visited": "BinaryOperatorAggregate",
        "__start__": "EphemeralValue",
        "__pregel_tasks": "Topic",
        "branch:to:a": "EphemeralValue",
        "branch:to:b": "EphemeralValue",
        "branch:to:c": "EphemeralValue",
    }
    assert {n: node.triggers for n, node in app.nodes.items() if n != "__start__"} == {
        "a": ["branch:to:a"],
        "b": ["branch:to:b"],
        "c": ["branch:to:c"],
    }
    # a: [state write, _route]; b and c: [state write]
    assert {n: len(node.writers) for n, node in app.nodes.items() if n != "__start__"} == {
        "a": 2,
        "b": 1,
        "c": 1,
    }


def test_two_node_stream_updates(backend):
    app = _two_node(backend)
    assert list(app.stream({"total": 10, "visited": []}, stream_mode="updates")) == [
        {"a": {"total": 20, "visited": ["a"]}},
        {"b": {"total": 21, "visited": ["b"]}},
    ]


class SendState(TypedDict):
    items: list
    out: Annotated[list, operator.add]  # reducer, so parallel writes are appended


def _send_graph(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    Send = backend.types.Send

    def fan(s):
        return [Send("work", {"x": i}) for i in s["items"]]

    def work(a):
        return {"out": [a["x"] * 10]}

    g = StateGraph(SendState)
    g.add_node("work", work)
    g.add_conditional_edges(START, fan, ["work"])
    g.add_edge("work", END)
    return g.compile()


def test_send_fan_out_invoke(backend):
    app = _send_graph(backend)
    assert app.invoke({"items": [1, 2, 3], "out": []}) == {"items": [1, 2, 3], "out": [10, 20, 30]}


def test_send_fan_out_debug_task_events(backend):
    app = _send_graph(backend)
    events = list(app.stream({"items": [1, 2, 3], "out": []}, stream_mode="debug"))
    lines = [
        f"task {e['payload']['name']} {e['payload']['input']} step {e['step']}"
        for e in events
        if e["type"] == "task"
    ]
    assert lines == [
        "task work {'x': 1} step 1",
        "task work {'x': 2} step 1",
        "task work {'x': 3} step 1",
    ]
    assert all(
        e["payload"]["triggers"] == ("__pregel_push",) for e in events if e["type"] == "task"
    )
    results = [e["payload"]["result"] for e in events if e["type"] == "task_result"]
    # the three tasks run in parallel: completion order is not deterministic
    assert sorted(r["out"][0] for r in results) == [10, 20, 30]


# --------------------------------------------------------------------------------------------
# Section 5: interrupt / resume
# --------------------------------------------------------------------------------------------


def test_interrupt_and_resume(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    Command, interrupt = backend.types.Command, backend.types.interrupt

    def ask(s):
        answer = interrupt("approve?")
        return {"visited": [f"answer={answer}"]}

    h = StateGraph(S)
    h.add_node("ask", ask)
    h.add_edge(START, "ask")
    h.add_edge("ask", END)
    happ = h.compile(checkpointer=InMemorySaver())
    cfg = {"configurable": {"thread_id": "t"}}

    first = happ.invoke({"total": 0, "visited": []}, cfg)
    assert set(first) == {"total", "visited", "__interrupt__"}
    assert first["total"] == 0 and first["visited"] == []
    assert isinstance(first["__interrupt__"], list) and len(first["__interrupt__"]) == 1
    intr = first["__interrupt__"][0]
    assert type(intr).__name__ == "Interrupt"
    assert intr.value == "approve?"
    assert HEX32.match(intr.id), intr.id
    # langgraph 1.2.24's repr also shows response_schema=None (the document shortened the id)
    assert normalize(repr(intr)) == "Interrupt(value='approve?', id='<id>', response_schema=None)"

    assert happ.get_state(cfg).next == ("ask",)
    assert happ.invoke(Command(resume="yes"), cfg) == {"total": 0, "visited": ["answer=yes"]}
    assert happ.get_state(cfg).next == ()


# --------------------------------------------------------------------------------------------
# Section 5b: checkpoints
# --------------------------------------------------------------------------------------------


def _checkpointed_run(backend):
    saver = backend.mod("checkpoint.memory").InMemorySaver()
    app = _two_node(backend, checkpointer=saver)
    cfg = {"configurable": {"thread_id": "1"}}
    out = app.invoke({"total": 10, "visited": []}, cfg)
    return app, saver, cfg, out


def test_checkpoint_listing(backend):
    _app, saver, cfg, out = _checkpointed_run(backend)
    assert out == {"total": 21, "visited": ["a", "b"]}
    tuples = list(saver.list(cfg))  # newest first
    rows = [
        (t.metadata["step"], t.metadata["source"], t.checkpoint["channel_values"])
        for t in reversed(tuples)
    ]
    # The document hides them, but langgraph 1.2.24 keeps 'branch:to:X': None in channel_values.
    assert rows == [
        (-1, "input", {"__start__": {"total": 10, "visited": []}}),
        (0, "loop", {"total": 10, "visited": [], "branch:to:a": None}),
        (1, "loop", {"total": 20, "visited": ["a"], "branch:to:b": None}),
        (2, "loop", {"total": 21, "visited": ["a", "b"]}),
    ]


def test_checkpoint_versions(backend):
    _app, saver, cfg, _out = _checkpointed_run(backend)
    last = next(iter(saver.list(cfg))).checkpoint
    assert sorted(last) == [
        "channel_values",
        "channel_versions",
        "id",
        "ts",
        "updated_channels",
        "v",
        "versions_seen",
    ]
    assert sorted(last["versions_seen"]) == ["__input__", "__start__", "a", "b"]
    # real versions are "<zero-padded counter>.<random suffix>"; the document shortened them
    assert {k: int(str(v).split(".")[0]) for k, v in last["channel_versions"].items()} == {
        "__start__": 2,
        "total": 4,
        "visited": 4,
        "branch:to:a": 3,
        "branch:to:b": 4,
    }
    assert list(last["channel_versions"]) == [
        "__start__",
        "total",
        "visited",
        "branch:to:a",
        "branch:to:b",
    ]
    # what each node consumed, by counter
    seen = {
        node: {ch: int(str(v).split(".")[0]) for ch, v in chans.items()}
        for node, chans in last["versions_seen"].items()
    }
    assert seen == {
        "__input__": {},
        "__start__": {"__start__": 1},
        "a": {"branch:to:a": 2},
        "b": {"branch:to:b": 3},
    }


def test_state_snapshot_fields(backend):
    app, _saver, cfg, _out = _checkpointed_run(backend)
    snap = app.get_state(cfg)
    for field in (
        "values",
        "next",
        "config",
        "metadata",
        "created_at",
        "parent_config",
        "tasks",
        "interrupts",
    ):
        assert hasattr(snap, field), field
    assert snap.values == {"total": 21, "visited": ["a", "b"]}
    assert snap.next == ()
    history = list(app.get_state_history(cfg))
    assert [(h.metadata["step"], h.next) for h in history] == [
        (2, ()),
        (1, ("b",)),
        (0, ("a",)),
        (-1, ("__start__",)),
    ]


# --------------------------------------------------------------------------------------------
# Section 5c: conflicts, Command, subgraphs, retry, time travel, store
# --------------------------------------------------------------------------------------------


def test_two_parallel_writers_to_last_value(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    InvalidUpdateError = backend.errors.InvalidUpdateError

    class T(TypedDict):
        total: int

    g = StateGraph(T)
    g.add_node("a", lambda s: {"total": 1})
    g.add_node("b", lambda s: {"total": 1})
    g.add_edge(START, "a")
    g.add_edge(START, "b")
    g.add_edge("a", END)
    g.add_edge("b", END)
    with pytest.raises(InvalidUpdateError) as info:
        g.compile().invoke({"total": 0})
    # langgraph 1.2.24 appends a troubleshooting link to the document's message
    assert str(info.value) == (
        "At key 'total': Can receive only one value per step. Use an Annotated key to handle "
        "multiple values.\nFor troubleshooting, visit: "
        "https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CONCURRENT_GRAPH_UPDATE"
    )


def test_two_parallel_writers_with_reducer(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END

    class T(TypedDict):
        total: Annotated[list, operator.add]

    g = StateGraph(T)
    g.add_node("a", lambda s: {"total": ["a"]})
    g.add_node("b", lambda s: {"total": ["b"]})
    g.add_edge(START, "a")
    g.add_edge(START, "b")
    g.add_edge("a", END)
    g.add_edge("b", END)
    assert g.compile().invoke({"total": []}) == {"total": ["a", "b"]}


class C(TypedDict):
    total: int
    out: Annotated[list, operator.add]


def test_command_update_and_goto(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    Command = backend.types.Command

    def router(s):
        return Command(update={"out": ["r"]}, goto="t")

    g = StateGraph(C)
    g.add_node("r", router)
    g.add_node("t", lambda s: {"out": ["t"]})
    g.add_edge(START, "r")
    g.add_edge("t", END)  # note: no edge from r to t
    assert g.compile().invoke({"total": 0, "out": []}) == {"total": 0, "out": ["r", "t"]}


def test_subgraph_stream_namespaces(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    child = StateGraph(C)
    child.add_node("t", lambda s: {"out": ["t"]})
    child.add_edge(START, "t")
    child.add_edge("t", END)

    parent = StateGraph(C)
    parent.add_node("child", child.compile())
    parent.add_edge(START, "child")
    parent.add_edge("child", END)
    app = parent.compile(checkpointer=InMemorySaver())

    cfg = {"configurable": {"thread_id": "1"}}
    events = list(app.stream({"total": 0, "out": []}, cfg, subgraphs=True))
    assert normalize(events) == [
        (("child:<uuid>",), {"t": {"out": ["t"]}}),
        ((), {"child": {"total": 0, "out": ["t"]}}),
    ]


def test_retry_policy_flaky_node(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    RetryPolicy = backend.types.RetryPolicy
    n = {"i": 0}

    def flaky(s):
        n["i"] += 1
        if n["i"] < 3:
            raise ValueError("boom")  # fails twice, then works
        return {"out": ["ok"]}

    g = StateGraph(C)
    g.add_node("f", flaky, retry_policy=RetryPolicy(retry_on=ValueError, initial_interval=0.01))
    g.add_edge(START, "f")
    g.add_edge("f", END)
    assert g.compile().invoke({"total": 0, "out": []}) == {"total": 0, "out": ["ok"]}
    assert n["i"] == 3


def test_retry_policy_default_does_not_retry_value_error(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    RetryPolicy = backend.types.RetryPolicy
    n = {"i": 0}

    def flaky(s):
        n["i"] += 1
        raise ValueError("boom")

    g = StateGraph(C)
    g.add_node("f", flaky, retry_policy=RetryPolicy(initial_interval=0.01))
    g.add_edge(START, "f")
    g.add_edge("f", END)
    with pytest.raises(ValueError) as info:
        g.compile().invoke({"total": 0, "out": []})
    assert str(info.value) == "boom"
    assert n["i"] == 1


def test_time_travel(backend):
    app, _saver, cfg, _out = _checkpointed_run(backend)
    before_b = next(s for s in app.get_state_history(cfg) if s.next == ("b",))
    assert before_b.values == {"total": 20, "visited": ["a"]}
    assert app.invoke(None, before_b.config) == {"total": 21, "visited": ["a", "b"]}


def test_in_memory_store(backend):
    InMemoryStore = backend.mod("store.memory").InMemoryStore
    store = InMemoryStore()
    store.put(("users", "tamir"), "pref", {"lang": "zh"})
    item = store.get(("users", "tamir"), "pref")
    assert (item.namespace, item.key, item.value) == (("users", "tamir"), "pref", {"lang": "zh"})
    assert store.get(("users", "other"), "pref") is None
