"""Differential tests: Send (map-reduce fan-out) and Command (update + goto, PARENT).

Every test runs on both backends through the `backend` fixture; the expected values were taken
from langgraph 1.2.24. Parallel tasks of one superstep finish in any order, so stream chunks of
such a step are compared as multisets; the order in which a reducer applies the writes of one
step is deterministic in langgraph and is asserted exactly.
"""

import logging
import operator
import threading
import time
from typing import Annotated, Any, Literal, TypedDict

import pytest

from tests.engine.graphs import FooPath, _sg
from tests.oracle import assert_same, normalize

pytestmark = pytest.mark.differential


class Jokes(TypedDict):
    subjects: list[str]
    jokes: Annotated[list[str], operator.add]


class Items(TypedDict):
    items: list[int]
    out: Annotated[list[str], operator.add]


class WorkIn(TypedDict):
    n: int
    tag: str


class Log(TypedDict):
    log: Annotated[list[str], operator.add]
    x: int


class Topics(TypedDict):
    topics: list[str]
    out: Annotated[list[str], operator.add]


class Shared(TypedDict):
    log: Annotated[list[str], operator.add]
    flag: str


def assert_steps(chunks: list, steps: list[list]) -> None:
    """`chunks` is the concatenation of `steps`; inside one step any order is accepted."""
    pos = 0
    for step in steps:
        got = chunks[pos : pos + len(step)]
        assert sorted(map(repr, normalize(got))) == sorted(map(repr, normalize(step))), (
            f"step starting at chunk {pos}: {got!r} != {step!r}"
        )
        pos += len(step)
    assert pos == len(chunks), f"extra chunks: {chunks[pos:]!r}"


def edges(app) -> list[tuple]:
    return sorted((e.source, e.target, e.conditional, e.data) for e in app.get_graph().edges)


# --------------------------------------------------------------------------------------------
# Send
# --------------------------------------------------------------------------------------------


def _jokes_graph(b):
    Send = b.types.Send

    def joke(state):
        return {"jokes": [f"joke about {state['subject']}"]}

    g = b.graph.StateGraph(Jokes)
    g.add_node("joke", joke)
    g.add_conditional_edges(
        b.graph.START, lambda s: [Send("joke", {"subject": x}) for x in s["subjects"]]
    )
    g.add_edge("joke", b.graph.END)
    return g.compile()


def test_send_fanout_from_start(backend):
    app = _jokes_graph(backend)
    assert app.invoke({"subjects": ["a", "b", "c"]}) == {
        "subjects": ["a", "b", "c"],
        "jokes": ["joke about a", "joke about b", "joke about c"],
    }


def test_send_fanout_with_no_items(backend):
    app = _jokes_graph(backend)
    assert app.invoke({"subjects": []}) == {"subjects": [], "jokes": []}


def test_send_fanout_updates_stream(backend):
    app = _jokes_graph(backend)
    chunks = list(app.stream({"subjects": ["a", "b", "c"]}, stream_mode="updates"))
    assert_steps(
        chunks,
        [
            [
                {"joke": {"jokes": ["joke about a"]}},
                {"joke": {"jokes": ["joke about b"]}},
                {"joke": {"jokes": ["joke about c"]}},
            ]
        ],
    )


def test_send_fanout_tasks_stream(backend):
    app = _jokes_graph(backend)
    chunks = list(app.stream({"subjects": ["a", "b"]}, stream_mode="tasks"))
    starts = [c for c in chunks if "input" in c]
    results = [c for c in chunks if "result" in c]
    assert len(chunks) == 4
    assert chunks[:2] == starts  # every start of the step comes before any result
    # start events are emitted in Send order
    assert [(c["name"], c["input"], c["triggers"]) for c in starts] == [
        ("joke", {"subject": "a"}, ("__pregel_push",)),
        ("joke", {"subject": "b"}, ("__pregel_push",)),
    ]
    assert sorted((c["name"], c["error"], repr(c["result"]), c["interrupts"]) for c in results) == [
        ("joke", None, "{'jokes': ['joke about a']}", []),
        ("joke", None, "{'jokes': ['joke about b']}", []),
    ]
    # a result carries the id of its start event
    assert {c["id"] for c in starts} == {c["id"] for c in results}
    assert len({c["id"] for c in starts}) == 2


