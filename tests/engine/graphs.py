"""Small state graphs, schemas and builders shared by the engine's differential tests.

Each builder takes a `Backend` (tests/oracle.py) so one scenario builds on langgraph and on engine.
"""

import operator
from typing import Annotated, Literal, TypedDict


def _g(backend):
    return backend.graph.StateGraph, backend.graph.START, backend.graph.END


class Log(TypedDict):
    log: Annotated[list, operator.add]
    n: int


def _logger(name):
    def node(state):
        return {"log": [name]}

    node.__name__ = name
    return node


def _join_app(backend, joined: bool):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(Log)
    for name in ("a", "b", "b2", "c"):
        g.add_node(name, _logger(name))
    g.add_edge(START, "a")
    g.add_edge(START, "b")
    g.add_edge("b", "b2")
    if joined:
        g.add_edge(["a", "b2"], "c")
    else:
        g.add_edge("a", "c")
        g.add_edge("b2", "c")
    return g.compile()


def _cond_app(backend, path, path_map=None):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(Log)
    for name in ("start", "x", "y"):
        g.add_node(name, _logger(name))
    g.add_edge(START, "start")
    if path_map is None:
        g.add_conditional_edges("start", path)
    else:
        g.add_conditional_edges("start", path, path_map)
    return g.compile()


def route_literal(s) -> Literal["x", "y"]:
    return "x" if s["n"] > 0 else "y"


def _sg(backend):
    """(StateGraph, START) of the backend."""
    return backend.graph.StateGraph, backend.graph.START


class FooPath(TypedDict):
    foo: str
    path: Annotated[list, operator.add]


def _chain(backend, schema, *nodes, schemas=None, **compile_kwargs):
    """StateGraph(schema, **schemas) running `nodes` (functions, or (name, function) pairs) in a
    line from START to END, compiled."""
    builder = backend.graph.StateGraph(schema, **(schemas or {}))
    previous = backend.graph.START
    for node in nodes:
        name, fn = node if isinstance(node, tuple) else (node.__name__, node)
        builder.add_node(name, fn)
        builder.add_edge(previous, name)
        previous = name
    builder.add_edge(previous, backend.graph.END)
    return builder.compile(**compile_kwargs)


def _one_node(backend, schema, fn, name="n", **compile_kwargs):
    """StateGraph(schema) with a single node `name` run from START, compiled."""
    return _chain(backend, schema, (name, fn), **compile_kwargs)


class TopicState(TypedDict, total=False):
    topic: str
    joke: str


def _sub_parent(backend, sub_checkpointer=None):
    StateGraph, START = _sg(backend)

    class SubgraphState(TypedDict):
        foo: str  # 与父图共享
        bar: str  # 子图私有

    class ParentState(TypedDict):
        foo: str

    def sub_1(state: SubgraphState):
        return {"bar": "bar"}

    def sub_2(state: SubgraphState):
        return {"foo": state["foo"] + state["bar"]}

    subgraph = _chain(backend, SubgraphState, sub_1, sub_2, checkpointer=sub_checkpointer)

    builder = StateGraph(ParentState)
    builder.add_node("node_1", lambda s: {"foo": "hi! " + s["foo"]})
    builder.add_node("node_2", subgraph)
    builder.add_edge(START, "node_1")
    builder.add_edge("node_1", "node_2")
    return builder


class S(TypedDict):
    total: int  # bare key: one write per superstep
    visited: Annotated[list, operator.add]  # reducer: appends


def a(s):
    return {"total": s["total"] * 2, "visited": ["a"]}


def b(s):
    return {"total": s["total"] + 1, "visited": ["b"]}


def _two_node(backend, **compile_kwargs):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    g = StateGraph(S)
    g.add_node("a", a)
    g.add_node("b", b)
    g.add_edge(START, "a")
    g.add_edge("a", "b")
    g.add_edge("b", END)
    return g.compile(**compile_kwargs)


class C(TypedDict):
    total: int
    out: Annotated[list, operator.add]
