"""Differential tests of building a StateGraph: add_node forms and signatures, entry points,
compile(), and what a compiled graph exposes (a Runnable, its nodes, channels and triggers).

Each test runs on both backends (`backend` fixture) and asserts what langgraph 1.2.24 gives.
"""

import asyncio
import operator
from dataclasses import dataclass
from typing import Annotated, TypedDict

import pytest
from langchain_core.runnables import RunnableConfig, RunnableLambda

from tests.engine.graphs import (
    Log,
    S,
    _chain,
    _cond_app,
    _g,
    _logger,
    _two_node,
    a,
    b,
    route_literal,
)
from tests.oracle import assert_same


@dataclass
class Ctx:
    user: str


def test_add_node_forms_and_signatures(backend):
    StateGraph, START, _ = _g(backend)
    Runtime = backend.runtime.Runtime

    def by_name(s):
        return {"log": ["by_name"]}

    def with_config(s, config: RunnableConfig):
        md = config["metadata"]
        return {
            "log": [
                f"cfg:{config['configurable'].get('user')}:{md['langgraph_node']}"
                f":{md['langgraph_step']}"
            ]
        }

    def with_config_untyped(s, config):
        return {"log": [f"cfg2:{config['configurable'].get('user')}"]}

    def with_runtime(s, *, runtime: Runtime[Ctx]):
        return {"log": [f"rt:{runtime.context.user if runtime.context else None}"]}

    def with_runtime_positional(s, runtime: Runtime[Ctx]):
        return {"log": [f"rtpos:{runtime.context.user if runtime.context else None}"]}

    g = StateGraph(Log, context_schema=Ctx)
    g.add_node(by_name)  # name taken from the function
    g.add_node("cfg", with_config)
    g.add_node("cfg2", with_config_untyped)
    g.add_node("rt", with_runtime)
    g.add_node("rtpos", with_runtime_positional)
    g.add_node("lam", RunnableLambda(lambda s: {"log": ["runnable"]}))
    g.add_edge(START, "by_name")
    g.add_edge("by_name", "cfg")
    g.add_edge("cfg", "cfg2")
    g.add_edge("cfg2", "rt")
    g.add_edge("rt", "rtpos")
    g.add_edge("rtpos", "lam")
    app = g.compile()
    assert list(app.nodes) == ["__start__", "by_name", "cfg", "cfg2", "rt", "rtpos", "lam"]
    cfg = {"configurable": {"user": "u1"}}
    assert app.invoke({"log": []}, cfg, context=Ctx(user="c1")) == {
        "log": ["by_name", "cfg:u1:cfg:2", "cfg2:u1", "rt:c1", "rtpos:c1", "runnable"]
    }
    assert app.invoke({"log": []}, cfg)["log"] == [
        "by_name",
        "cfg:u1:cfg:2",
        "cfg2:u1",
        "rt:None",
        "rtpos:None",
        "runnable",
    ]


def test_add_node_lambda_gets_lambda_name(backend):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(Log)
    g.add_node(lambda s: {"n": 1})
    g.add_edge(START, "<lambda>")
    assert list(g.nodes) == ["<lambda>"]
    assert g.compile().invoke({"log": []}) == {"log": [], "n": 1}


def test_node_named_like_a_state_key(backend):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(Log)
    g.add_node("n", lambda s: {"n": 5})
    g.add_edge(START, "n")
    assert g.compile().invoke({"log": []}) == {"log": [], "n": 5}


async def test_async_node_via_ainvoke(backend):
    StateGraph, START, _ = _g(backend)

    async def anode(s):
        await asyncio.sleep(0)
        return {"log": ["async"]}

    g = StateGraph(Log)
    g.add_node("a", anode)
    g.add_node("s", _logger("sync"))
    g.add_edge(START, "a")
    g.add_edge("a", "s")
    assert await g.compile().ainvoke({"log": []}) == {"log": ["async", "sync"]}


def test_async_node_via_sync_invoke_fails(backend):
    StateGraph, START, _ = _g(backend)

    async def anode(s):
        return {"log": ["async"]}

    g = StateGraph(Log)
    g.add_node("a", anode)
    g.add_edge(START, "a")
    with pytest.raises(TypeError) as info:
        g.compile().invoke({"log": []})
    assert str(info.value) == (
        'No synchronous function provided to "a".\nEither initialize with a synchronous '
        "function or invoke via the async API (ainvoke, astream, etc.)"
    )


