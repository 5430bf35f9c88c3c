"""Differential tests: subgraphs as nodes, subgraphs invoked from nodes, namespaces, checkpointing.

Every test runs on both backends through the `backend` fixture; expected values were taken from
langgraph 1.2.24. Namespaces look like "sub:<task uuid>"; they are compared after normalising the
uuid, and the uuid is checked to be the id of the parent task that runs the subgraph.
"""

import operator
import re
from typing import Annotated, TypedDict

import pytest

from tests.engine.graphs import _one_node, _sg, _sub_parent
from tests.oracle import assert_same, normalize

pytestmark = pytest.mark.differential

_NS = re.compile(r"^[a-z_]+:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


class S(TypedDict):
    log: Annotated[list[str], operator.add]
    n: int


class L(TypedDict):
    log: Annotated[list[str], operator.add]


class Parent(TypedDict):
    a: int
    log: Annotated[list[str], operator.add]


class Child(TypedDict):
    a: int
    private: str


class Words(TypedDict):
    text: str
    words: int


def cfg(thread: str = "t") -> dict:
    return {"configurable": {"thread_id": thread}}


def _shared_keys_app(b, **compile_kw):
    sg = b.graph.StateGraph(S)
    sg.add_node("s1", lambda s: {"log": ["s1"], "n": s["n"] + 1})
    sg.add_node("s2", lambda s: {"log": ["s2"], "n": s["n"] * 10})
    sg.add_edge(b.graph.START, "s1")
    sg.add_edge("s1", "s2")
    sub = sg.compile()

    g = b.graph.StateGraph(S)
    g.add_node("p", lambda s: {"log": ["p"]})
    g.add_node("sub", sub)
    g.add_node("q", lambda s: {"log": ["q"]})
    g.add_edge(b.graph.START, "p")
    g.add_edge("p", "sub")
    g.add_edge("sub", "q")
    return g.compile(**compile_kw)


def test_compiled_subgraph_as_node_sharing_keys(backend):
    app = _shared_keys_app(backend)
    # the subgraph returns its whole state, so the parent's reducer adds "p" a second time
    assert app.invoke({"log": [], "n": 1}) == {"log": ["p", "p", "s1", "s2", "q"], "n": 20}
    assert list(app.stream({"log": [], "n": 1})) == [
        {"p": {"log": ["p"]}},
        {"sub": {"log": ["p", "s1", "s2"], "n": 20}},
        {"q": {"log": ["q"]}},
    ]


def test_stream_subgraphs_namespaces(backend):
    app = _shared_keys_app(backend)
    chunks = list(app.stream({"log": [], "n": 1}, subgraphs=True))
    assert all(isinstance(c, tuple) and len(c) == 2 for c in chunks)
    ns = chunks[1][0]
    assert len(ns) == 1 and _NS.match(ns[0]) and ns[0].startswith("sub:")
    assert normalize(chunks) == [
        ((), {"p": {"log": ["p"]}}),
        (("sub:<uuid>",), {"s1": {"log": ["s1"], "n": 2}}),
        (("sub:<uuid>",), {"s2": {"log": ["s2"], "n": 20}}),
        ((), {"sub": {"log": ["p", "s1", "s2"], "n": 20}}),
        ((), {"q": {"log": ["q"]}}),
    ]
    assert chunks[2][0] == ns


def test_stream_subgraphs_multiple_modes(backend):
    app = _shared_keys_app(backend)
    chunks = list(
        app.stream({"log": [], "n": 1}, subgraphs=True, stream_mode=["updates", "values"])
    )
    sub = ("sub:<uuid>",)
    assert normalize(chunks) == [
        ((), "values", {"log": [], "n": 1}),
        ((), "updates", {"p": {"log": ["p"]}}),
        ((), "values", {"log": ["p"], "n": 1}),
        (sub, "values", {"log": ["p"], "n": 1}),
        (sub, "updates", {"s1": {"log": ["s1"], "n": 2}}),
        (sub, "values", {"log": ["p", "s1"], "n": 2}),
        (sub, "updates", {"s2": {"log": ["s2"], "n": 20}}),
        (sub, "values", {"log": ["p", "s1", "s2"], "n": 20}),
        ((), "updates", {"sub": {"log": ["p", "s1", "s2"], "n": 20}}),
        ((), "values", {"log": ["p", "p", "s1", "s2"], "n": 20}),
        ((), "updates", {"q": {"log": ["q"]}}),
        ((), "values", {"log": ["p", "p", "s1", "s2", "q"], "n": 20}),
    ]


def test_namespace_uuid_is_parent_task_id(backend):
    app = _shared_keys_app(backend)
    chunks = list(app.stream({"log": [], "n": 1}, subgraphs=True, stream_mode="tasks"))
    root_sub_start = next(c for ns, c in chunks if ns == () and c["name"] == "sub")
    sub_namespaces = {ns for ns, _ in chunks if ns != ()}
    assert sub_namespaces == {(f"sub:{root_sub_start['id']}",)}
    inner = [(c["name"], "result" in c) for ns, c in chunks if ns != ()]
    assert inner == [("s1", False), ("s1", True), ("s2", False), ("s2", True)]


def test_subgraph_with_different_schema_as_node(backend):
    sg = backend.graph.StateGraph(Child)
    sg.add_node("c1", lambda s: {"private": "p", "a": s["a"] + 100})
    sg.add_node("c2", lambda s: {"a": s["a"] + 1, "private": s["private"] + "!"})
    sg.add_edge(backend.graph.START, "c1")
    sg.add_edge("c1", "c2")
    g = backend.graph.StateGraph(Parent)
    g.add_node("sub", sg.compile())
    g.add_edge(backend.graph.START, "sub")
    app = g.compile()
    # only the shared key goes in and comes out
    assert app.invoke({"a": 1, "log": ["x"]}) == {"a": 102, "log": ["x"]}
    chunks = list(app.stream({"a": 1, "log": ["x"]}, subgraphs=True, stream_mode="values"))
    assert normalize(chunks) == [
        ((), {"a": 1, "log": ["x"]}),
        (("sub:<uuid>",), {"a": 1}),
        (("sub:<uuid>",), {"a": 101, "private": "p"}),
        (("sub:<uuid>",), {"a": 102, "private": "p!"}),
        ((), {"a": 102, "log": ["x"]}),
    ]


def _call_inside_node_app(b):
    s2 = b.graph.StateGraph(Words)
    s2.add_node("count", lambda s: {"words": len(s["text"].split())})
    s2.add_edge(b.graph.START, "count")
    sub = s2.compile()

    def call(state):
        out = sub.invoke({"text": " ".join(state["log"])})
        return {"n": out["words"], "log": ["call"]}

    g = b.graph.StateGraph(S)
    g.add_node("call", call)
    g.add_edge(b.graph.START, "call")
    return g.compile()


def test_subgraph_with_different_schema_invoked_inside_node(backend):
    app = _call_inside_node_app(backend)
    assert app.invoke({"log": ["a b", "c"], "n": 0}) == {"log": ["a b", "c", "call"], "n": 3}


def test_subgraph_invoked_inside_node_streams_under_node_namespace(backend):
    app = _call_inside_node_app(backend)
    chunks = list(app.stream({"log": ["a b", "c"], "n": 0}, subgraphs=True))
    assert _NS.match(chunks[0][0][0])
    assert normalize(chunks) == [
        (("call:<uuid>",), {"count": {"words": 3}}),
        ((), {"call": {"n": 3, "log": ["call"]}}),
    ]
    # without subgraphs=True only the parent's chunks are visible
    assert list(app.stream({"log": ["a b", "c"], "n": 0})) == [{"call": {"n": 3, "log": ["call"]}}]


def _nested_app(b, leaf, **compile_kw):
    inner = b.graph.StateGraph(L)
    inner.add_node("i", leaf)
    inner.add_edge(b.graph.START, "i")
    mid = b.graph.StateGraph(L)
    mid.add_node("m", lambda s: {"log": ["m"]})
    mid.add_node("inner", inner.compile())
    mid.add_edge(b.graph.START, "m")
    mid.add_edge("m", "inner")
    top = b.graph.StateGraph(L)
    top.add_node("mid", mid.compile())
    top.add_edge(b.graph.START, "mid")
    return top.compile(**compile_kw)


def test_two_level_nesting_namespaces(backend):
    app = _nested_app(backend, lambda s: {"log": ["i"]})
    assert app.invoke({"log": []}) == {"log": ["m", "m", "i"]}
    chunks = list(app.stream({"log": []}, subgraphs=True))
    assert normalize(chunks) == [
        (("mid:<uuid>",), {"m": {"log": ["m"]}}),
        (("mid:<uuid>", "inner:<uuid>"), {"i": {"log": ["i"]}}),
        (("mid:<uuid>",), {"inner": {"log": ["m", "i"]}}),
        ((), {"mid": {"log": ["m", "m", "i"]}}),
    ]
    assert chunks[1][0][0] == chunks[0][0][0]


def test_get_graph_xray(backend):
    app = _nested_app(backend, lambda s: {"log": ["i"]})
    assert sorted((e.source, e.target) for e in app.get_graph().edges) == [
        ("__start__", "mid"),
        ("mid", "__end__"),
    ]
    assert sorted((e.source, e.target) for e in app.get_graph(xray=True).edges) == [
        ("__start__", "mid:m"),
        ("mid:inner:i", "__end__"),
        ("mid:m", "mid:inner:i"),
    ]
    assert sorted((e.source, e.target) for e in app.get_graph(xray=1).edges) == [
        ("__start__", "mid:m"),
        ("mid:inner", "__end__"),
        ("mid:m", "mid:inner"),
    ]
    app2 = _shared_keys_app(backend)
    assert sorted(app2.get_graph(xray=True).nodes) == [
        "__end__",
        "__start__",
        "p",
        "q",
        "sub:s1",
        "sub:s2",
    ]


# --------------------------------------------------------------------------------------------
# checkpointer inheritance and interrupts inside subgraphs
# --------------------------------------------------------------------------------------------


def _interrupting_app(b, calls: list):
    interrupt = b.types.interrupt

    def s1(s):
        calls.append("s1")
        return {"log": ["s1"]}

    def ask(s):
        calls.append("ask")
        return {"log": ["ask:" + interrupt("sub?")]}

    def p(s):
        calls.append("p")
        return {"log": ["p"]}

    sg = b.graph.StateGraph(L)
    sg.add_node("s1", s1)
    sg.add_node("ask", ask)
    sg.add_edge(b.graph.START, "s1")
    sg.add_edge("s1", "ask")

    g = b.graph.StateGraph(L)
    g.add_node("p", p)
    g.add_node("sub", sg.compile())
    g.add_node("q", lambda s: {"log": ["q"]})
    g.add_edge(b.graph.START, "p")
    g.add_edge("p", "sub")
    g.add_edge("sub", "q")
    return g.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())


