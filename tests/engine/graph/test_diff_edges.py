"""Differential tests of edges: static and join edges, fan-out, conditional edges (path maps,
Literal hints, lists, END), add_sequence, entry and finish points, Command goto beside edges.

Each test runs on both backends (`backend` fixture) and asserts what langgraph 1.2.24 gives.
"""

import operator
from typing import Annotated, TypedDict

from tests.engine.graphs import (
    C,
    Log,
    _cond_app,
    _g,
    _join_app,
    _logger,
    _sg,
    route_literal,
)


def test_add_edge_with_several_sources_waits_for_all(backend):
    app = _join_app(backend, joined=True)
    assert app.invoke({"log": []}) == {"log": ["a", "b", "b2", "c"]}
    steps = list(app.stream({"log": []}, stream_mode="updates"))
    # a and b run in parallel (completion order is free), then b2, then c exactly once
    assert sorted(map(str, steps[:2])) == [
        "{'a': {'log': ['a']}}",
        "{'b': {'log': ['b']}}",
    ]
    assert steps[2:] == [{"b2": {"log": ["b2"]}}, {"c": {"log": ["c"]}}]


def test_join_edge_channels_and_triggers(backend):
    app = _join_app(backend, joined=True)
    assert app.nodes["c"].triggers == ["branch:to:c", "join:a+b2:c"]
    assert type(app.channels["join:a+b2:c"]).__name__ == "NamedBarrierValue"


def test_separate_edges_into_one_target_run_it_twice(backend):
    app = _join_app(backend, joined=False)
    assert app.invoke({"log": []}) == {"log": ["a", "b", "b2", "c", "c"]}
    assert app.nodes["c"].triggers == ["branch:to:c"]


def test_conditional_edges_literal_return_type(backend):
    app = _cond_app(backend, route_literal)
    assert app.invoke({"log": [], "n": 1}) == {"log": ["start", "x"], "n": 1}
    assert app.invoke({"log": [], "n": 0}) == {"log": ["start", "y"], "n": 0}
    edges = [(e.source, e.target, e.conditional) for e in app.get_graph().edges]
    assert edges == [
        ("__start__", "start", False),
        ("start", "x", True),
        ("start", "y", True),
        ("x", "__end__", False),
        ("y", "__end__", False),
    ]


def test_conditional_edges_list_return_and_end(backend):
    END = backend.graph.END
    app = _cond_app(backend, lambda s: ["x", "y"] if s["n"] > 0 else END, ["x", "y", END])
    assert app.invoke({"log": [], "n": 1}) == {"log": ["start", "x", "y"], "n": 1}
    assert app.invoke({"log": [], "n": 0}) == {"log": ["start"], "n": 0}


def test_conditional_edges_path_map_dict(backend):
    END = backend.graph.END
    app = _cond_app(backend, lambda s: s["n"] > 0, {True: "x", False: END})
    assert app.invoke({"log": [], "n": 1}) == {"log": ["start", "x"], "n": 1}
    assert app.invoke({"log": [], "n": 0}) == {"log": ["start"], "n": 0}


def test_conditional_edges_path_map_list(backend):
    app = _cond_app(backend, lambda s: "y", ["x", "y"])
    assert app.invoke({"log": [], "n": 0}) == {"log": ["start", "y"], "n": 0}
    assert [(e.source, e.target, e.conditional) for e in app.get_graph().edges][1:3] == [
        ("start", "x", True),
        ("start", "y", True),
    ]


def test_conditional_edges_router_returning_empty_list_ends(backend):
    app = _cond_app(backend, lambda s: [], ["x", "y"])
    assert app.invoke({"log": [], "n": 0}) == {"log": ["start"], "n": 0}


def test_two_named_conditional_edges_from_one_node(backend):
    StateGraph, START, _ = _g(backend)

    def to_x(s):
        return "x"

    def to_y(s):
        return "y"

    g = StateGraph(Log)
    for name in ("start", "x", "y"):
        g.add_node(name, _logger(name))
    g.add_edge(START, "start")
    g.add_conditional_edges("start", to_x, ["x"])
    g.add_conditional_edges("start", to_y, ["y"])
    app = g.compile()
    assert app.invoke({"log": []}) == {"log": ["start", "x", "y"]}
    assert len(app.nodes["start"].writers) == 3  # state write + one per branch