def test_send_fanout_graph_drawing(backend):
    """A path function without path_map: langgraph draws START -.-> END and leaves the Send target
    unconnected."""
    app = _jokes_graph(backend)
    assert edges(app) == [("__start__", "__end__", True, None)]
    assert sorted(app.get_graph().nodes) == ["__end__", "__start__", "joke"]


def test_send_reducer_order_is_send_order_not_completion_order(backend):
    Send = backend.types.Send

    def work(state):
        time.sleep(0.03 * state["n"])  # the first Send finishes last
        return {"out": [f"w{state['n']}"]}

    g = backend.graph.StateGraph(Items)
    g.add_node("work", work)
    g.add_conditional_edges(
        backend.graph.START, lambda s: [Send("work", {"n": n}) for n in s["items"]]
    )
    app = g.compile()
    assert app.invoke({"items": [3, 2, 1, 0]}) == {
        "items": [3, 2, 1, 0],
        "out": ["w3", "w2", "w1", "w0"],
    }


def test_send_to_node_with_input_schema_gets_payload_as_is(backend):
    Send = backend.types.Send
    seen = []

    def work(state: WorkIn):
        seen.append(dict(state))
        return {"out": [f"{state['tag']}{state['n']}"]}

    g = backend.graph.StateGraph(Items)
    g.add_node("work", work, input_schema=WorkIn)
    g.add_conditional_edges(
        backend.graph.START,
        lambda s: [Send("work", {"n": n, "tag": "t", "extra": 1}) for n in s["items"]],
    )
    app = g.compile()
    assert app.invoke({"items": [2, 1]}) == {"items": [2, 1], "out": ["t2", "t1"]}
    # the Send payload is not filtered by the input schema
    assert sorted(seen, key=lambda d: d["n"]) == [
        {"n": 1, "tag": "t", "extra": 1},
        {"n": 2, "tag": "t", "extra": 1},
    ]


def test_send_to_node_with_annotated_input_schema(backend):
    Send = backend.types.Send
    seen = []

    def work(state: WorkIn):
        seen.append(dict(state))
        return {"out": [str(state["n"])]}

    g = backend.graph.StateGraph(Items)
    g.add_node("work", work)
    g.add_conditional_edges(
        backend.graph.START, lambda s: [Send("work", {"n": n}) for n in s["items"]]
    )
    assert g.compile().invoke({"items": [2, 1]}) == {"items": [2, 1], "out": ["2", "1"]}
    assert sorted(seen, key=lambda d: d["n"]) == [{"n": 1}, {"n": 2}]


def _send_plus_static_graph(b):
    Send, Command = b.types.Send, b.types.Command

    def plan(state):
        return {"out": ["plan"]}

    def work(state):
        n = state["n"]
        if n > 1:  # nested fan-out: a Send task sends again
            return Command(goto=[Send("work", {"n": n - 1})], update={"out": [f"w{n}"]})
        return {"out": [f"w{n}"]}

    g = b.graph.StateGraph(Items)
    g.add_node("plan", plan)
    g.add_node("work", work)
    g.add_node("static", lambda s: {"out": ["static"]})
    g.add_node("final", lambda s: {"out": ["final"]})
    g.add_edge(b.graph.START, "plan")
    g.add_conditional_edges("plan", lambda s: [Send("work", {"n": n}) for n in s["items"]])
    g.add_edge("plan", "static")
    g.add_edge("static", "final")
    return g.compile()


def test_send_from_node_plus_static_edge_and_nested_send(backend):
    app = _send_plus_static_graph(backend)
    # Within a step the writes of edge-triggered tasks are applied before those of Send tasks.
    assert app.invoke({"items": [3, 1]}) == {
        "items": [3, 1],
        "out": ["plan", "static", "w3", "w1", "final", "w2", "w1"],
    }


def test_send_from_node_plus_static_edge_updates_stream(backend):
    app = _send_plus_static_graph(backend)
    chunks = list(app.stream({"items": [3, 1]}, stream_mode="updates"))
    assert_steps(
        chunks,
        [
            [{"plan": {"out": ["plan"]}}],
            [
                {"work": {"out": ["w3"]}},
                {"work": {"out": ["w1"]}},
                {"static": {"out": ["static"]}},
            ],
            [{"work": {"out": ["w2"]}}, {"final": {"out": ["final"]}}],
            [{"work": {"out": ["w1"]}}],
        ],
    )