def test_interrupt_inside_subgraph_resumed_from_parent(backend):
    calls = []
    app = _interrupting_app(backend, calls)
    out = app.invoke({"log": []}, cfg())
    assert normalize(out) == {"log": ["p"], "__interrupt__": [("Interrupt", "sub?")]}
    out = app.invoke(backend.types.Command(resume="yes"), cfg())
    assert out == {"log": ["p", "p", "s1", "ask:yes", "q"]}
    # the subgraph resumes from its own checkpoint: s1 is not re-run
    assert calls == ["p", "s1", "ask", "ask"]


def test_get_state_of_interrupted_subgraph(backend):
    app = _interrupting_app(backend, [])
    out = app.invoke({"log": []}, cfg())
    st = app.get_state(cfg())
    assert st.next == ("sub",)
    assert [i.value for i in st.interrupts] == ["sub?"]
    assert st.interrupts[0].id == out["__interrupt__"][0].id
    task = st.tasks[0]
    # without subgraphs=True the task's state is just the config of the child checkpoint
    assert task.state == {"configurable": {"thread_id": "t", "checkpoint_ns": f"sub:{task.id}"}}

    st = app.get_state(cfg(), subgraphs=True)
    child = st.tasks[0].state
    assert child.values == {"log": ["p", "s1"]}
    assert child.next == ("ask",)
    assert child.config["configurable"]["checkpoint_ns"] == f"sub:{st.tasks[0].id}"
    assert child.config["configurable"]["thread_id"] == "t"
    assert child.metadata["source"] == "loop" and child.metadata["step"] == 1
    assert list(child.metadata["parents"]) == [""]
    assert [i.value for i in child.interrupts] == ["sub?"]
    assert [(t.name, [i.value for i in t.interrupts]) for t in child.tasks] == [("ask", ["sub?"])]

    app.invoke(backend.types.Command(resume="ok"), cfg())
    st = app.get_state(cfg(), subgraphs=True)
    assert (st.next, st.tasks, st.interrupts) == ((), (), ())
    assert st.values == {"log": ["p", "p", "s1", "ask:ok", "q"]}


