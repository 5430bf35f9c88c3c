"""Differential tests of streaming: every stream mode, several at once, version="v2",
subgraph namespaces, async variants and LLM token streaming ("messages").

Run-specific ids (task ids, checkpoint ids, the uuid in "child:<uuid>") go through
tests.oracle.normalize; debug timestamps are dropped. Chunks of a parallel superstep are
compared without depending on completion order.
"""

import operator
from typing import Annotated, TypedDict

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage

from tests.oracle import normalize


class S(TypedDict):
    log: Annotated[list, operator.add]
    n: int


def _scrub(value):
    """normalize() plus: drop debug timestamps."""
    if isinstance(value, dict):
        return {k: _scrub(v) for k, v in value.items() if k != "timestamp"}
    if isinstance(value, (list, tuple)):
        items = [_scrub(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    return normalize(value)


def _linear(backend, **compile_kwargs):
    """a (writes custom data, increments n) -> b."""
    StateGraph, START = backend.graph.StateGraph, backend.graph.START
    get_stream_writer = backend.config.get_stream_writer

    def a(s):
        writer = get_stream_writer()
        writer({"progress": "a-start"})
        writer("plain string")
        return {"log": ["a"], "n": s["n"] + 1}

    def b(s):
        return {"log": ["b"]}

    g = StateGraph(S)
    g.add_node("a", a)
    g.add_node("b", b)
    g.add_edge(START, "a")
    g.add_edge("a", "b")
    return g.compile(**compile_kwargs)


def _parallel(backend):
    """START -> (x, y) in parallel -> z."""
    StateGraph, START = backend.graph.StateGraph, backend.graph.START
    g = StateGraph(S)
    g.add_node("x", lambda s: {"log": ["x"]})
    g.add_node("y", lambda s: {"log": ["y"]})
    g.add_node("z", lambda s: {"log": ["z"]})
    g.add_edge(START, "x")
    g.add_edge(START, "y")
    g.add_edge(["x", "y"], "z")
    return g.compile()


INPUT = {"log": [], "n": 0}


# --------------------------------------------------------------------------------------------
# single modes
# --------------------------------------------------------------------------------------------


def test_stream_values(backend):
    assert list(_linear(backend).stream(INPUT, stream_mode="values")) == [
        {"log": [], "n": 0},
        {"log": ["a"], "n": 1},
        {"log": ["a", "b"], "n": 1},
    ]


def test_stream_default_mode_is_updates(backend):
    assert list(_linear(backend).stream(INPUT)) == [
        {"a": {"log": ["a"], "n": 1}},
        {"b": {"log": ["b"]}},
    ]


def test_stream_updates(backend):
    assert list(_linear(backend).stream(INPUT, stream_mode="updates")) == [
        {"a": {"log": ["a"], "n": 1}},
        {"b": {"log": ["b"]}},
    ]


def test_stream_updates_parallel_step_any_order(backend):
    chunks = list(_parallel(backend).stream(INPUT, stream_mode="updates"))
    assert sorted(map(repr, chunks[:2])) == ["{'x': {'log': ['x']}}", "{'y': {'log': ['y']}}"]
    assert chunks[2:] == [{"z": {"log": ["z"]}}]
    # the reducer order is deterministic though
    assert _parallel(backend).invoke(INPUT) == {"log": ["x", "y", "z"], "n": 0}


def test_stream_values_parallel_step(backend):
    assert list(_parallel(backend).stream(INPUT, stream_mode="values")) == [
        {"log": [], "n": 0},
        {"log": ["x", "y"], "n": 0},
        {"log": ["x", "y", "z"], "n": 0},
    ]


def test_stream_updates_node_returning_none(backend):
    StateGraph, START = backend.graph.StateGraph, backend.graph.START
    g = StateGraph(S)
    g.add_node("a", lambda s: None)
    g.add_edge(START, "a")
    app = g.compile()
    assert list(app.stream(INPUT, stream_mode="updates")) == [{"a": None}]
    # nothing was written in the step, so no second values chunk
    assert list(app.stream(INPUT, stream_mode="values")) == [{"log": [], "n": 0}]


def test_stream_updates_command_and_send(backend):
    StateGraph, START = backend.graph.StateGraph, backend.graph.START
    Command, Send = backend.types.Command, backend.types.Send
    g = StateGraph(S)
    g.add_node("a", lambda s: Command(update={"log": ["a"]}, goto="b"))
    g.add_node("b", lambda s: Command(goto=[Send("w", 1), Send("w", 2)]))
    g.add_node("w", lambda arg: {"log": [arg]})
    g.add_edge(START, "a")
    chunks = list(g.compile().stream(INPUT, stream_mode="updates"))
    assert chunks[:2] == [{"a": {"log": ["a"]}}, {"b": None}]
    assert sorted(map(repr, chunks[2:])) == ["{'w': {'log': [1]}}", "{'w': {'log': [2]}}"]


def test_stream_custom(backend):
    assert list(_linear(backend).stream(INPUT, stream_mode="custom")) == [
        {"progress": "a-start"},
        "plain string",
    ]


def _runtime_async_app(backend):
    StateGraph, START = backend.graph.StateGraph, backend.graph.START
    Runtime = backend.runtime.Runtime
    get_stream_writer = backend.config.get_stream_writer

    def rt(s, runtime: Runtime):
        runtime.stream_writer({"rt": 1})
        return {"log": ["rt"]}

    async def an(s):
        get_stream_writer()("async-custom")
        return {"log": ["an"]}

    g = StateGraph(S)
    g.add_node("rt", rt)
    g.add_node("an", an)
    g.add_edge(START, "rt")
    g.add_edge("rt", "an")
    return g.compile()


async def test_astream_custom_via_runtime_and_async_node(backend):
    app = _runtime_async_app(backend)
    chunks = [c async for c in app.astream(INPUT, stream_mode=["custom", "updates"])]
    assert chunks == [
        ("custom", {"rt": 1}),
        ("updates", {"rt": {"log": ["rt"]}}),
        ("custom", "async-custom"),
        ("updates", {"an": {"log": ["an"]}}),
    ]


def test_stream_tasks(backend):
    chunks = list(_linear(backend).stream(INPUT, stream_mode="tasks"))
    assert _scrub(chunks) == [
        {
            "id": "<uuid>",
            "name": "a",
            "input": {"log": [], "n": 0},
            "triggers": ("branch:to:a",),
        },
        {
            "id": "<uuid>",
            "name": "a",
            "error": None,
            "result": {"log": ["a"], "n": 1},
            "interrupts": [],
        },
        {
            "id": "<uuid>",
            "name": "b",
            "input": {"log": ["a"], "n": 1},
            "triggers": ("branch:to:b",),
        },
        {"id": "<uuid>", "name": "b", "error": None, "result": {"log": ["b"]}, "interrupts": []},
    ]
    # a task's start and result events carry the same id; different tasks differ
    assert chunks[0]["id"] == chunks[1]["id"] != chunks[2]["id"] == chunks[3]["id"]


def test_stream_tasks_send_inputs(backend):
    StateGraph, START = backend.graph.StateGraph, backend.graph.START
    Send = backend.types.Send
    g = StateGraph(S)
    g.add_node("w", lambda arg: {"log": [arg["x"]]})
    g.add_conditional_edges(START, lambda s: [Send("w", {"x": i}) for i in (1, 2)], ["w"])
    chunks = list(g.compile().stream(INPUT, stream_mode="tasks"))
    starts = [c for c in chunks if "input" in c]
    # both tasks are announced before either runs, in Send order
    assert [(c["name"], c["input"], c["triggers"]) for c in chunks[:2]] == [
        ("w", {"x": 1}, ("__pregel_push",)),
        ("w", {"x": 2}, ("__pregel_push",)),
    ]
    assert len(starts) == 2
    results = sorted((c["result"]["log"], c["error"]) for c in chunks if "result" in c)
    assert results == [([1], None), ([2], None)]


def test_stream_tasks_with_none_result(backend):
    StateGraph, START = backend.graph.StateGraph, backend.graph.START
    g = StateGraph(S)
    g.add_node("a", lambda s: None)
    g.add_edge(START, "a")
    chunks = list(g.compile().stream(INPUT, stream_mode="tasks"))
    assert _scrub(chunks[1]) == {
        "id": "<uuid>",
        "name": "a",
        "error": None,
        "result": {},
        "interrupts": [],
    }


def test_stream_checkpoints_without_checkpointer_is_empty(backend):
    assert list(_linear(backend).stream(INPUT, stream_mode="checkpoints")) == []


def _ckpt_event(step, source, nxt, values, tasks, thread, parent=True):
    cfg = {"configurable": {"checkpoint_id": "<uuid>", "checkpoint_ns": "", "thread_id": thread}}
    return {
        "config": cfg,
        "metadata": {"parents": {}, "source": source, "step": step},
        "next": nxt,
        "parent_config": cfg if parent else None,
        "tasks": [{"id": "<uuid>", "interrupts": (), "name": t, "state": None} for t in tasks],
        "values": values,
    }


def test_stream_checkpoints(backend):
    saver = backend.mod("checkpoint.memory").InMemorySaver()
    app = _linear(backend, checkpointer=saver)
    cfg = {"configurable": {"thread_id": "t1"}}
    chunks = list(app.stream(INPUT, cfg, stream_mode="checkpoints"))
    assert _scrub(chunks) == [
        _ckpt_event(-1, "input", ["__start__"], {"log": []}, ["__start__"], "t1", parent=False),
        _ckpt_event(0, "loop", ["a"], {"log": [], "n": 0}, ["a"], "t1"),
        _ckpt_event(1, "loop", ["b"], {"log": ["a"], "n": 1}, ["b"], "t1"),
        _ckpt_event(2, "loop", [], {"log": ["a", "b"], "n": 1}, [], "t1"),
    ]
    # each checkpoint's parent is the previous one, and the last is what get_state returns
    ids = [c["config"]["configurable"]["checkpoint_id"] for c in chunks]
    parents = [c["parent_config"] for c in chunks]
    assert parents[0] is None
    assert [p["configurable"]["checkpoint_id"] for p in parents[1:]] == ids[:-1]
    assert app.get_state(cfg).config["configurable"]["checkpoint_id"] == ids[-1]


def test_stream_debug_without_checkpointer(backend):
    chunks = list(_linear(backend).stream(INPUT, stream_mode="debug"))
    assert _scrub(chunks) == [
        {
            "step": 1,
            "type": "task",
            "payload": {
                "id": "<uuid>",
                "name": "a",
                "input": {"log": [], "n": 0},
                "triggers": ("branch:to:a",),
            },
        },
        {
            "step": 1,
            "type": "task_result",
            "payload": {
                "id": "<uuid>",
                "name": "a",
                "error": None,
                "result": {"log": ["a"], "n": 1},
                "interrupts": [],
            },
        },
        {
            "step": 2,
            "type": "task",
            "payload": {
                "id": "<uuid>",
                "name": "b",
                "input": {"log": ["a"], "n": 1},
                "triggers": ("branch:to:b",),
            },
        },
        {
            "step": 2,
            "type": "task_result",
            "payload": {
                "id": "<uuid>",
                "name": "b",
                "error": None,
                "result": {"log": ["b"]},
                "interrupts": [],
            },
        },
    ]
    assert all(isinstance(c["timestamp"], str) for c in chunks)


def test_stream_debug_with_checkpointer(backend):
    saver = backend.mod("checkpoint.memory").InMemorySaver()
    app = _linear(backend, checkpointer=saver)
    chunks = list(app.stream(INPUT, {"configurable": {"thread_id": "d"}}, stream_mode="debug"))
    assert [(c["type"], c["step"]) for c in chunks] == [
        ("checkpoint", -1),
        ("checkpoint", 0),
        ("task", 1),
        ("task_result", 1),
        ("checkpoint", 1),
        ("task", 2),
        ("task_result", 2),
        ("checkpoint", 2),
    ]
    assert _scrub(chunks[1]["payload"]) == _ckpt_event(
        0, "loop", ["a"], {"log": [], "n": 0}, ["a"], "d"
    )
    # the task announced in a checkpoint is the task that then runs
    assert chunks[1]["payload"]["tasks"][0]["id"] == chunks[2]["payload"]["id"]


# --------------------------------------------------------------------------------------------
# several modes, version="v2"
# --------------------------------------------------------------------------------------------


def test_stream_several_modes_gives_tuples(backend):
    chunks = list(_linear(backend).stream(INPUT, stream_mode=["updates", "custom", "values"]))
    assert chunks == [
        ("values", {"log": [], "n": 0}),
        ("custom", {"progress": "a-start"}),
        ("custom", "plain string"),
        ("updates", {"a": {"log": ["a"], "n": 1}}),
        ("values", {"log": ["a"], "n": 1}),
        ("updates", {"b": {"log": ["b"]}}),
        ("values", {"log": ["a", "b"], "n": 1}),
    ]


def test_stream_list_of_one_mode_still_gives_tuples(backend):
    assert list(_linear(backend).stream(INPUT, stream_mode=["updates"])) == [
        ("updates", {"a": {"log": ["a"], "n": 1}}),
        ("updates", {"b": {"log": ["b"]}}),
    ]


def test_stream_tasks_and_updates_interleaving(backend):
    chunks = list(_linear(backend).stream(INPUT, stream_mode=["tasks", "updates"]))
    assert [(mode, c.get("name") if mode == "tasks" else list(c)) for mode, c in chunks] == [
        ("tasks", "a"),
        ("updates", ["a"]),
        ("tasks", "a"),
        ("tasks", "b"),
        ("updates", ["b"]),
        ("tasks", "b"),
    ]


def test_stream_v2_parts(backend):
    chunks = list(_linear(backend).stream(INPUT, stream_mode=["updates", "custom"], version="v2"))
    assert chunks == [
        {"type": "custom", "ns": (), "data": {"progress": "a-start"}},
        {"type": "custom", "ns": (), "data": "plain string"},
        {"type": "updates", "ns": (), "data": {"a": {"log": ["a"], "n": 1}}},
        {"type": "updates", "ns": (), "data": {"b": {"log": ["b"]}}},
    ]


def test_stream_v2_single_mode_and_values_interrupts_key(backend):
    app = _linear(backend)
    assert list(app.stream(INPUT, stream_mode="updates", version="v2")) == [
        {"type": "updates", "ns": (), "data": {"a": {"log": ["a"], "n": 1}}},
        {"type": "updates", "ns": (), "data": {"b": {"log": ["b"]}}},
    ]
    assert list(app.stream(INPUT, stream_mode="values", version="v2")) == [
        {"type": "values", "ns": (), "data": {"log": [], "n": 0}, "interrupts": ()},
        {"type": "values", "ns": (), "data": {"log": ["a"], "n": 1}, "interrupts": ()},
        {"type": "values", "ns": (), "data": {"log": ["a", "b"], "n": 1}, "interrupts": ()},
    ]


def _interrupting(backend):
    StateGraph, START = backend.graph.StateGraph, backend.graph.START
    interrupt = backend.types.interrupt
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    def ask(s):
        return {"log": [interrupt({"q": "ok?"})]}

    g = StateGraph(S)
    g.add_node("ask", ask)
    g.add_edge(START, "ask")
    return g.compile(checkpointer=InMemorySaver())


def test_stream_interrupt_chunks(backend):
    app = _interrupting(backend)
    updates = list(app.stream(INPUT, {"configurable": {"thread_id": "u"}}, stream_mode="updates"))
    assert normalize(updates) == [{"__interrupt__": (("Interrupt", {"q": "ok?"}),)}]
    assert isinstance(updates[0]["__interrupt__"], tuple)
    values = list(app.stream(INPUT, {"configurable": {"thread_id": "v"}}, stream_mode="values"))
    assert normalize(values) == [
        {"log": [], "n": 0},
        {"log": [], "n": 0, "__interrupt__": (("Interrupt", {"q": "ok?"}),)},
    ]


def test_stream_v2_interrupts(backend):
    app = _interrupting(backend)
    cfg = {"configurable": {"thread_id": "v2"}}
    chunks = list(app.stream(INPUT, cfg, stream_mode=["values", "updates"], version="v2"))
    intr = (("Interrupt", {"q": "ok?"}),)
    assert normalize(chunks) == [
        {"type": "values", "ns": (), "data": {"log": [], "n": 0}, "interrupts": ()},
        {"type": "updates", "ns": (), "data": {"__interrupt__": intr}},
        {"type": "values", "ns": (), "data": {"log": [], "n": 0}, "interrupts": intr},
    ]


def test_invoke_v2_returns_graph_output(backend):
    app = _linear(backend)
    out = app.invoke(INPUT, version="v2")
    assert type(out).__name__ == "GraphOutput"
    assert out.value == {"log": ["a", "b"], "n": 1}
    assert out.interrupts == ()


def test_invoke_v2_with_interrupt_and_resume(backend):
    app = _interrupting(backend)
    Command = backend.types.Command
    cfg = {"configurable": {"thread_id": "iv2"}}
    out = app.invoke(INPUT, cfg, version="v2")
    assert out.value == {"log": [], "n": 0}  # no __interrupt__ key in v2 values
    assert normalize(out.interrupts) == (("Interrupt", {"q": "ok?"}),)
    resumed = app.invoke(Command(resume="yes"), cfg, version="v2")
    assert (resumed.value, resumed.interrupts) == ({"log": ["yes"], "n": 0}, ())


def test_invoke_v1_interrupt_is_a_list(backend):
    app = _interrupting(backend)
    out = app.invoke(INPUT, {"configurable": {"thread_id": "iv1"}})
    assert isinstance(out["__interrupt__"], list)
    assert normalize(out) == {"log": [], "n": 0, "__interrupt__": [("Interrupt", {"q": "ok?"})]}


def test_invoke_with_stream_mode_returns_list(backend):
    app = _linear(backend)
    assert app.invoke(INPUT, stream_mode="updates") == [
        {"a": {"log": ["a"], "n": 1}},
        {"b": {"log": ["b"]}},
    ]
    assert app.invoke(INPUT, stream_mode="updates", version="v2") == [
        {"type": "updates", "ns": (), "data": {"a": {"log": ["a"], "n": 1}}},
        {"type": "updates", "ns": (), "data": {"b": {"log": ["b"]}}},
    ]


# --------------------------------------------------------------------------------------------
# subgraphs
# --------------------------------------------------------------------------------------------


def _nested(backend):
    StateGraph, START = backend.graph.StateGraph, backend.graph.START
    get_stream_writer = backend.config.get_stream_writer

    class L(TypedDict):
        log: Annotated[list, operator.add]

    def inner(s):
        get_stream_writer()({"from": "inner"})
        return {"log": ["inner"]}

    child = StateGraph(L)
    child.add_node("inner", inner)
    child.add_edge(START, "inner")
    parent = StateGraph(L)
    parent.add_node("pre", lambda s: {"log": ["pre"]})
    parent.add_node("child", child.compile())
    parent.add_edge(START, "pre")
    parent.add_edge("pre", "child")
    return parent.compile(), child


def test_stream_subgraphs_namespaces(backend):
    app, _ = _nested(backend)
    chunks = list(app.stream({"log": []}, subgraphs=True))
    assert normalize(chunks) == [
        ((), {"pre": {"log": ["pre"]}}),
        (("child:<uuid>",), {"inner": {"log": ["inner"]}}),
        ((), {"child": {"log": ["pre", "inner"]}}),
    ]


def test_stream_subgraphs_several_modes(backend):
    app, _ = _nested(backend)
    chunks = list(
        app.stream({"log": []}, subgraphs=True, stream_mode=["updates", "custom", "values"])
    )
    ns = ("child:<uuid>",)
    # the child's output {'log': ['pre', 'inner']} goes through the parent's reducer
    assert normalize(chunks) == [
        ((), "values", {"log": []}),
        ((), "updates", {"pre": {"log": ["pre"]}}),
        ((), "values", {"log": ["pre"]}),
        (ns, "values", {"log": ["pre"]}),
        (ns, "custom", {"from": "inner"}),
        (ns, "updates", {"inner": {"log": ["inner"]}}),
        (ns, "values", {"log": ["pre", "inner"]}),
        ((), "updates", {"child": {"log": ["pre", "inner"]}}),
        ((), "values", {"log": ["pre", "pre", "inner"]}),
    ]
    # one namespace for the whole child run
    assert len({c[0] for c in chunks if c[0]}) == 1


def test_stream_subgraphs_v2(backend):
    app, _ = _nested(backend)
    chunks = list(
        app.stream({"log": []}, subgraphs=True, stream_mode=["updates", "custom"], version="v2")
    )
    assert normalize(chunks) == [
        {"type": "updates", "ns": (), "data": {"pre": {"log": ["pre"]}}},
        {"type": "custom", "ns": ("child:<uuid>",), "data": {"from": "inner"}},
        {"type": "updates", "ns": ("child:<uuid>",), "data": {"inner": {"log": ["inner"]}}},
        {"type": "updates", "ns": (), "data": {"child": {"log": ["pre", "inner"]}}},
    ]


def test_stream_without_subgraphs_hides_child_custom_data(backend):
    app, _ = _nested(backend)
    assert list(app.stream({"log": []}, stream_mode="custom")) == []
    assert list(app.stream({"log": []}, stream_mode=["updates", "custom"], version="v2")) == [
        {"type": "updates", "ns": (), "data": {"pre": {"log": ["pre"]}}},
        {"type": "updates", "ns": (), "data": {"child": {"log": ["pre", "inner"]}}},
    ]


def test_stream_subgraph_invoked_inside_a_node(backend):
    StateGraph, START = backend.graph.StateGraph, backend.graph.START
    _, child = _nested(backend)
    compiled_child = child.compile()

    class L(TypedDict):
        log: Annotated[list, operator.add]

    def wrap(s):
        return {"log": compiled_child.invoke({"log": []})["log"]}

    g = StateGraph(L)
    g.add_node("wrap", wrap)
    g.add_edge(START, "wrap")
    chunks = list(g.compile().stream({"log": []}, subgraphs=True))
    assert normalize(chunks) == [
        (("wrap:<uuid>",), {"inner": {"log": ["inner"]}}),
        ((), {"wrap": {"log": ["inner"]}}),
    ]


# --------------------------------------------------------------------------------------------
# async
# --------------------------------------------------------------------------------------------


async def test_astream_and_ainvoke(backend):
    app = _linear(backend)
    assert [c async for c in app.astream(INPUT, stream_mode="updates")] == [
        {"a": {"log": ["a"], "n": 1}},
        {"b": {"log": ["b"]}},
    ]
    assert [c async for c in app.astream(INPUT, stream_mode=["custom"], version="v2")] == [
        {"type": "custom", "ns": (), "data": {"progress": "a-start"}},
        {"type": "custom", "ns": (), "data": "plain string"},
    ]
    assert await app.ainvoke(INPUT) == {"log": ["a", "b"], "n": 1}
    out = await app.ainvoke(INPUT, version="v2")
    assert (out.value, out.interrupts) == ({"log": ["a", "b"], "n": 1}, ())


async def test_astream_subgraphs(backend):
    app, _ = _nested(backend)
    chunks = [c async for c in app.astream({"log": []}, subgraphs=True)]
    assert normalize(chunks) == [
        ((), {"pre": {"log": ["pre"]}}),
        (("child:<uuid>",), {"inner": {"log": ["inner"]}}),
        ((), {"child": {"log": ["pre", "inner"]}}),
    ]


async def test_astream_parallel_values(backend):
    app = _parallel(backend)
    assert [c async for c in app.astream(INPUT, stream_mode="values")] == [
        {"log": [], "n": 0},
        {"log": ["x", "y"], "n": 0},
        {"log": ["x", "y", "z"], "n": 0},
    ]


# --------------------------------------------------------------------------------------------
# messages (LLM tokens)
# --------------------------------------------------------------------------------------------


def _chat_app(backend):
    StateGraph, START = backend.graph.StateGraph, backend.graph.START
    MessagesState = backend.graph.MessagesState

    def chat(s):
        model = GenericFakeChatModel(messages=iter([AIMessage(content="a b")]))
        return {"messages": [model.invoke(s["messages"])]}

    def chat2(s):
        model = GenericFakeChatModel(messages=iter([AIMessage(content="c d")]))
        return {"messages": [model.invoke(s["messages"])]}

    def direct(s):
        return {"messages": [AIMessage("direct", id="d1")]}

    g = StateGraph(MessagesState)
    g.add_node("chat", chat)
    g.add_node("chat2", chat2)
    g.add_node("direct", direct)
    g.add_edge(START, "chat")
    g.add_edge("chat", "chat2")
    g.add_edge("chat2", "direct")
    return g.compile()


MSG_ROWS = [
    ("AIMessageChunk", "a", "chat", 1),
    ("AIMessageChunk", " ", "chat", 1),
    ("AIMessageChunk", "b", "chat", 1),
    ("AIMessageChunk", "c", "chat2", 2),
    ("AIMessageChunk", " ", "chat2", 2),
    ("AIMessageChunk", "d", "chat2", 2),
    # a message a node returns without streaming it is emitted whole, once
    ("AIMessage", "direct", "direct", 3),
]


def _rows(chunks):
    return [
        (type(m).__name__, m.content, meta["langgraph_node"], meta["langgraph_step"])
        for m, meta in chunks
    ]


def test_stream_messages(backend):
    chunks = list(
        _chat_app(backend).stream(
            {"messages": [HumanMessage("hi", id="h1")]}, stream_mode="messages"
        )
    )
    # the input HumanMessage is not streamed
    assert _rows(chunks) == MSG_ROWS
    for _msg, meta in chunks[:6]:
        assert {
            "langgraph_step",
            "langgraph_node",
            "langgraph_triggers",
            "langgraph_path",
            "langgraph_checkpoint_ns",
            "checkpoint_ns",
        } <= set(meta)
        assert meta["checkpoint_ns"] == meta["langgraph_checkpoint_ns"]
    first_meta = chunks[0][1]
    assert first_meta["langgraph_triggers"] == ("branch:to:chat",)
    assert first_meta["langgraph_path"] == ("__pregel_pull", "chat")
    assert normalize(first_meta["langgraph_checkpoint_ns"]) == "chat:<uuid>"
    # a message returned by a node (no model callback) gets only the graph's metadata
    assert normalize(chunks[6][1]) == {
        "ls_integration": "langgraph",
        "langgraph_step": 3,
        "langgraph_node": "direct",
        "langgraph_triggers": ("branch:to:direct",),
        "langgraph_path": ("__pregel_pull", "direct"),
        "langgraph_checkpoint_ns": "direct:<uuid>",
    }
    # the chunks of one model call share one message id
    assert len({m.id for m, _ in chunks[:3]}) == 1
    assert chunks[6][0].id == "d1"


def test_stream_messages_final_state(backend):
    out = _chat_app(backend).invoke({"messages": [HumanMessage("hi", id="h1")]})
    assert [(type(m).__name__, m.content) for m in out["messages"]] == [
        ("HumanMessage", "hi"),
        ("AIMessage", "a b"),
        ("AIMessage", "c d"),
        ("AIMessage", "direct"),
    ]


def test_stream_messages_v2(backend):
    chunks = list(
        _chat_app(backend).stream(
            {"messages": [HumanMessage("hi", id="h1")]}, stream_mode="messages", version="v2"
        )
    )
    assert {(c["type"], c["ns"]) for c in chunks} == {("messages", ())}
    assert all(isinstance(c["data"], tuple) and len(c["data"]) == 2 for c in chunks)
    assert _rows(c["data"] for c in chunks) == MSG_ROWS


async def test_astream_messages(backend):
    app = _chat_app(backend)
    chunks = [
        c
        async for c in app.astream(
            {"messages": [HumanMessage("hi", id="h1")]}, stream_mode="messages"
        )
    ]
    assert _rows(chunks) == MSG_ROWS