def test_send_from_node_tasks_stream_per_step(backend):
    app = _send_plus_static_graph(backend)
    chunks = list(app.stream({"items": [3, 1]}, stream_mode="tasks"))
    starts = [(c["name"], c["input"], c["triggers"]) for c in chunks if "input" in c]
    static_input = {"items": [3, 1], "out": ["plan"]}
    assert sorted(map(repr, starts)) == sorted(
        map(
            repr,
            [
                ("plan", {"items": [3, 1], "out": []}, ("branch:to:plan",)),
                ("work", {"n": 3}, ("__pregel_push",)),
                ("work", {"n": 1}, ("__pregel_push",)),
                ("static", static_input, ("branch:to:static",)),
                ("work", {"n": 2}, ("__pregel_push",)),
                (
                    "final",
                    {"items": [3, 1], "out": ["plan", "static", "w3", "w1"]},
                    ("branch:to:final",),
                ),
                ("work", {"n": 1}, ("__pregel_push",)),
            ],
        )
    )
    results = sorted((c["name"], repr(c["result"])) for c in chunks if "result" in c)
    assert results == sorted(
        [
            ("plan", "{'out': ['plan']}"),
            ("work", "{'out': ['w3']}"),
            ("work", "{'out': ['w1']}"),
            ("static", "{'out': ['static']}"),
            ("work", "{'out': ['w2']}"),
            ("final", "{'out': ['final']}"),
            ("work", "{'out': ['w1']}"),
        ]
    )
    assert chunks[0]["name"] == "plan" and "input" in chunks[0]
    assert chunks[1]["name"] == "plan" and "result" in chunks[1]


def test_branch_after_send_task_sees_state_plus_own_writes(backend):
    Send = backend.types.Send
    seen = []

    def fan_sub(state):
        seen.append(sorted(state))
        return [Send("leaf", {"t": state["out"][-1]})]

    g = backend.graph.StateGraph(Topics)
    g.add_node("topic", lambda s: {"out": [f"topic:{s['topic']}"]})
    g.add_node("leaf", lambda s: {"out": [f"leaf<{s['t']}>"]})
    g.add_conditional_edges(
        backend.graph.START, lambda s: [Send("topic", {"topic": t}) for t in s["topics"]]
    )
    g.add_conditional_edges("topic", fan_sub)
    app = g.compile()
    assert app.invoke({"topics": ["x", "y"]}) == {
        "topics": ["x", "y"],
        "out": ["topic:x", "topic:y", "leaf<topic:x>", "leaf<topic:y>"],
    }
    assert seen == [["out", "topics"], ["out", "topics"]]


# --------------------------------------------------------------------------------------------
# Command
# --------------------------------------------------------------------------------------------


def _abc(b, a_func, *, destinations=None, a_to_b=False):
    g = b.graph.StateGraph(Log)
    if destinations is None:
        g.add_node("a", a_func)
    else:
        g.add_node("a", a_func, destinations=destinations)
    g.add_node("b", lambda s: {"log": ["b"]})
    g.add_node("c", lambda s: {"log": ["c"]})
    g.add_edge(b.graph.START, "a")
    if a_to_b:
        g.add_edge("a", "b")
    return g.compile()


def test_command_update_and_goto_without_edge(backend):
    Command = backend.types.Command

    def a(state) -> Command[Literal["b", "c"]]:
        return Command(update={"log": ["a"], "x": 1}, goto="b")

    app = _abc(backend, a)
    assert app.invoke({"log": []}) == {"log": ["a", "b"], "x": 1}
    assert list(app.stream({"log": []}, stream_mode="updates")) == [
        {"a": {"log": ["a"], "x": 1}},
        {"b": {"log": ["b"]}},
    ]
    # the return annotation declares the possible destinations for drawing
    assert edges(app) == [
        ("__start__", "a", False, None),
        ("a", "b", True, None),
        ("a", "c", True, None),
        ("b", "__end__", False, None),
        ("c", "__end__", False, None),
    ]