def test_interrupt_inside_subgraph_stream(backend):
    app = _interrupting_app(backend, [])
    chunks = list(app.stream({"log": []}, cfg(), subgraphs=True))
    intr = {"__interrupt__": (("Interrupt", "sub?"),)}
    # the interrupt is reported in the subgraph's namespace and again at the root
    assert normalize(chunks) == [
        ((), {"p": {"log": ["p"]}}),
        (("sub:<uuid>",), {"s1": {"log": ["s1"]}}),
        (("sub:<uuid>",), intr),
        ((), intr),
    ]
    resumed = list(app.stream(backend.types.Command(resume="ok"), cfg(), subgraphs=True))
    assert normalize(resumed) == [
        (("sub:<uuid>",), {"ask": {"log": ["ask:ok"]}}),
        ((), {"sub": {"log": ["p", "s1", "ask:ok"]}}),
        ((), {"q": {"log": ["q"]}}),
    ]
    assert resumed[0][0] == chunks[1][0]  # same child namespace after resuming


def test_interrupt_inside_subgraph_without_subgraphs_stream(backend):
    app = _interrupting_app(backend, [])
    chunks = list(app.stream({"log": []}, cfg()))
    assert normalize(chunks) == [
        {"p": {"log": ["p"]}},
        {"__interrupt__": (("Interrupt", "sub?"),)},
    ]


