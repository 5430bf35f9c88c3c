"""Differential tests of streaming: every stream mode, several at once, version="v2", interrupts
in the stream, async variants (subgraphs: test_diff_stream_subgraphs.py; LLM tokens:
test_diff_stream_messages.py).

Run-specific ids (task ids, checkpoint ids) go through tests.oracle.normalize; debug timestamps
are dropped. Chunks of a parallel superstep are compared without depending on completion order.
"""

import operator
from typing import Annotated, TypedDict

import pytest

from tests.engine.graphs import TopicState, _chain, _sg, _sub_parent
from tests.oracle import normalize, run_both


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


async def test_astream_parallel_values(backend):
    app = _parallel(backend)
    assert [c async for c in app.astream(INPUT, stream_mode="values")] == [
        {"log": [], "n": 0},
        {"log": ["x", "y"], "n": 0},
        {"log": ["x", "y", "z"], "n": 0},
    ]


def _topic_graph(backend):
    get_stream_writer = backend.config.get_stream_writer
    State = TopicState

    def refine_topic(state: State):
        writer = get_stream_writer()
        writer({"status": "processing...", "progress": 50})
        return {"topic": state["topic"] + " and cats"}

    def generate_joke(state: State):
        return {"joke": f"This is a joke about {state['topic']}"}

    return _chain(backend, State, refine_topic, generate_joke)


def test_stream_updates_and_custom_v2(backend, capsys):
    graph = _topic_graph(backend)
    for chunk in graph.stream(
        {"topic": "ice cream"}, stream_mode=["updates", "custom"], version="v2"
    ):
        if chunk["type"] == "updates":
            for node_name, state in chunk["data"].items():
                print(f"Node {node_name} updated: {state}")
        elif chunk["type"] == "custom":
            print(f"Status: {chunk['data']['status']}")
    assert capsys.readouterr().out == (
        "Status: processing...\n"
        "Node refine_topic updated: {'topic': 'ice cream and cats'}\n"
        "Node generate_joke updated: {'joke': 'This is a joke about ice cream and cats'}\n"
    )
    chunks = list(
        graph.stream({"topic": "ice cream"}, stream_mode=["updates", "custom"], version="v2")
    )
    assert chunks == [
        {"type": "custom", "ns": (), "data": {"status": "processing...", "progress": 50}},
        {"type": "updates", "ns": (), "data": {"refine_topic": {"topic": "ice cream and cats"}}},
        {
            "type": "updates",
            "ns": (),
            "data": {"generate_joke": {"joke": "This is a joke about ice cream and cats"}},
        },
    ]


def test_stream_values_v2(backend):
    graph = _topic_graph(backend)
    chunks = list(graph.stream({"topic": "ice cream"}, stream_mode="values", version="v2"))
    assert [c["type"] for c in chunks] == ["values"] * 3
    assert [c["data"] for c in chunks] == [
        {"topic": "ice cream"},
        {"topic": "ice cream and cats"},
        {"topic": "ice cream and cats", "joke": "This is a joke about ice cream and cats"},
    ]


def test_stream_custom_v2(backend, capsys):
    graph = _topic_graph(backend)
    for chunk in graph.stream({"topic": "x"}, stream_mode="custom", version="v2"):
        if chunk["type"] == "custom":
            print(chunk["data"])
    assert capsys.readouterr().out == "{'status': 'processing...', 'progress': 50}\n"


def test_stream_v1_vs_v2_formats(backend):
    graph = _topic_graph(backend)
    # single mode, v1: raw data
    assert list(graph.stream({"topic": "x"}, stream_mode="custom")) == [
        {"status": "processing...", "progress": 50}
    ]
    # multi mode, v1: (mode, data) tuples
    assert list(graph.stream({"topic": "x"}, stream_mode=["custom"])) == [
        ("custom", {"status": "processing...", "progress": 50})
    ]
    # invoke(): v1 plain dict, v2 a GraphOutput object
    v1 = graph.invoke({"topic": "x"})
    v2 = graph.invoke({"topic": "x"}, version="v2")
    assert type(v1) is dict and v1 == {
        "topic": "x and cats",
        "joke": "This is a joke about x and cats",
    }
    assert type(v2).__name__ == "GraphOutput"
    assert v2.value == v1
    assert list(v2.interrupts) == []