def test_command_goto_list_and_update_as_list_of_tuples(backend):
    Command = backend.types.Command

    def a(state):
        return Command(update=[("log", ["a1"]), ("log", ["a2"]), ("x", 7)], goto=["b", "c"])

    app = _abc(backend, a)
    assert app.invoke({"log": [], "x": 0}) == {"log": ["a1", "a2", "b", "c"], "x": 7}
    assert_steps(
        list(app.stream({"log": [], "x": 0}, stream_mode="updates")),
        [
            # a key written twice makes the node's update a list of one-key dicts
            [{"a": [{"log": ["a1"]}, {"log": ["a2"]}, {"x": 7}]}],
            [{"b": {"log": ["b"]}}, {"c": {"log": ["c"]}}],
        ],
    )


def test_command_goto_send(backend):
    Command, Send = backend.types.Command, backend.types.Send
    seen = []

    def b_node(state):
        seen.append(state)
        return {"log": [f"b:{state['msg']}"]}

    g = backend.graph.StateGraph(Log)
    g.add_node("a", lambda s: Command(goto=[Send("b", {"msg": "one"}), Send("b", {"msg": "two"})]))
    g.add_node("b", b_node)
    g.add_edge(backend.graph.START, "a")
    app = g.compile()
    assert app.invoke({"log": [], "x": 0}) == {"log": ["b:one", "b:two"], "x": 0}
    assert sorted(s["msg"] for s in seen) == ["one", "two"]
    assert all(sorted(s) == ["msg"] for s in seen)


def test_command_goto_single_send(backend):
    Command, Send = backend.types.Command, backend.types.Send
    g = backend.graph.StateGraph(Log)
    g.add_node("a", lambda s: Command(goto=Send("b", {"msg": "solo"}), update={"x": 3}))
    g.add_node("b", lambda s: {"log": [s["msg"]]})
    g.add_edge(backend.graph.START, "a")
    assert g.compile().invoke({"log": []}) == {"log": ["solo"], "x": 3}


def test_command_goto_end_with_static_edge_still_fires(backend):
    Command, END = backend.types.Command, backend.graph.END
    app = _abc(backend, lambda s: Command(goto=END, update={"x": 5}), a_to_b=True)
    assert app.invoke({"log": [], "x": 0}) == {"log": ["b"], "x": 5}


def test_command_goto_end_alone_stops(backend):
    Command, END = backend.types.Command, backend.graph.END
    app = _abc(backend, lambda s: Command(goto=END, update={"log": ["a"]}))
    assert app.invoke({"log": [], "x": 0}) == {"log": ["a"], "x": 0}


def test_command_plus_static_edge_both_fire(backend):
    Command = backend.types.Command
    app = _abc(
        backend, lambda s: Command(goto="c", update={"x": 5}), destinations=("c",), a_to_b=True
    )
    assert app.invoke({"log": [], "x": 0}) == {"log": ["b", "c"], "x": 5}
    assert edges(app) == [
        ("__start__", "a", False, None),
        ("a", "b", False, None),
        ("a", "c", True, None),
        ("b", "__end__", False, None),
        ("c", "__end__", False, None),
    ]


def test_command_destinations_dict_labels_edges(backend):
    Command = backend.types.Command
    app = _abc(
        backend,
        lambda s: Command(goto="c", update={"x": 5}),
        destinations={"c": "to c", "b": "to b"},
    )
    assert app.invoke({"log": [], "x": 0}) == {"log": ["c"], "x": 5}
    assert edges(app) == [
        ("__start__", "a", False, None),
        ("a", "b", True, "to b"),
        ("a", "c", True, "to c"),
        ("b", "__end__", False, None),
        ("c", "__end__", False, None),
    ]


def test_command_invalid_goto_is_ignored_with_warning(backend, caplog):
    """langgraph 1.2.24 does not raise: the write to the unknown branch is dropped and logged."""
    Command = backend.types.Command
    app = _abc(backend, lambda s: Command(goto="nope", update={"log": ["a"]}))
    with caplog.at_level(logging.WARNING):
        assert app.invoke({"log": []}) == {"log": ["a"]}
    assert any(r.levelno == logging.WARNING and "nope" in r.getMessage() for r in caplog.records)


def test_send_to_unknown_node_is_ignored_with_warning(backend, caplog):
    Send = backend.types.Send
    g = backend.graph.StateGraph(Log)
    g.add_node("a", lambda s: {"log": ["a"]})
    g.add_conditional_edges(backend.graph.START, lambda s: [Send("nope", {}), Send("a", {})])
    with caplog.at_level(logging.WARNING):
        assert g.compile().invoke({"log": []}) == {"log": ["a"]}
    assert any(r.levelno == logging.WARNING and "nope" in r.getMessage() for r in caplog.records)


