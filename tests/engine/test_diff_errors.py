"""Differential tests of failures: graph validation (which call raises, exception class and
message), invalid updates, recursion limit, exceptions inside nodes (with and without a
checkpointer), empty input, and the cases langgraph 1.2.24 tolerates silently.
"""

import logging
import operator
import threading
from typing import Annotated, TypedDict

import pytest

from tests.oracle import normalize


class S(TypedDict):
    log: Annotated[list, operator.add]
    n: int


def f(s):
    return {"log": ["f"]}


def _builder(backend, *nodes):
    g = backend.graph.StateGraph(S)
    for name in nodes:
        g.add_node(name, f)
    return g


def _err(excinfo):
    """(class name, message) with run-specific ids normalised."""
    return normalize(excinfo.value)


TROUBLESHOOT = (
    "\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/"
)


# --------------------------------------------------------------------------------------------
# Graph building: errors raised by add_node / add_edge themselves
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, message",
    [
        ("__start__", "Node `__start__` is reserved."),
        ("__end__", "Node `__end__` is reserved."),
        ("a:b", "':' is a reserved character and is not allowed in the node names."),
        ("branch:to:x", "':' is a reserved character and is not allowed in the node names."),
        ("a|b", "'|' is a reserved character and is not allowed in the node names."),
    ],
)
def test_reserved_node_names(backend, name, message):
    g = _builder(backend)
    with pytest.raises(ValueError) as info:
        g.add_node(name, f)
    assert _err(info) == ("ValueError", message)


def test_node_name_pregel_tasks_is_allowed(backend):
    g = _builder(backend, "__pregel_tasks")
    g.add_edge(backend.graph.START, "__pregel_tasks")
    assert g.compile().invoke({"log": []}) == {"log": ["f"]}


def test_duplicate_node(backend):
    g = _builder(backend, "a")
    with pytest.raises(ValueError) as info:
        g.add_node("a", f)
    assert _err(info) == ("ValueError", "Node `a` already present.")


def test_duplicate_node_in_add_sequence(backend):
    g = _builder(backend)
    with pytest.raises(ValueError) as info:
        g.add_sequence([f, f])
    assert _err(info) == (
        "ValueError",
        "Node names must be unique: node with the name 'f' already exists. If you need to use "
        "two different runnables/callables with the same name (for example, using `lambda`), "
        "please provide them as tuples (name, runnable/callable).",
    )


def test_empty_sequence(backend):
    with pytest.raises(ValueError) as info:
        _builder(backend).add_sequence([])
    assert _err(info) == ("ValueError", "Sequence requires at least one node.")


def test_node_not_callable(backend):
    with pytest.raises(TypeError) as info:
        _builder(backend).add_node("a", 42)
    assert _err(info) == (
        "TypeError",
        "Expected a Runnable, callable or dict.Instead got an unsupported type: <class 'int'>",
    )


def test_edge_from_end(backend):
    g = _builder(backend, "a")
    with pytest.raises(ValueError) as info:
        g.add_edge(backend.graph.END, "a")
    assert _err(info) == ("ValueError", "END cannot be a start node")


def test_edge_to_start(backend):
    g = _builder(backend, "a")
    with pytest.raises(ValueError) as info:
        g.add_edge("a", backend.graph.START)
    assert _err(info) == ("ValueError", "START cannot be an end node")


def test_join_edge_with_unknown_source(backend):
    g = _builder(backend, "a")
    with pytest.raises(ValueError) as info:
        g.add_edge(["a", "zz"], "a")
    assert _err(info) == ("ValueError", "Need to add_node `zz` first")


def test_join_edge_with_start_or_end_source(backend):
    g = _builder(backend, "a")
    with pytest.raises(ValueError) as info:
        g.add_edge(["a", backend.graph.END], "a")
    assert _err(info) == ("ValueError", "END cannot be a start node")
    with pytest.raises(ValueError) as info:
        g.add_edge([backend.graph.START, "a"], "a")
    assert _err(info) == ("ValueError", "Need to add_node `__start__` first")


def test_duplicate_branch_name(backend):
    g = _builder(backend, "a", "b")
    g.add_edge(backend.graph.START, "b")

    def my_router(s):
        return "a"

    g.add_conditional_edges("b", my_router, ["a"])
    with pytest.raises(ValueError) as info:
        g.add_conditional_edges("b", my_router, ["a"])
    assert _err(info) == ("ValueError", "Branch with name `my_router` already exists for node `b`")