def test_interrupted_subgraph_tasks_stream(backend):
    interrupt = backend.types.interrupt
    inner = backend.graph.StateGraph(L)
    inner.add_node("i", lambda s: {"log": ["i:" + interrupt("q")]})
    inner.add_edge(backend.graph.START, "i")
    top = backend.graph.StateGraph(L)
    top.add_node("sub", inner.compile())
    top.add_edge(backend.graph.START, "sub")
    app = top.compile(checkpointer=backend.mod("checkpoint.memory").InMemorySaver())
    chunks = list(app.stream({"log": []}, cfg(), subgraphs=True, stream_mode=["tasks", "updates"]))
    ids = {c["name"]: c["id"] for _, mode, c in chunks if mode == "tasks"}
    intr_id = app.get_state(cfg()).interrupts[0].id
    intr_dict = {"value": "q", "id": intr_id, "response_schema": None}
    sub_ns = (f"sub:{ids['sub']}",)
    assert [(ns, mode, c) for ns, mode, c in chunks if mode == "tasks"] == [
        (
            (),
            "tasks",
            {"id": ids["sub"], "name": "sub", "input": {"log": []}, "triggers": ("branch:to:sub",)},
        ),
        (
            sub_ns,
            "tasks",
            {"id": ids["i"], "name": "i", "input": {"log": []}, "triggers": ("branch:to:i",)},
        ),
        # an interrupted task reports an empty result and its interrupts as plain dicts
        (
            sub_ns,
            "tasks",
            {"id": ids["i"], "name": "i", "error": None, "result": {}, "interrupts": [intr_dict]},
        ),
        (
            (),
            "tasks",
            {
                "id": ids["sub"],
                "name": "sub",
                "error": None,
                "result": {},
                "interrupts": [intr_dict],
            },
        ),
    ]