def test_compiled_channels_and_triggers(backend):
    app = _cond_app(backend, route_literal)
    assert {k: type(v).__name__ for k, v in app.channels.items()} == {
        "log": "BinaryOperatorAggregate",
        "n": "LastValue",
        "__start__": "EphemeralValue",
        "__pregel_tasks": "Topic",
        "branch:to:start": "EphemeralValue",
        "branch:to:x": "EphemeralValue",
        "branch:to:y": "EphemeralValue",
    }
    assert {k: n.triggers for k, n in app.nodes.items()} == {
        "__start__": ["__start__"],
        "start": ["branch:to:start"],
        "x": ["branch:to:x"],
        "y": ["branch:to:y"],
    }
    assert app.nodes["__start__"].channels == "__start__"
    assert app.nodes["x"].channels == ["log", "n"]


def test_hello_world(backend):
    # the document imports START/END from langgraph.constants: the same names as langgraph.graph's
    assert (backend.constants.START, backend.constants.END) == ("__start__", "__end__")
    assert (backend.graph.START, backend.graph.END) == ("__start__", "__end__")

    class HelloState(TypedDict):
        name: str

    def hello(state: HelloState) -> HelloState:
        return {"name": f"Hello, {state['name']}!"}

    def add_emoji(state: HelloState) -> HelloState:
        return {"name": f"{state['name']} 😊"}

    app = _chain(backend, HelloState, hello, add_emoji)

    assert app.invoke({"name": "liutianba7"}) == {"name": "Hello, liutianba7! 😊"}


def test_node_edge_graph_basics(backend):
    """Node (`my_node`), conditional edge (`route_fn`) and the 5-step graph-building recipe."""
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END

    class State(TypedDict, total=False):
        name: str
        count: int
        visited: Annotated[list, operator.add]

    def my_node(state: State) -> dict:
        name = state["name"]
        return {"name": f"Hello, {name}"}

    def route_fn(state: State) -> str:
        return "node_b" if state["count"] > 5 else "node_c"

    def run(count):
        graph = StateGraph(State)
        graph.add_node("node_a", my_node)
        graph.add_node("node_b", lambda s: {"visited": ["b"]})
        graph.add_node("node_c", lambda s: {"visited": ["c"]})
        graph.add_edge(START, "node_a")
        graph.add_conditional_edges("node_a", route_fn)
        graph.add_edge("node_b", END)
        graph.add_edge("node_c", END)
        return graph.compile().invoke({"name": "test", "count": count})

    assert run(6) == {"name": "Hello, test", "count": 6, "visited": ["b"]}
    assert run(5) == {"name": "Hello, test", "count": 5, "visited": ["c"]}


def test_set_entry_point_and_conditional_entry_point(backend):
    StateGraph = backend.graph.StateGraph

    class State(TypedDict):
        path: Annotated[list, operator.add]
        go_b: bool

    g = StateGraph(State)
    g.add_node("node_a", lambda s: {"path": ["a"]})
    g.set_entry_point("node_a")
    g.set_finish_point("node_a")
    assert g.compile().invoke({"path": [], "go_b": True}) == {"path": ["a"], "go_b": True}

    g = StateGraph(State)
    g.add_node("node_b", lambda s: {"path": ["b"]})
    g.add_node("node_c", lambda s: {"path": ["c"]})
    g.set_conditional_entry_point(lambda s: "node_b" if s["go_b"] else "node_c")
    app = g.compile()
    assert app.invoke({"path": [], "go_b": True}) == {"path": ["b"], "go_b": True}
    assert app.invoke({"path": [], "go_b": False}) == {"path": ["c"], "go_b": False}


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


def c(s):
    return {"total": 0, "visited": ["c"]}


def route(s):
    return "b" if s["total"] > 5 else "c"


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


def test_compile_refuses_what_is_not_a_checkpointer():
    def scenario(b):
        class NotACheckpointer:
            pass

        g = b.graph.StateGraph(dict)
        g.add_node("start", lambda state: state)
        g.add_edge(b.graph.START, "start")
        accepted = [type(g.compile(checkpointer=c).checkpointer).__name__ for c in (None, True)]
        try:
            g.compile(checkpointer=NotACheckpointer())
        except TypeError as exc:
            return accepted, str(exc)
        return accepted, "compiled"

    assert_same(scenario)


def test_a_dict_node_runs_each_entry_on_the_state(backend):
    """add_node with a dict, as langgraph coerces it: each key's runnable on the same input."""
    from typing import TypedDict

    class S(TypedDict, total=False):
        a: int
        b: int

    g = backend.graph
    builder = g.StateGraph(S)
    builder.add_node("both", {"a": lambda s: s["a"] + 1, "b": lambda s: s["a"] * 10})
    builder.add_edge(g.START, "both")
    assert builder.compile().invoke({"a": 2}) == {"a": 3, "b": 20}