# --------------------------------------------------------------------------------------------
# compile(): validation
# --------------------------------------------------------------------------------------------


def test_no_entry_point(backend):
    g = _builder(backend, "a")
    with pytest.raises(ValueError) as info:
        g.compile()
    assert _err(info) == (
        "ValueError",
        "Graph must have an entrypoint: add at least one edge from START to another node",
    )


def test_no_nodes(backend):
    with pytest.raises(ValueError) as info:
        _builder(backend).compile()
    assert _err(info) == (
        "ValueError",
        "Graph must have an entrypoint: add at least one edge from START to another node",
    )


def test_entry_point_is_checked_before_unknown_targets(backend):
    g = _builder(backend, "a")
    g.add_edge("a", "nope")
    with pytest.raises(ValueError) as info:
        g.compile()
    assert "entrypoint" in str(info.value)


def test_edge_to_unknown_node(backend):
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    g.add_edge("a", "nope")  # accepted here, rejected by compile
    with pytest.raises(ValueError) as info:
        g.compile()
    assert _err(info) == ("ValueError", "Found edge ending at unknown node `nope`")


def test_edge_from_unknown_node(backend):
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    g.add_edge("nope", "a")
    with pytest.raises(ValueError) as info:
        g.compile()
    assert _err(info) == ("ValueError", "Found edge starting at unknown node 'nope'")


def test_set_entry_point_unknown(backend):
    g = _builder(backend, "a")
    g.set_entry_point("zz")
    with pytest.raises(ValueError) as info:
        g.compile()
    assert _err(info) == ("ValueError", "Found edge ending at unknown node `zz`")


def test_set_finish_point_unknown(backend):
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    g.set_finish_point("zz")
    with pytest.raises(ValueError) as info:
        g.compile()
    assert _err(info) == ("ValueError", "Found edge starting at unknown node 'zz'")


def test_conditional_edge_from_unknown_node(backend):
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    g.add_conditional_edges("q", lambda s: "a", ["a"])
    with pytest.raises(ValueError) as info:
        g.compile()
    assert _err(info) == ("ValueError", "Found edge starting at unknown node 'q'")


def test_conditional_edge_from_end(backend):
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    g.add_conditional_edges(backend.graph.END, lambda s: "a", ["a"])
    with pytest.raises(ValueError) as info:
        g.compile()
    assert _err(info) == ("ValueError", "Found edge starting at unknown node '__end__'")


@pytest.mark.parametrize("as_list", [False, True])
def test_conditional_path_map_to_unknown_node(backend, as_list):
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    g.add_conditional_edges("a", lambda s: "x", ["zzz"] if as_list else {"x": "zzz"})
    with pytest.raises(ValueError) as info:
        g.compile()
    # an unnamed (lambda) router is called 'condition'
    assert _err(info) == (
        "ValueError",
        "At 'a' node, 'condition' branch found unknown target 'zzz'",
    )


def test_conditional_path_map_to_unknown_node_named_router(backend):
    def route(s):
        return "x"

    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    g.add_conditional_edges("a", route, {"x": "zzz"})
    with pytest.raises(ValueError) as info:
        g.compile()
    assert _err(info) == ("ValueError", "At 'a' node, 'route' branch found unknown target 'zzz'")


def test_interrupt_before_unknown_node(backend):
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    for kwarg in ("interrupt_before", "interrupt_after"):
        with pytest.raises(ValueError) as info:
            g.compile(**{kwarg: ["zz"]})
        assert _err(info) == ("ValueError", "Interrupt node `zz` not found")
    g.compile(interrupt_before="*")  # the wildcard is fine


def test_adding_after_compile_warns_and_does_not_change_compiled_graph(backend, caplog):
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    app = g.compile()
    with caplog.at_level(logging.WARNING):
        g.add_node("b", f)
        g.add_edge("a", "b")
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "WARNING",
            "Adding a node to a graph that has already been compiled. This will not be "
            "reflected in the compiled graph.",
        ),
        (
            "WARNING",
            "Adding an edge to a graph that has already been compiled. This will not be "
            "reflected in the compiled graph.",
        ),
    ]
    assert list(app.nodes) == ["__start__", "a"]
    assert app.invoke({"log": []}) == {"log": ["f"]}
    assert list(g.compile().nodes) == ["__start__", "a", "b"]
    assert g.compile().invoke({"log": []}) == {"log": ["f", "f"]}