def _parent_graph(b, *, static_after: bool):
    Command = b.types.Command

    def sub_a(state):
        return Command(graph=Command.PARENT, goto="other", update={"log": ["sub_a"], "flag": "set"})

    sg = b.graph.StateGraph(Shared)
    sg.add_node("sub_a", sub_a)
    sg.add_node("sub_b", lambda s: {"log": ["sub_b"]})
    sg.add_edge(b.graph.START, "sub_a")
    sg.add_edge("sub_a", "sub_b")
    sub = sg.compile()

    g = b.graph.StateGraph(Shared)
    if static_after:
        g.add_node("sub", sub)
    else:
        g.add_node("sub", sub, destinations=("other",))
    g.add_node("other", lambda s: {"log": ["other:" + s["flag"]]})
    g.add_node("after", lambda s: {"log": ["after"]})
    g.add_edge(b.graph.START, "sub")
    if static_after:
        g.add_edge("sub", "after")
    return g.compile()


def test_command_parent_from_subgraph_node(backend):
    app = _parent_graph(backend, static_after=False)
    # the subgraph stops at sub_a (sub_b never runs); the update lands in the parent state
    assert app.invoke({"log": ["in"], "flag": ""}) == {
        "log": ["in", "sub_a", "other:set"],
        "flag": "set",
    }
    assert list(app.stream({"log": ["in"], "flag": ""}, stream_mode="updates")) == [
        {"sub": {"log": ["sub_a"], "flag": "set"}},
        {"other": {"log": ["other:set"]}},
    ]
    assert sorted((e.source, e.target, e.conditional) for e in app.get_graph().edges) == [
        ("__start__", "sub", False),
        ("other", "__end__", False),
        ("sub", "other", True),
    ]


def test_command_parent_plus_static_edge_of_subgraph_node(backend):
    app = _parent_graph(backend, static_after=True)
    assert app.invoke({"log": ["in"], "flag": ""}) == {
        "log": ["in", "sub_a", "after", "other:set"],
        "flag": "set",
    }


def test_command_parent_from_subgraph_invoked_inside_node(backend):
    Command = backend.types.Command

    def sub_a(state):
        return Command(graph=Command.PARENT, goto="other", update={"log": ["sub_a"]})

    sg = backend.graph.StateGraph(Shared)
    sg.add_node("sub_a", sub_a)
    sg.add_edge(backend.graph.START, "sub_a")
    sub = sg.compile()

    def call(state: Shared) -> Any:
        return sub.invoke(state)

    g = backend.graph.StateGraph(Shared)
    g.add_node("call", call)
    g.add_node("other", lambda s: {"log": ["other"]})
    g.add_edge(backend.graph.START, "call")
    assert g.compile().invoke({"log": ["in"], "flag": "f"}) == {
        "log": ["in", "sub_a", "other"],
        "flag": "f",
    }


def test_send_map_reduce(backend):
    StateGraph, START = _sg(backend)
    END, Send = backend.graph.END, backend.types.Send

    class OverallState(TypedDict):
        subjects: list[str]
        jokes: Annotated[list[str], operator.add]

    class JokeState(TypedDict):
        subject: str

    def continue_to_jokes(state: OverallState):
        return [Send("generate_joke", {"subject": s}) for s in state["subjects"]]

    def generate_joke(state: JokeState):
        return {"jokes": [f"Joke about {state['subject']}"]}

    graph = StateGraph(OverallState)
    graph.add_node("node_a", lambda s: {"subjects": ["lions", "tigers", "bears"]})
    graph.add_node("generate_joke", generate_joke)
    graph.add_edge(START, "node_a")
    graph.add_conditional_edges("node_a", continue_to_jokes)
    graph.add_edge("generate_joke", END)
    app = graph.compile()
    assert app.invoke({"subjects": [], "jokes": []}) == {
        "subjects": ["lions", "tigers", "bears"],
        "jokes": ["Joke about lions", "Joke about tigers", "Joke about bears"],
    }