def test_stream_multi_mode_v2_uniform(backend):
    graph = _topic_graph(backend)
    kinds = []
    for chunk in graph.stream(
        {"topic": "x"}, stream_mode=["updates", "messages", "custom"], version="v2"
    ):
        assert set(chunk) == {"type", "ns", "data"}
        kinds.append(chunk["type"])
    assert kinds == ["custom", "updates", "updates"]  # no LLM in the graph: no "messages" parts


def test_stream_checkpoints_tasks_modes(backend):
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    builder = _sub_parent(backend)
    graph = builder.compile(checkpointer=InMemorySaver())
    cfg = {"configurable": {"thread_id": "s"}}
    chunks = list(
        graph.stream({"foo": "a"}, cfg, stream_mode=["checkpoints", "tasks"], version="v2")
    )
    summary = []
    for c in chunks:
        if c["type"] == "tasks":
            summary.append(("tasks", c["data"]["name"], "result" in c["data"]))
        else:
            summary.append(("checkpoints", c["data"]["metadata"]["step"], c["data"]["next"]))
    assert summary == [
        ("checkpoints", -1, ["__start__"]),
        ("checkpoints", 0, ["node_1"]),
        ("tasks", "node_1", False),
        ("tasks", "node_1", True),
        ("checkpoints", 1, ["node_2"]),
        ("tasks", "node_2", False),
        ("tasks", "node_2", True),
        ("checkpoints", 2, []),
    ]


@pytest.mark.parametrize(
    "modes, subgraphs", [("custom", False), (["custom", "updates"], False), ("custom", True)]
)
def test_custom_output_reaches_the_caller_while_the_node_runs(modes, subgraphs):
    """With custom (or messages) output, or subgraphs, what a node writes is streamed to the
    caller before the node returns: the node waits until the caller has seen its first chunk
    (a bounded wait, so buffering would show as False, not as a hang)."""
    import threading

    def scenario(b):
        seen_by_caller, seen_in_node = threading.Event(), []

        def node(state):
            b.config.get_stream_writer()("before")
            seen_in_node.append(seen_by_caller.wait(5))
            return {"n": 1}

        g = b.graph.StateGraph(S)
        g.add_node("node", node)
        g.add_edge(b.graph.START, "node")
        chunks = []
        for chunk in g.compile().stream(
            {"n": 0, "log": []}, stream_mode=modes, subgraphs=subgraphs
        ):
            chunks.append(chunk)
            if "before" in (chunk, chunk[-1] if isinstance(chunk, tuple) else None):
                seen_by_caller.set()
        return chunks, seen_in_node

    expected, actual = run_both(scenario)
    assert normalize(actual) == normalize(expected)
    assert expected[1] == [True]  # langgraph did stream it early


def test_print_mode_and_debug_print_chunks_without_returning_them(backend, capsys):
    StateGraph, START = _sg(backend)

    class Count(TypedDict):
        x: int

    builder = StateGraph(Count)
    builder.add_node("inc", lambda s: {"x": s["x"] + 1})
    builder.add_edge(START, "inc")
    plain, debugging = builder.compile(), builder.compile(debug=True)
    out = [
        list(plain.stream({"x": 1}, stream_mode="updates", print_mode="values")),
        list(debugging.stream({"x": 1})),
        debugging.invoke({"x": 5}),
        plain.invoke({"x": 7}, print_mode=["updates"]),
    ]
    assert out == [[{"inc": {"x": 2}}], [{"inc": {"x": 2}}], {"x": 6}, {"x": 8}]
    bold = "\033[1m{}\033[0m".format
    assert capsys.readouterr().out.splitlines() == [
        f"{bold('[values]')} {{'x': 1}}",
        f"{bold('[values]')} {{'x': 2}}",
        f"{bold('[values]')} {{'x': 1}}",
        f"{bold('[updates]')} {{'inc': {{'x': 2}}}}",
        f"{bold('[values]')} {{'x': 2}}",
        f"{bold('[values]')} {{'x': 5}}",
        f"{bold('[updates]')} {{'inc': {{'x': 6}}}}",
        f"{bold('[values]')} {{'x': 6}}",
        f"{bold('[updates]')} {{'inc': {{'x': 8}}}}",
    ]