def test_graph_from_start_straight_to_end(backend):
    g = _builder(backend)
    g.add_edge(backend.graph.START, backend.graph.END)
    assert g.compile().invoke({"n": 1}) == {"log": [], "n": 1}


# --------------------------------------------------------------------------------------------
# Runtime: invalid updates
# --------------------------------------------------------------------------------------------


def test_two_writes_to_last_value_in_one_step(backend):
    InvalidUpdateError = backend.errors.InvalidUpdateError
    g = _builder(backend)
    g.add_node("a", lambda s: {"n": 1})
    g.add_node("b", lambda s: {"n": 2})
    g.add_edge(backend.graph.START, "a")
    g.add_edge(backend.graph.START, "b")
    with pytest.raises(InvalidUpdateError) as info:
        g.compile().invoke({"log": []})
    assert _err(info) == (
        "InvalidUpdateError",
        "At key 'n': Can receive only one value per step. Use an Annotated key to handle "
        "multiple values." + TROUBLESHOOT + "INVALID_CONCURRENT_GRAPH_UPDATE",
    )
    assert [k.__name__ for k in type(info.value).__mro__[:2]] == ["InvalidUpdateError", "Exception"]


def test_two_writes_to_last_value_in_raw_pregel(backend):
    LastValue, EphemeralValue = backend.channels.LastValue, backend.channels.EphemeralValue
    Pregel, NodeBuilder = backend.pregel.Pregel, backend.pregel.NodeBuilder
    app = Pregel(
        nodes={
            "one": NodeBuilder().subscribe_only("a").do(lambda x: x + "1").write_to("b"),
            "two": NodeBuilder().subscribe_only("a").do(lambda x: x + "2").write_to("b"),
        },
        channels={"a": EphemeralValue(str), "b": LastValue(str)},
        input_channels=["a"],
        output_channels=["b"],
    )
    with pytest.raises(backend.errors.InvalidUpdateError) as info:
        app.invoke({"a": "x"})
    # a hand-built channel has no key of its own: "At key ''" on both, as langgraph words it (a
    # program printing the error prints the same; the lecture view finds the channel itself)
    assert _err(info) == (
        "InvalidUpdateError",
        "At key '': Can receive only one value per step. Use an Annotated key to handle "
        "multiple values." + TROUBLESHOOT + "INVALID_CONCURRENT_GRAPH_UPDATE",
    )


def test_two_overwrites_in_one_step(backend):
    Overwrite = backend.types.Overwrite
    g = _builder(backend)
    g.add_node("a", lambda s: {"log": Overwrite(["a"])})
    g.add_node("b", lambda s: {"log": Overwrite(["b"])})
    g.add_edge(backend.graph.START, "a")
    g.add_edge(backend.graph.START, "b")
    with pytest.raises(backend.errors.InvalidUpdateError) as info:
        g.compile().invoke({"log": []})
    assert _err(info) == (
        "InvalidUpdateError",
        "Can receive only one Overwrite value per super-step."
        + TROUBLESHOOT
        + "INVALID_CONCURRENT_GRAPH_UPDATE",
    )


@pytest.mark.parametrize(
    "value, shown",
    [(42, "42"), (["x"], "['x']"), ("x", "x")],
)
def test_node_returning_non_dict(backend, value, shown):
    g = _builder(backend)
    g.add_node("a", lambda s: value)
    g.add_edge(backend.graph.START, "a")
    with pytest.raises(backend.errors.InvalidUpdateError) as info:
        g.compile().invoke({"log": []})
    assert _err(info) == (
        "InvalidUpdateError",
        f"Expected dict, got {shown}" + TROUBLESHOOT + "INVALID_GRAPH_NODE_RETURN_VALUE",
    )


def test_non_dict_input(backend):
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    with pytest.raises(backend.errors.InvalidUpdateError) as info:
        g.compile().invoke(5)
    assert _err(info) == (
        "InvalidUpdateError",
        "Expected dict, got 5" + TROUBLESHOOT + "INVALID_GRAPH_NODE_RETURN_VALUE",
    )


def test_node_returning_unknown_key_is_ignored(backend):
    # langgraph 1.2.24 silently drops keys that are not channels (no InvalidUpdateError)
    g = _builder(backend)
    g.add_node("a", lambda s: {"zzz": 1, "n": 3})
    g.add_node("b", lambda s: {"zzz": 1})
    g.add_edge(backend.graph.START, "a")
    g.add_edge("a", "b")
    app = g.compile()
    assert app.invoke({"log": []}) == {"log": [], "n": 3}
    # the updates stream drops them too; a node left with nothing shows None
    assert list(app.stream({"log": []}, stream_mode="updates")) == [
        {"a": {"n": 3}},
        {"b": None},
    ]