def test_nested_interrupt_two_levels(backend):
    interrupt = backend.types.interrupt
    app = _nested_app(
        backend,
        lambda s: {"log": ["ask:" + interrupt("deep?")]},
        checkpointer=backend.mod("checkpoint.memory").InMemorySaver(),
    )
    out = app.invoke({"log": []}, cfg())
    assert normalize(out) == {"log": [], "__interrupt__": [("Interrupt", "deep?")]}
    st = app.get_state(cfg(), subgraphs=True)
    mid = st.tasks[0].state
    inner = mid.tasks[0].state
    assert (st.next, mid.next, inner.next) == (("mid",), ("inner",), ("i",))
    assert (mid.values, inner.values) == ({"log": ["m"]}, {"log": ["m"]})
    ns = inner.config["configurable"]["checkpoint_ns"]
    assert normalize(ns) == "mid:<uuid>|inner:<uuid>"
    assert ns.startswith(mid.config["configurable"]["checkpoint_ns"] + "|")
    assert [i.value for i in st.interrupts] == [i.value for i in mid.interrupts] == ["deep?"]
    assert st.interrupts[0].id == mid.interrupts[0].id == inner.interrupts[0].id
    chunks = list(app.stream(backend.types.Command(resume="yes"), cfg(), subgraphs=True))
    assert normalize(chunks) == [
        (("mid:<uuid>", "inner:<uuid>"), {"i": {"log": ["ask:yes"]}}),
        (("mid:<uuid>",), {"inner": {"log": ["m", "ask:yes"]}}),
        ((), {"mid": {"log": ["m", "m", "ask:yes"]}}),
    ]


def test_stream_subgraphs_v2(backend, capsys):
    graph = _sub_parent(backend).compile()
    for chunk in graph.stream({"foo": "foo"}, subgraphs=True, stream_mode="updates", version="v2"):
        if chunk["ns"]:
            print(f"Subgraph {normalize(chunk['ns'])}: {chunk['data']}")
        else:
            print(f"Root: {chunk['data']}")
    assert capsys.readouterr().out == (
        "Root: {'node_1': {'foo': 'hi! foo'}}\n"
        "Subgraph ('node_2:<uuid>',): {'sub_1': {'bar': 'bar'}}\n"
        "Subgraph ('node_2:<uuid>',): {'sub_2': {'foo': 'hi! foobar'}}\n"
        "Root: {'node_2': {'foo': 'hi! foobar'}}\n"
    )


def test_subgraph_inherits_parent_checkpointer(backend):
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    graph = _sub_parent(backend).compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    assert graph.invoke({"foo": "foo"}, config) == {"foo": "hi! foobar"}
    assert graph.get_state(config).values == {"foo": "hi! foobar"}


def test_subgraph_time_travel_own_checkpointer(backend):
    StateGraph, START = _sg(backend)
    interrupt, Command = backend.types.interrupt, backend.types.Command
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    class State(TypedDict):
        value: Annotated[list[str], operator.add]

    sb = StateGraph(State)
    sb.add_node("step_1", lambda s: {"value": ["s1"]})
    sb.add_node("ask", lambda s: {"value": [f"ans={interrupt('q?')}"]})
    sb.add_edge(START, "step_1")
    sb.add_edge("step_1", "ask")
    subgraph = sb.compile(checkpointer=True)

    builder = StateGraph(State)
    builder.add_node("sub", subgraph)
    builder.add_edge(START, "sub")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"value": ["start"]}, config)

    parent_state = graph.get_state(config, subgraphs=True)
    assert parent_state.next == ("sub",)
    sub_state = parent_state.tasks[0].state
    assert sub_state.values == {"value": ["start", "s1"]}
    assert sub_state.next == ("ask",)
    sub_config = sub_state.config
    assert sub_config["configurable"]["checkpoint_ns"] == "sub"  # per-thread subgraph: stable ns

    fork_config = graph.update_state(sub_config, {"value": ["forked"]})
    assert graph.get_state(config, subgraphs=True).tasks[0].state.values == {
        "value": ["start", "s1", "forked"]
    }
    out = graph.invoke(Command(resume="x"), config)
    assert out == {"value": ["start", "start", "s1", "forked", "ans=x"]}
    assert fork_config["configurable"]["thread_id"] == "1"


