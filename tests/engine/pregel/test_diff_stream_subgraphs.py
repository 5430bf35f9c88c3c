"""Differential tests of streaming with subgraphs=True: namespaces, several modes, v2 parts,
subgraphs invoked inside a node, async.
"""

import operator
from typing import Annotated, TypedDict

from tests.engine.graphs import C
from tests.oracle import normalize


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


async def test_astream_subgraphs(backend):
    app, _ = _nested(backend)
    chunks = [c async for c in app.astream({"log": []}, subgraphs=True)]
    assert normalize(chunks) == [
        ((), {"pre": {"log": ["pre"]}}),
        (("child:<uuid>",), {"inner": {"log": ["inner"]}}),
        ((), {"child": {"log": ["pre", "inner"]}}),
    ]


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