def test_reducer_error_on_input(backend):
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    with pytest.raises(TypeError) as info:
        g.compile().invoke({"log": 5})
    assert _err(info) == ("TypeError", 'can only concatenate list (not "int") to list')


# --------------------------------------------------------------------------------------------
# Runtime: routing mistakes
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("as_list", [False, True])
def test_router_returning_value_outside_path_map(backend, as_list):
    g = _builder(backend, "a", "b")
    g.add_edge(backend.graph.START, "a")
    g.add_conditional_edges("a", lambda s: "zzz", ["b"] if as_list else {"x": "b"})
    with pytest.raises(KeyError) as info:
        g.compile().invoke({"log": []})
    assert _err(info) == ("KeyError", "'zzz'")


def test_router_returning_none(backend):
    g = _builder(backend, "a", "b")
    g.add_edge(backend.graph.START, "a")
    g.add_conditional_edges("a", lambda s: None)
    with pytest.raises(ValueError) as info:
        g.compile().invoke({"log": []})
    assert _err(info) == ("ValueError", "Branch did not return a valid destination")


def test_router_without_path_map_to_unknown_node_is_ignored(backend, caplog):
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    g.add_conditional_edges("a", lambda s: "zzz")
    with caplog.at_level(logging.WARNING):
        assert g.compile().invoke({"log": []}) == {"log": ["f"]}
    assert [r.getMessage() for r in caplog.records] == [
        "Task a with path ('__pregel_pull', 'a') wrote to unknown channel branch:to:zzz, "
        "ignoring it."
    ]


def test_command_goto_unknown_node_is_ignored(backend, caplog):
    Command = backend.types.Command
    g = _builder(backend)
    g.add_node("a", lambda s: Command(goto="zzz", update={"n": 1}))
    g.add_edge(backend.graph.START, "a")
    with caplog.at_level(logging.WARNING):
        assert g.compile().invoke({"log": []}) == {"log": [], "n": 1}
    assert [r.getMessage() for r in caplog.records] == [
        "Task a with path ('__pregel_pull', 'a') wrote to unknown channel branch:to:zzz, "
        "ignoring it."
    ]


def test_send_to_unknown_node_is_ignored(backend, caplog):
    Send = backend.types.Send
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    g.add_conditional_edges("a", lambda s: [Send("zzz", {})])
    with caplog.at_level(logging.WARNING):
        assert g.compile().invoke({"log": []}) == {"log": ["f"]}
    assert [r.getMessage() for r in caplog.records] == [
        "Ignoring unknown node name zzz in pending sends"
    ]


# --------------------------------------------------------------------------------------------
# Runtime: recursion limit
# --------------------------------------------------------------------------------------------


def _counter(backend, stop_at=None):
    g = _builder(backend)
    g.add_node("a", lambda s: {"n": s.get("n", 0) + 1})
    g.add_edge(backend.graph.START, "a")
    if stop_at is None:
        g.add_edge("a", "a")
    else:
        g.add_conditional_edges("a", lambda s: backend.graph.END if s["n"] >= stop_at else "a")
    return g.compile()


def test_recursion_limit_error(backend):
    GraphRecursionError = backend.errors.GraphRecursionError
    with pytest.raises(GraphRecursionError) as info:
        _counter(backend).invoke({"log": []}, {"recursion_limit": 5})
    assert _err(info) == (
        "GraphRecursionError",
        "Recursion limit of 5 reached without hitting a stop condition. You can increase the "
        "limit by setting the `recursion_limit` config key."
        + TROUBLESHOOT
        + "GRAPH_RECURSION_LIMIT",
    )
    assert isinstance(info.value, RecursionError)


def test_recursion_limit_counts_supersteps(backend):
    # five runs of "a" are steps 1..5 after the input step 0: a limit of 6 is needed
    GraphRecursionError = backend.errors.GraphRecursionError
    with pytest.raises(GraphRecursionError):
        _counter(backend, stop_at=5).invoke({"n": 0}, {"recursion_limit": 5})
    assert _counter(backend, stop_at=5).invoke({"n": 0}, {"recursion_limit": 6}) == {
        "log": [],
        "n": 5,
    }
    # the default limit lets 30 steps through
    assert _counter(backend, stop_at=30).invoke({"n": 0}) == {"log": [], "n": 30}