def test_subgraph_called_inside_node(backend):
    StateGraph, START = _sg(backend)

    class SubgraphState(TypedDict):
        bar: str

    class ParentState(TypedDict):
        foo: str

    sb = StateGraph(SubgraphState)
    sb.add_node("sub", lambda s: {"bar": s["bar"] + " from sub"})
    sb.add_edge(START, "sub")
    subgraph = sb.compile()

    def call_subgraph(state: ParentState):
        subgraph_output = subgraph.invoke({"bar": state["foo"]})
        return {"foo": subgraph_output["bar"]}

    assert _one_node(backend, ParentState, call_subgraph, name="node_1").invoke({"foo": "hi"}) == {
        "foo": "hi from sub"
    }


def test_subgraph_as_node_shared_key(backend):
    graph = _sub_parent(backend).compile()
    assert graph.invoke({"foo": "foo"}) == {"foo": "hi! foobar"}  # bar (private) is not visible


def test_subgraph_persistence_modes(backend):
    StateGraph, START = _sg(backend)
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    class SubState(TypedDict):
        foo: str
        seen: Annotated[list, operator.add]  # subgraph-private, accumulates only if it persists

    class Parent(TypedDict):
        foo: str

    def build(sub_checkpointer):
        sb = StateGraph(SubState)
        sb.add_node(
            "count", lambda s: {"seen": [s["foo"]], "foo": f"{s['foo']}:{len(s.get('seen', []))}"}
        )
        sb.add_edge(START, "count")
        builder = StateGraph(Parent)
        builder.add_node("agent", sb.compile(checkpointer=sub_checkpointer))
        builder.add_edge(START, "agent")
        return builder.compile(checkpointer=InMemorySaver())

    def two_turns(graph):
        config = {"configurable": {"thread_id": "1"}}
        first = graph.invoke({"foo": "m1"}, config)
        return first, graph.invoke({"foo": "m2"}, config)

    assert two_turns(build(None)) == ({"foo": "m1:0"}, {"foo": "m2:0"})  # Per-invocation
    assert two_turns(build(True)) == ({"foo": "m1:0"}, {"foo": "m2:1"})  # Per-thread: remembers m1
    assert two_turns(build(False)) == ({"foo": "m1:0"}, {"foo": "m2:0"})  # Stateless


def test_get_state_subgraphs_true(backend):
    StateGraph, START = _sg(backend)
    interrupt = backend.types.interrupt
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    class State(TypedDict):
        foo: str

    sb = StateGraph(State)
    sb.add_node("ask", lambda s: {"foo": interrupt("?")})
    sb.add_edge(START, "ask")
    builder = StateGraph(State)
    builder.add_node("node_1", sb.compile())
    builder.add_edge(START, "node_1")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"foo": "x"}, config)

    state = graph.get_state(config, subgraphs=True)
    subgraph_state = state.tasks[0].state
    assert subgraph_state.values == {"foo": "x"}
    assert subgraph_state.next == ("ask",)
    assert (
        graph.get_state(config)
        .tasks[0]
        .state["configurable"]["checkpoint_ns"]
        .startswith("node_1:")
    )