def test_add_sequence(backend):
    StateGraph, START, _ = _g(backend)
    g = StateGraph(Log)
    g.add_sequence([_logger("s1"), ("two", _logger("s2")), _logger("s3")])
    g.add_edge(START, "s1")
    app = g.compile()
    assert app.invoke({"log": []}) == {"log": ["s1", "s2", "s3"]}
    assert list(app.nodes) == ["__start__", "s1", "two", "s3"]
    assert [(e.source, e.target, e.conditional) for e in app.get_graph().edges] == [
        ("__start__", "s1", False),
        ("s1", "two", False),
        ("two", "s3", False),
        ("s3", "__end__", False),
    ]


def test_set_entry_point_and_finish_point(backend):
    StateGraph, _, _ = _g(backend)
    g = StateGraph(Log)
    g.add_node("a", _logger("a"))
    g.add_node("b", _logger("b"))
    g.set_entry_point("a")
    g.add_edge("a", "b")
    g.set_finish_point("b")
    app = g.compile()
    assert app.invoke({"log": []}) == {"log": ["a", "b"]}
    assert [(e.source, e.target, e.conditional) for e in app.get_graph().edges] == [
        ("__start__", "a", False),
        ("a", "b", False),
        ("b", "__end__", False),
    ]


def test_set_conditional_entry_point(backend):
    StateGraph, _, _ = _g(backend)
    g = StateGraph(Log)
    g.add_node("a", _logger("a"))
    g.add_node("b", _logger("b"))
    g.set_conditional_entry_point(lambda s: "a" if s["n"] else "b", {"a": "a", "b": "b"})
    app = g.compile()
    assert app.invoke({"log": [], "n": 1}) == {"log": ["a"], "n": 1}
    assert app.invoke({"log": [], "n": 0}) == {"log": ["b"], "n": 0}
    assert [(e.source, e.target, e.conditional) for e in app.get_graph().edges] == [
        ("__start__", "a", True),
        ("__start__", "b", True),
        ("a", "__end__", False),
        ("b", "__end__", False),
    ]


def test_command_goto_and_static_edge_both_followed(backend):
    StateGraph, START, _ = _g(backend)
    Command = backend.types.Command
    g = StateGraph(Log)
    g.add_node("a", lambda s: Command(goto="b", update={"log": ["a"]}))
    g.add_node("b", _logger("b"))
    g.add_node("c", _logger("c"))
    g.add_edge(START, "a")
    g.add_edge("a", "c")
    assert g.compile().invoke({"log": []}) == {"log": ["a", "b", "c"]}


def test_parallel_fan_out(backend):
    StateGraph, START = _sg(backend)

    class State(TypedDict):
        log: Annotated[list, operator.add]

    builder = StateGraph(State)
    builder.add_node("a", lambda s: {"log": ["a"]})
    builder.add_node("b", lambda s: {"log": ["b"]})
    builder.add_node("c", lambda s: {"log": ["c"]})
    builder.add_node("d", lambda s: {"log": ["d"]})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("a", "c")
    builder.add_edge(["b", "c"], "d")
    app = builder.compile()
    assert app.invoke({"log": []}) == {"log": ["a", "b", "c", "d"]}
    assert [list(c) for c in app.stream({"log": []}, stream_mode="updates")] == [
        ["a"],
        ["b"],
        ["c"],
        ["d"],
    ]


def test_conditional_edge_path_map_and_conditional_entry(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END

    class State(TypedDict):
        success: bool
        path: Annotated[list, operator.add]

    def routing_function(state: State) -> bool:
        return state["success"]

    def build(entry_conditional):
        graph = StateGraph(State)
        graph.add_node("node_a", lambda s: {"path": ["a"]})
        graph.add_node("node_b", lambda s: {"path": ["b"]})
        graph.add_node("node_c", lambda s: {"path": ["c"]})
        if entry_conditional:
            graph.add_conditional_edges(START, routing_function, {True: "node_b", False: "node_c"})
        else:
            graph.add_edge(START, "node_a")
            graph.add_conditional_edges(
                "node_a", routing_function, {True: "node_b", False: "node_c"}
            )
        graph.add_edge("node_b", END)
        graph.add_edge("node_c", END)
        return graph.compile()

    assert build(False).invoke({"success": True, "path": []}) == {
        "success": True,
        "path": ["a", "b"],
    }
    assert build(False).invoke({"success": False, "path": []}) == {
        "success": False,
        "path": ["a", "c"],
    }
    assert build(True).invoke({"success": True, "path": []}) == {"success": True, "path": ["b"]}
    assert build(True).invoke({"success": False, "path": []}) == {"success": False, "path": ["c"]}


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