def test_command_update_and_goto(backend):
    StateGraph, START = _sg(backend)
    Command = backend.types.Command
    State = FooPath

    def my_node(state: State) -> Command[Literal["my_other_node"]]:
        return Command(update={"foo": "bar"}, goto="my_other_node")

    builder = StateGraph(State)
    builder.add_node("my_node", my_node)
    builder.add_node("my_other_node", lambda s: {"path": [f"other saw {s['foo']}"]})
    builder.add_edge(START, "my_node")
    app = builder.compile()
    assert app.invoke({"foo": "", "path": []}) == {"foo": "bar", "path": ["other saw bar"]}
    # the Command[Literal[...]] annotation gives the drawn graph its edge
    edges = sorted((e.source, e.target, e.conditional) for e in app.get_graph().edges)
    assert edges == [
        ("__start__", "my_node", False),
        ("my_node", "my_other_node", True),
        ("my_other_node", "__end__", False),
    ]


def test_command_dynamic_control_flow(backend):
    StateGraph, START = _sg(backend)
    Command = backend.types.Command
    State = FooPath

    def my_node(state: State) -> Command[Literal["node_a", "node_b"]]:
        if state["foo"] == "bar":
            return Command(update={"foo": "baz"}, goto="node_a")
        return Command(update={"foo": "qux"}, goto="node_b")

    builder = StateGraph(State)
    builder.add_node("my_node", my_node)
    builder.add_node("node_a", lambda s: {"path": ["a"]})
    builder.add_node("node_b", lambda s: {"path": ["b"]})
    builder.add_edge(START, "my_node")
    app = builder.compile()
    assert app.invoke({"foo": "bar", "path": []}) == {"foo": "baz", "path": ["a"]}
    assert app.invoke({"foo": "zzz", "path": []}) == {"foo": "qux", "path": ["b"]}


def test_command_static_edges_still_run(backend):
    StateGraph, START = _sg(backend)
    Command = backend.types.Command

    class State(TypedDict):
        path: Annotated[list, operator.add]

    def node_a(state: State) -> Command[Literal["x"]]:
        return Command(update={"path": ["a"]}, goto="x")

    builder = StateGraph(State)
    builder.add_node("node_a", node_a)
    builder.add_node("node_b", lambda s: {"path": ["b"]})
    builder.add_node("x", lambda s: {"path": ["x"]})
    builder.add_edge(START, "node_a")
    builder.add_edge("node_a", "node_b")
    app = builder.compile()
    assert app.invoke({"path": []}) == {"path": ["a", "b", "x"]}


def test_command_graph_parent(backend):
    StateGraph, START = _sg(backend)
    Command = backend.types.Command

    class State(TypedDict):
        foo: Annotated[list, operator.add]  # shared key: the parent must define a reducer

    def my_node(state: State) -> Command[Literal["other_subgraph"]]:
        return Command(update={"foo": ["bar"]}, goto="other_subgraph", graph=Command.PARENT)

    # as written (the Literal names a parent node), the subgraph fails validation on compile
    sub = StateGraph(State)
    sub.add_node("my_node", my_node)
    sub.add_edge(START, "my_node")
    with pytest.raises(ValueError, match="Found edge ending at unknown node `other_subgraph`"):
        sub.compile()

    def my_node_unannotated(state: State):
        return Command(update={"foo": ["bar"]}, goto="other_subgraph", graph=Command.PARENT)

    sub = StateGraph(State)
    sub.add_node("my_node", my_node_unannotated)
    sub.add_edge(START, "my_node")

    builder = StateGraph(State)
    builder.add_node("subgraph", sub.compile())
    builder.add_node("other_subgraph", lambda s: {"foo": ["other"]})
    builder.add_edge(START, "subgraph")
    app = builder.compile()
    assert app.invoke({"foo": []}) == {"foo": ["bar", "other"]}


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


def test_a_root_state_node_returning_several_commands_applies_each():
    def scenario(b):
        command = b.types.Command

        def node_a(state):
            return [command(update="a1"), command(update="a2")]

        g = b.graph.StateGraph(Annotated[str, operator.add])
        g.add_sequence([node_a, ("node_b", lambda state: "b")])
        g.add_edge(b.graph.START, "node_a")
        app = g.compile()
        return app.invoke(""), list(app.stream("", stream_mode="updates"))

    assert_same(scenario)