def test_recursion_limit_reached_by_a_graph_that_just_finished(backend):
    # The limit is checked before looking for more tasks: a graph whose last node runs in
    # step N raises with recursion_limit=N after streaming all N updates.
    chunks = []
    with pytest.raises(backend.errors.GraphRecursionError):
        for chunk in _counter(backend, stop_at=5).stream(
            {"n": 0}, {"recursion_limit": 5}, stream_mode="updates"
        ):
            chunks.append(chunk)
    assert chunks == [{"a": {"n": i}} for i in range(1, 6)]


def test_recursion_limit_linear_graph(backend):
    g = _builder(backend)
    g.add_node("a", lambda s: {"n": 1})
    g.add_node("b", lambda s: {"n": 2})
    g.add_edge(backend.graph.START, "a")
    g.add_edge("a", "b")
    app = g.compile()
    for limit, expected in ((1, [{"a": {"n": 1}}]), (2, [{"a": {"n": 1}}, {"b": {"n": 2}}])):
        chunks = []
        with pytest.raises(backend.errors.GraphRecursionError):
            for chunk in app.stream({"n": 0}, {"recursion_limit": limit}):
                chunks.append(chunk)
        assert chunks == expected, limit
    assert list(app.stream({"n": 0}, {"recursion_limit": 3})) == [
        {"a": {"n": 1}},
        {"b": {"n": 2}},
    ]


# --------------------------------------------------------------------------------------------
# Runtime: exceptions in nodes
# --------------------------------------------------------------------------------------------


def boom(s):
    raise RuntimeError("kaboom")


def test_exception_in_node_propagates(backend):
    g = _builder(backend, "a")
    g.add_node("b", boom)
    g.add_edge(backend.graph.START, "a")
    g.add_edge("a", "b")
    with pytest.raises(RuntimeError) as info:
        g.compile().invoke({"log": []})
    assert _err(info) == ("RuntimeError", "kaboom")
    assert normalize(info.value.__notes__) == ["During task with name 'b' and id '<uuid>'"]


def test_exception_in_node_stream_yields_earlier_steps(backend):
    g = _builder(backend, "a")
    g.add_node("b", boom)
    g.add_edge(backend.graph.START, "a")
    g.add_edge("a", "b")
    chunks = []
    with pytest.raises(RuntimeError):
        for chunk in g.compile().stream({"log": []}, stream_mode=["updates", "tasks"]):
            chunks.append(chunk)
    assert [(mode, c.get("name") if mode == "tasks" else c) for mode, c in chunks] == [
        ("tasks", "a"),
        ("updates", {"a": {"log": ["f"]}}),
        ("tasks", "a"),
        ("tasks", "b"),
        ("tasks", "b"),
    ]
    failed = chunks[-1][1]
    assert (failed["result"], failed["interrupts"]) == ({}, [])
    assert normalize(failed["error"]) == ("RuntimeError", "kaboom")


def test_exception_with_checkpointer_keeps_last_good_checkpoint(backend):
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    fail = {"on": True}

    def flaky(s):
        if fail["on"]:
            raise RuntimeError("kaboom")
        return {"log": ["b"]}

    g = _builder(backend)
    g.add_node("a", lambda s: {"log": ["a"], "n": 1})
    g.add_node("b", flaky)
    g.add_edge(backend.graph.START, "a")
    g.add_edge("a", "b")
    app = g.compile(checkpointer=InMemorySaver())
    cfg = {"configurable": {"thread_id": "x"}}
    with pytest.raises(RuntimeError):
        app.invoke({"log": []}, cfg)
    snap = app.get_state(cfg)
    assert (snap.values, snap.next) == ({"log": ["a"], "n": 1}, ("b",))
    assert (snap.metadata["source"], snap.metadata["step"]) == ("loop", 1)
    assert [(t.name, t.error, t.result) for t in snap.tasks] == [
        ("b", "RuntimeError('kaboom')", None)
    ]
    fail["on"] = False
    assert app.invoke(None, cfg) == {"log": ["a", "b"], "n": 1}
    assert app.get_state(cfg).next == ()