def test_a_subgraph_invoked_inside_a_node_function_shows_in_get_state():
    """langgraph finds the graph a node function refers to, so its state is in the snapshot."""

    def scenario(b):
        from typing_extensions import TypedDict

        class Sub(TypedDict):
            bar: str
            baz: str

        class Parent(TypedDict):
            foo: str

        def ask(state: Sub) -> dict:
            return {"baz": b.types.interrupt("Provide baz value")}

        sub_builder = b.graph.StateGraph(Sub)
        sub_builder.add_node("ask", ask)
        sub_builder.add_edge(b.graph.START, "ask")
        subgraph = sub_builder.compile(checkpointer=True)

        def call_sub(state: Parent) -> dict:
            return {"foo": subgraph.invoke({"bar": state["foo"]})["baz"]}

        builder = b.graph.StateGraph(Parent)
        builder.add_node("call_sub", call_sub)
        builder.add_edge(b.graph.START, "call_sub")
        graph = builder.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = {"configurable": {"thread_id": "t"}}
        graph.invoke({"foo": "x"}, config)
        inner = graph.get_state(config, subgraphs=True).tasks[0].state
        return inner.values, inner.next, graph.invoke(b.types.Command(resume="y"), config)

    assert_same(scenario)


def test_node_finished_callback_sees_every_level_as_it_finishes():
    """The configurable's node-finished callable (langgraph's CONFIG_KEY_NODE_FINISHED) hears
    each finished task, subgraphs' included, in order; not the task stopped by a breakpoint."""

    def scenario(b):
        graph_mod = b.graph
        key = b.mod("_internal._constants").CONFIG_KEY_NODE_FINISHED

        class S(TypedDict):
            my_key: str

        inner = graph_mod.StateGraph(S)
        inner.add_node("grandchild_1", lambda s: {"my_key": s["my_key"] + " here"})
        inner.add_node("grandchild_2", lambda s: {"my_key": s["my_key"] + " and there"})
        inner.add_edge(graph_mod.START, "grandchild_1")
        inner.add_edge("grandchild_1", "grandchild_2")
        child = graph_mod.StateGraph(S)
        child.add_node("child_1", inner.compile(interrupt_before=["grandchild_2"]))
        child.add_edge(graph_mod.START, "child_1")
        parent = graph_mod.StateGraph(S)
        parent.add_node("parent_1", lambda s: {"my_key": "hi " + s["my_key"]})
        parent.add_node("child", child.compile())
        parent.add_edge(graph_mod.START, "parent_1")
        parent.add_edge("parent_1", "child")
        app = parent.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        nodes: list[str] = []
        config = {"configurable": {"thread_id": "1", key: nodes.append}}
        first = list(app.stream({"my_key": "v"}, config))
        at_breakpoint = list(nodes)
        second = list(app.stream(None, config))
        return first, at_breakpoint, second, nodes

    assert_same(scenario)


def test_a_task_running_two_graphs_gives_the_second_its_own_namespace():
    """Graphs invoked inside one node: the first keeps the task's namespace (its stable name with
    checkpointer=True), each later one gets `|N` appended, as in langgraph."""

    def scenario(b):
        graph_mod = b.graph

        class A(TypedDict):
            sub_counter: Annotated[int, operator.add]

        class B(TypedDict):
            other: Annotated[int, operator.add]

        class P(TypedDict):
            parent: int

        first = graph_mod.StateGraph(A)
        first.add_node("sub_node", lambda s: {"sub_counter": 2})
        first.add_edge(graph_mod.START, "sub_node")
        first = first.compile(checkpointer=True)
        second = graph_mod.StateGraph(B)
        second.add_node("other_node", lambda s: {"other": 3})
        second.add_edge(graph_mod.START, "other_node")
        second = second.compile()

        def parent_node(state):
            result = first.invoke({"sub_counter": state["parent"]})
            return {"parent": second.invoke({"other": result["sub_counter"]})["other"]}

        parent = graph_mod.StateGraph(P)
        parent.add_node("parent_node", parent_node)
        parent.add_edge(graph_mod.START, "parent_node")
        app = parent.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = {"configurable": {"thread_id": "1"}}
        runs = [
            list(app.stream({"parent": 0}, config, subgraphs=True, stream_mode="updates"))
            for _ in range(2)
        ]
        return runs

    assert_same(scenario)


class _Count(TypedDict, total=False):
    count: int


class _Result(TypedDict):
    result: str