@pytest.mark.parametrize("persist", [None, True, False])
def test_command_parent_three_levels_deep_reaches_the_immediate_parent(persist):
    """Command.PARENT from the deepest graph jumps to a node of the graph running it, also when
    that graph keeps its own history (checkpointer=True names it without task ids)."""

    class Dialog(TypedDict):
        dialog_state: Annotated[list[str], operator.add]

    def scenario(b):
        graph_mod, command = b.graph, b.types.Command

        def deepest(state):
            return command(
                graph=command.PARENT, goto="sub_child_3", update={"dialog_state": ["deep"]}
            )

        inner = graph_mod.StateGraph(Dialog)
        inner.add_node("deepest", deepest)
        inner.add_edge(graph_mod.START, "deepest")
        middle = graph_mod.StateGraph(Dialog)
        middle.add_node("sub_child_1", lambda s: {"dialog_state": ["sub_child_1"]})
        middle.add_node(
            "sub_child_2", inner.compile(checkpointer=persist), destinations=("sub_child_3",)
        )
        middle.add_node("sub_child_3", lambda s: {"dialog_state": ["sub_child_3"]})
        middle.add_edge(graph_mod.START, "sub_child_1")
        middle.add_edge("sub_child_1", "sub_child_2")
        outer = graph_mod.StateGraph(Dialog)
        outer.add_node("child_1", lambda s: {"dialog_state": ["child_1"]})
        outer.add_node("child_2", middle.compile(checkpointer=persist))
        outer.add_edge(graph_mod.START, "child_1")
        outer.add_edge("child_1", "child_2")
        app = outer.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        return app.invoke({"dialog_state": ["init"]}, {"configurable": {"thread_id": "1"}})

    assert_same(scenario)


@pytest.mark.parametrize("jump_from", [0, 1, 2])
def test_command_parent_from_a_tasks_second_graph(jump_from):
    """A node runs two graphs; Command.PARENT from either reaches the node's graph (the second
    graph's `|1` namespace segment is not a level)."""

    class Parent(TypedDict):
        jump_from_idx: int

    class Child(TypedDict):
        jump: bool

    def scenario(b):
        graph_mod, command = b.graph, b.types.Command

        def child_node(state):
            return command(graph=command.PARENT, goto="second") if state["jump"] else state

        child = graph_mod.StateGraph(Child)
        child.add_node("node", child_node)
        child.add_edge(graph_mod.START, "node")
        first_child, second_child = child.compile(), child.compile()

        def first(state):
            first_child.invoke({"jump": state["jump_from_idx"] == 1})
            second_child.invoke({"jump": state["jump_from_idx"] == 2})
            return state

        parent = graph_mod.StateGraph(Parent)
        parent.add_node("first", first)
        parent.add_node("second", lambda state: {"jump_from_idx": state["jump_from_idx"] + 10})
        parent.add_edge(graph_mod.START, "first")
        return parent.compile().invoke({"jump_from_idx": jump_from})

    assert_same(scenario)


class _Session:
    """A live resource (it holds a lock) that no serializer can store."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lock = threading.Lock()


@pytest.mark.parametrize("durability", ["sync", "exit"])
def test_send_of_a_state_with_an_untracked_value_is_saved_without_it(backend, durability):
    StateGraph, START = _sg(backend)
    UntrackedValue = backend.mod("channels").UntrackedValue
    Send = backend.mod("types").Send
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver

    class State(TypedDict):
        log: Annotated[list[str], operator.add]
        session: Annotated[_Session, UntrackedValue]

    def open_session(state: State) -> dict:
        return {"log": ["opened"], "session": _Session("s1")}

    def use(state: State) -> dict:
        return {"log": [f"used {state['session'].name}"], "session": _Session("s2")}

    builder = StateGraph(State)
    builder.add_node("open", open_session)
    builder.add_node("use", use)
    builder.add_edge(START, "open")
    builder.add_conditional_edges("open", lambda state: [Send("use", state)])
    saver = InMemorySaver()
    app = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "1"}}
    out = app.invoke({"log": []}, config, durability=durability)
    assert (out["log"], out["session"].name) == (["opened", "used s1"], "s2")
    assert app.get_state(config).values == {"log": ["opened", "used s1"]}
    saved_sends = [
        send.arg
        for tup in saver.list(config)
        for send in tup.checkpoint["channel_values"].get("__pregel_tasks", [])
    ] + [
        v.arg
        for tup in saver.list(config)
        for _, c, v in tup.pending_writes
        if c == "__pregel_tasks"
    ]
    assert all("session" not in arg for arg in saved_sends)
    assert len(saved_sends) == (2 if durability == "sync" else 0)  # a write and a channel value