def test_exception_in_parallel_step_keeps_sibling_writes(backend):
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    calls = []
    fail = {"on": True}
    ok_ran = threading.Event()

    def ok(s):
        calls.append("ok")
        ok_ran.set()
        return {"log": ["ok"]}

    def flaky(s):
        calls.append("boom")
        if fail["on"]:
            # fail only once the sibling ran: langgraph cancels siblings not yet started
            ok_ran.wait(timeout=5)
            raise RuntimeError("kaboom")
        return {"log": ["boom"]}

    g = _builder(backend)
    g.add_node("ok", ok)
    g.add_node("boom", flaky)
    g.add_node("after", lambda s: {"log": ["after"]})
    g.add_edge(backend.graph.START, "ok")
    g.add_edge(backend.graph.START, "boom")
    g.add_edge(["ok", "boom"], "after")
    app = g.compile(checkpointer=InMemorySaver())
    cfg = {"configurable": {"thread_id": "p"}}
    with pytest.raises(RuntimeError):
        app.invoke({"log": [], "n": 0}, cfg)
    assert sorted(calls) == ["boom", "ok"]  # the sibling is not cancelled
    snap = app.get_state(cfg)
    # the successful sibling's write is kept (as a pending write, shown in values); only the
    # failed node is still next
    assert (snap.values, snap.next, snap.metadata["step"]) == (
        {"log": ["ok"], "n": 0},
        ("boom",),
        0,
    )
    assert [(t.name, t.error, t.result) for t in snap.tasks] == [
        ("ok", None, {"log": ["ok"]}),
        ("boom", "RuntimeError('kaboom')", None),
    ]
    fail["on"] = False
    calls.clear()
    # resuming re-runs only the failed task; the writes of the step apply in node-name order
    assert app.invoke(None, cfg) == {"log": ["boom", "ok", "after"], "n": 0}
    assert calls == ["boom"]


# --------------------------------------------------------------------------------------------
# Empty input
# --------------------------------------------------------------------------------------------


def test_invoke_none_without_checkpointer(backend):
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    with pytest.raises(backend.errors.EmptyInputError) as info:
        g.compile().invoke(None)
    assert _err(info) == ("EmptyInputError", "Received no input for __start__")


def test_invoke_none_on_new_thread(backend):
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    app = g.compile(checkpointer=InMemorySaver())
    with pytest.raises(backend.errors.EmptyInputError) as info:
        app.invoke(None, {"configurable": {"thread_id": "new"}})
    assert _err(info) == ("EmptyInputError", "Received no input for __start__")


def test_raw_pregel_empty_input(backend):
    EphemeralValue = backend.channels.EphemeralValue
    Pregel, NodeBuilder = backend.pregel.Pregel, backend.pregel.NodeBuilder
    app = Pregel(
        nodes={"node1": NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b")},
        channels={"a": EphemeralValue(str), "b": EphemeralValue(str)},
        input_channels=["a"],
        output_channels=["b"],
    )
    with pytest.raises(backend.errors.EmptyInputError) as info:
        app.invoke({})
    assert _err(info) == ("EmptyInputError", "Received no input for ['a']")


def test_empty_dict_input_runs_but_may_return_none(backend):
    g = _builder(backend)
    g.add_node("writes", lambda s: {"n": 1})
    g.add_edge(backend.graph.START, "writes")
    assert g.compile().invoke({}) == {"log": [], "n": 1}

    g = _builder(backend)
    g.add_node("silent", lambda s: {})
    g.add_edge(backend.graph.START, "silent")
    app = g.compile()
    # nothing was ever written, so there is no values chunk at all and invoke returns None
    assert app.invoke({}) is None
    assert list(app.stream({}, stream_mode="values")) == []
    assert list(app.stream({}, stream_mode="updates")) == [{"silent": None}]
    assert app.invoke({"zzz": 1}) is None  # unknown keys only: same thing
    assert app.invoke({"log": []}) == {"log": []}


def test_checkpointer_without_thread_id(backend):
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    g = _builder(backend, "a")
    g.add_edge(backend.graph.START, "a")
    with pytest.raises(ValueError) as info:
        g.compile(checkpointer=InMemorySaver()).invoke({"n": 0})
    assert _err(info) == (
        "ValueError",
        "Checkpointer requires one or more of the following 'configurable' keys: thread_id, "
        "checkpoint_ns, checkpoint_id",
    )


def test_error_classes_hierarchy(backend):
    errors = backend.errors
    assert issubclass(errors.GraphRecursionError, RecursionError)
    assert issubclass(errors.InvalidUpdateError, Exception)
    assert issubclass(errors.EmptyInputError, Exception)
    assert issubclass(errors.GraphInterrupt, errors.GraphBubbleUp)
    assert issubclass(errors.NodeInterrupt, errors.GraphInterrupt)
    assert issubclass(errors.ParentCommand, errors.GraphBubbleUp)