def _counter_and_caller(graph_mod, call_child, checkpointer=None):
    """A counter graph, and a graph whose one node `p` runs it through `call_child(child)`."""
    child = graph_mod.StateGraph(_Count)
    child.add_node("n", lambda s: {"count": (s.get("count") or 0) + 1})
    child.add_edge(graph_mod.START, "n")
    child = child.compile(checkpointer=checkpointer)

    def parent_node(state):
        return {"result": str(call_child(child))}

    parent = graph_mod.StateGraph(_Result)
    parent.add_node("p", parent_node)
    parent.add_edge(graph_mod.START, "p")
    return child, parent.compile(checkpointer=checkpointer)


def test_a_graph_called_with_its_own_thread_inside_a_node_keeps_its_own_history():
    """A graph invoked in a node with a config naming its own thread runs as a root graph: its
    checkpoints are under its thread's root namespace, not the calling task's."""

    def scenario(b):
        saver = b.mod("checkpoint.memory").InMemorySaver()
        child_config = {"configurable": {"thread_id": "child"}}
        child, parent = _counter_and_caller(
            b.graph, lambda child: child.invoke({}, config=child_config), saver
        )
        parent_config = {"configurable": {"thread_id": "parent"}}
        seen = []
        for _ in range(2):
            parent.invoke({"result": ""}, parent_config)
            state = child.get_state(child_config)
            seen.append((state.values, state.config["configurable"]["checkpoint_ns"]))
        threads = sorted({c.config["configurable"]["thread_id"] for c in saver.list(None)})
        return seen, threads

    assert_same(scenario)


@pytest.mark.parametrize("key", ["thread_id", "checkpoint_ns", "checkpoint_id"])
def test_an_empty_string_coordinate_still_makes_a_graph_in_a_node_its_own_root(key):
    """langgraph counts a coordinate given as "" as given (only None and empty containers are
    not): the graph invoked in the node leaves the task's configurable behind, so it does not
    stream as the task's subgraph."""

    def scenario(b):
        _, parent = _counter_and_caller(
            b.graph, lambda child: child.invoke({}, config={"configurable": {key: ""}})
        )
        chunks = parent.stream({"result": ""}, stream_mode="updates", subgraphs=True)
        return [(len(ns), update) for ns, update in chunks]

    assert_same(scenario)


class _Holder:
    def __init__(self, graph) -> None:
        self.graph = graph


def test_a_graph_a_node_reaches_is_found_from_its_code_not_its_source(backend):
    StateGraph, START = _sg(backend)

    def leaf(tag: str):
        builder = StateGraph(L)
        builder.add_node(tag, lambda s: {"log": [tag]})
        builder.add_edge(START, tag)
        graph = builder.compile()
        graph.name = tag
        return graph

    def found(node) -> list[str]:
        builder = StateGraph(L)
        builder.add_node("n", node)
        builder.add_edge(START, "n")
        return [f"{name}={graph.name}" for name, graph in builder.compile().get_subgraphs()]

    # made by exec: there is no source file to read
    namespace = {"GRAPH": leaf("no_source")}
    exec(compile("def node(state):\n    return GRAPH.invoke(state)", "<made>", "exec"), namespace)

    def with_empty_cell():
        sub = leaf("beside_empty_cell")

        def node(state):
            return {"log": [str(unset), *sub.invoke(state)["log"]]}

        return node
        unset = 1  # never runs: the cell stays empty

    def dropped_path():
        holder = _Holder(leaf("dropped"))

        def node(state):
            if False:
                holder.graph.invoke(state)
            return {}

        return node

    def via_attribute():
        holder = _Holder(leaf("via_attribute"))

        def node(state):
            return holder.graph.invoke(state)

        return node

    got = [found(n) for n in (namespace["node"], with_empty_cell(), dropped_path(),
                              via_attribute())]  # fmt: skip
    assert got == [["n=no_source"], ["n=beside_empty_cell"], [], ["n=via_attribute"]]
    nonlocals = backend.mod("pregel._utils").get_function_nonlocals
    assert [nonlocals(len), nonlocals(lambda s: {"log": [1, "a"]})] == [[], []]
