"""Differential tests: RunControl draining a run at a superstep boundary (GraphDrained, resuming
after it, subgraphs, durability "exit"), Runtime.merge / patch_execution_info, ServerInfo and
context coercion. Every test runs on langgraph and on the engine through the `backend` fixture.
"""

import asyncio
from dataclasses import dataclass
from typing import TypedDict

import pytest

pytestmark = pytest.mark.differential


class S(TypedDict, total=False):
    first: str
    second: str
    third: str


def _chain(b, control, reason="shutdown", drain_in="first", **compile_kw):
    """first -> second -> third; the node named `drain_in` asks the run to drain."""

    def node(name):
        def run(state: S) -> dict:
            if name == drain_in:
                control.request_drain(reason)
            return {name: "done"}

        return run

    g = b.graph.StateGraph(S)
    for name in ("first", "second", "third"):
        g.add_node(name, node(name))
    g.add_edge(b.graph.START, "first")
    g.add_edge("first", "second")
    g.add_edge("second", "third")
    return g.compile(**compile_kw)


def test_drain_stops_before_the_next_superstep(backend):
    control = backend.runtime.RunControl()
    app = _chain(backend, control)
    seen = []
    with pytest.raises(backend.errors.GraphDrained, match="Graph drained: shutdown") as info:
        for chunk in app.stream({}, control=control, stream_mode="updates"):
            seen.append(chunk)
    assert info.value.reason == "shutdown"
    assert seen == [{"first": {"first": "done"}}]
    assert isinstance(info.value, backend.errors.GraphBubbleUp)


def test_drain_in_the_last_step_finishes_normally(backend):
    control = backend.runtime.RunControl()
    app = _chain(backend, control, drain_in="third")
    assert app.invoke({}, control=control) == {"first": "done", "second": "done", "third": "done"}
    assert control.drain_requested and control.drain_reason == "shutdown"


def test_drained_thread_resumes_where_it_stopped(backend):
    control = backend.runtime.RunControl()
    app = _chain(
        backend,
        control,
        reason="sigterm",
        checkpointer=backend.mod("checkpoint.memory").InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "t"}}
    with pytest.raises(backend.errors.GraphDrained, match="sigterm"):
        app.invoke({}, config, control=control)
    assert app.get_state(config).next == ("second",)
    assert app.invoke(None, config) == {"first": "done", "second": "done", "third": "done"}


@pytest.mark.parametrize("durability", ["exit", "sync"])
def test_drain_saves_the_checkpoint_to_resume_from(backend, durability):
    control = backend.runtime.RunControl()
    app = _chain(backend, control, checkpointer=backend.mod("checkpoint.memory").InMemorySaver())
    config = {"configurable": {"thread_id": durability}}
    with pytest.raises(backend.errors.GraphDrained):
        app.invoke({}, config, durability=durability, control=control)
    history = [(s.metadata["step"], s.next) for s in app.get_state_history(config)]
    # with "exit" only the checkpoint the run drained at is saved, and it is enough to resume
    expected = [(1, ("second",))]
    if durability == "sync":
        expected += [(0, ("first",)), (-1, ("__start__",))]
    assert history == expected
    resumed = app.invoke(None, config, durability=durability)
    assert resumed == {"first": "done", "second": "done", "third": "done"}


def test_drain_requested_in_a_subgraph_drains_the_parent(backend):
    control = backend.runtime.RunControl()
    child = _chain(backend, control, reason="sigterm", checkpointer=True)

    def after(state: S) -> dict:
        return {"third": "parent"}

    parent = backend.graph.StateGraph(S)
    parent.add_node("child", child)
    parent.add_node("after", after)
    parent.add_edge(backend.graph.START, "child")
    parent.add_edge("child", "after")
    app = parent.compile(checkpointer=backend.mod("checkpoint.memory").InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    with pytest.raises(backend.errors.GraphDrained, match="sigterm"):
        app.invoke({}, config, control=control)
    assert app.get_state(config).next == ("child",)
    assert app.invoke(None, config) == {"first": "done", "second": "done", "third": "parent"}


def test_drain_under_ainvoke(backend):
    control = backend.runtime.RunControl()
    app = _chain(backend, control)
    with pytest.raises(backend.errors.GraphDrained, match="shutdown"):
        asyncio.run(app.ainvoke({}, control=control))


def test_a_node_sees_the_runs_control(backend):
    control = backend.runtime.RunControl()
    Runtime = backend.runtime.Runtime
    seen = {}

    def node(state: S, runtime: Runtime) -> dict:
        seen["same"] = runtime.control is control
        seen["before"] = runtime.drain_requested
        runtime.control.request_drain("asked by node")
        seen["after"] = (runtime.drain_requested, runtime.drain_reason)
        return {"first": "x"}

    g = backend.graph.StateGraph(S)
    g.add_node("node", node)
    g.add_edge(backend.graph.START, "node")
    assert g.compile().invoke({}, control=control) == {"first": "x"}
    assert seen == {"same": True, "before": False, "after": (True, "asked by node")}


def test_without_a_control_a_run_still_has_one(backend):
    seen = {}

    def node(state: S, runtime: backend.runtime.Runtime) -> dict:
        seen["control"] = type(runtime.control).__name__
        return {}

    g = backend.graph.StateGraph(S)
    g.add_node("node", node)
    g.add_edge(backend.graph.START, "node")
    g.compile().invoke({})
    assert seen == {"control": "RunControl"}


@dataclass
class Ctx:
    user: str


def test_runtime_merge_and_patch_execution_info(backend):
    rt = backend.runtime
    control = rt.RunControl()
    base = rt.Runtime(context=Ctx("a"), control=control, previous=1)
    merged = base.merge(rt.Runtime(context=None, previous=None))
    assert (merged.context, merged.control is control, merged.previous) == (Ctx("a"), True, 1)
    assert base.merge(rt.Runtime(context=Ctx("b"), previous=0)).previous == 0
    with pytest.raises(RuntimeError, match="Cannot patch execution_info before it has been set"):
        base.patch_execution_info(node_attempt=2)
    info = rt.ExecutionInfo(checkpoint_id="c", checkpoint_ns="", task_id="t")
    patched = base.override(execution_info=info).patch_execution_info(node_attempt=3)
    assert (patched.execution_info.node_attempt, patched.execution_info.task_id) == (3, "t")
    assert info.node_attempt == 1


def test_server_info_from_configurable(backend):
    seen = {}

    class User:
        identity = "ann"

    def node(state: S, runtime: backend.runtime.Runtime) -> dict:
        info = runtime.server_info
        seen["info"] = None if info is None else (info.assistant_id, info.graph_id, info.user)
        return {}

    g = backend.graph.StateGraph(S)
    g.add_node("node", node)
    g.add_edge(backend.graph.START, "node")
    app = g.compile()
    app.invoke({})
    assert seen["info"] is None
    user = User()
    app.invoke({}, {"configurable": {"assistant_id": "as", "langgraph_auth_user": user}})
    assert seen["info"] == ("as", "", user)
    app.invoke({}, {"configurable": {"graph_id": 7, "langgraph_auth_user": object()}})
    assert seen["info"] == ("", "7", None)


def test_context_dict_that_does_not_fit_the_dataclass_raises(backend):
    def node(state: S) -> dict:
        return {}

    g = backend.graph.StateGraph(S, context_schema=Ctx)
    g.add_node("node", node)
    g.add_edge(backend.graph.START, "node")
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        g.compile().invoke({}, context={"user": "a", "nope": 1})