# -------------------------------------------------- a reader that stops after the first chunk


def _three_steps(backend, asynchronous: bool):
    """a -> b -> c, each adding 1 to n (async nodes when `asynchronous`), with a saver."""
    g = backend.graph

    def add(s):
        return {"n": s["n"] + 1}

    async def aadd(s):
        return {"n": s["n"] + 1}

    builder = g.StateGraph(S)
    for name in "abc":
        builder.add_node(name, aadd if asynchronous else add)
    builder.add_edge(g.START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("b", "c")
    return builder.compile(checkpointer=backend.mod("checkpoint.memory").InMemorySaver())


def _where_it_stopped(app, config) -> tuple:
    state = app.get_state(config)
    return state.values, state.next, state.metadata["step"], [t.name for t in state.tasks]


@pytest.mark.parametrize("durability", ["exit", "async", "sync"])
@pytest.mark.parametrize("mode", ["updates", "values", "debug"])
def test_a_reader_that_stops_after_a_step_finds_it_saved(mode, durability):
    """A one-task step's chunks reach the reader after its barrier, as in langgraph: closing the
    stream at the first chunk of step a leaves the thread at step 1 with b next, not at step 0
    with a's writes pending."""

    def scenario(backend):
        app = _three_steps(backend, asynchronous=False)
        config = {"configurable": {"thread_id": "t"}}
        stream = app.stream({"log": [], "n": 0}, config, stream_mode=mode, durability=durability)
        first = next(c for c in stream if mode != "values" or c["n"] == 1)
        stream.close()
        return _scrub(first), _where_it_stopped(app, config)

    expected, actual = run_both(scenario)
    assert actual == expected


@pytest.mark.parametrize("durability", ["exit", "async", "sync"])
def test_an_async_reader_that_stops_after_a_step_finds_it_saved(durability):
    import asyncio

    def scenario(backend):
        app = _three_steps(backend, asynchronous=True)
        config = {"configurable": {"thread_id": "t"}}

        async def read_one():
            stream = app.astream({"log": [], "n": 0}, config, durability=durability)
            first = await anext(stream)
            await stream.aclose()
            return first

        return asyncio.run(read_one()), _where_it_stopped(app, config)

    expected, actual = run_both(scenario)
    assert actual == expected


def test_a_cancelled_async_run_records_nothing_for_the_task_it_cancelled():
    """Cancelling the reader while a one-task step runs saves no error for that task: the
    thread stays where it was, the task still to run."""
    import asyncio

    def scenario(backend):
        g = backend.graph

        async def slow(s):
            await asyncio.sleep(30)
            return {"n": 1}

        builder = g.StateGraph(S)
        builder.add_node("slow", slow)
        builder.add_edge(g.START, "slow")
        app = builder.compile(checkpointer=backend.mod("checkpoint.memory").InMemorySaver())
        config = {"configurable": {"thread_id": "t"}}

        async def cancel_it():
            async def read():
                async for _ in app.astream({"log": [], "n": 0}, config):
                    pass

            reader = asyncio.create_task(read())
            await asyncio.sleep(0.2)
            reader.cancel()
            try:
                await reader
            except asyncio.CancelledError:
                return "cancelled"

        outcome = asyncio.run(cancel_it())
        pending = app.checkpointer.get_tuple(config).pending_writes
        return outcome, _where_it_stopped(app, config), pending

    expected, actual = run_both(scenario)
    assert actual == expected
