"""What one superstep of a plain run costs, and that its shortcuts keep langgraph's behaviour.

invoke() keeps only the last values chunk of its own graph instead of queueing one per step
(`LoopOptions.last_values_only`); whoever else sees those chunks (print_mode, a parent streaming
its subgraphs, version="v2" with its interrupts) still gets every one. A one-task step runs
without the runner's outcome bookkeeping and, untraced, without a node run to enter.
"""

from __future__ import annotations

import sys
from typing import Annotated, TypedDict

import pytest

from tests.oracle import Backend, assert_same

# Python-level calls one superstep of a chain makes under invoke (no saver), the node included:
# 82 before issue 32.3 part 3 cut the loop's own bookkeeping (61 after)
CALLS_PER_STEP = 64


class Count(TypedDict):
    count: int


def _increment(state: Count) -> dict:
    return {"count": state["count"] + 1}


def _chain(backend, size: int):
    g = backend.graph.StateGraph(Count)
    names = [f"n{i}" for i in range(size)]
    for name in names:
        g.add_node(name, _increment)
    g.add_edge(backend.graph.START, names[0])
    for a, b in zip(names, names[1:], strict=False):
        g.add_edge(a, b)
    return g.compile()


def _calls(graph, size: int) -> int:
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        result = graph.invoke({"count": 0}, {"recursion_limit": size + 10})
    finally:
        sys.setprofile(None)
    assert result == {"count": size}
    return count


def test_a_chain_superstep_makes_few_python_calls():
    engine = Backend("engine")
    small, large = _chain(engine, 20), _chain(engine, 60)
    for graph, size in ((small, 20), (large, 60)):
        graph.invoke({"count": 0}, {"recursion_limit": size + 10})  # warm: imports, caches
    per_step = (_calls(large, 60) - _calls(small, 20)) / 40
    assert per_step <= CALLS_PER_STEP, f"{per_step:.1f} calls per superstep"


class State(TypedDict):
    total: int
    log: Annotated[list, lambda a, b: a + b]
    private: int


def _last_step_writes_no_output(backend):
    """The last step writes a channel outside the output: invoke returns the step before's."""

    class Out(TypedDict):
        total: int

    g = backend.graph.StateGraph(State, output_schema=Out)
    g.add_node("a", lambda s: {"total": s["total"] + 1, "log": ["a"]})
    g.add_node("b", lambda s: {"private": 7})
    g.add_edge(backend.graph.START, "a")
    g.add_edge("a", "b")
    return g.compile().invoke({"total": 1, "log": [], "private": 0})


def test_invoke_returns_the_last_values_chunk():
    assert assert_same(_last_step_writes_no_output) == {"total": 2}


def _interrupted(backend, version):
    interrupt = backend.types.interrupt
    saver = backend.mod("checkpoint.memory").InMemorySaver()

    def ask(s):
        return {"total": s["total"] + interrupt("how many?")}

    g = backend.graph.StateGraph(State)
    g.add_node("a", lambda s: {"total": s["total"] + 1, "log": ["a"]})
    g.add_node("ask", ask)
    g.add_edge(backend.graph.START, "a")
    g.add_edge("a", "ask")
    graph = g.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    first = graph.invoke({"total": 1, "log": [], "private": 0}, config, version=version)
    second = graph.invoke(backend.types.Command(resume=5), config, version=version)
    return first, second


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_invoke_with_interrupts_and_resume(version):
    assert_same(lambda backend: _interrupted(backend, version))


def test_print_mode_values_prints_every_step(capsys):
    printed = {}

    def scenario(backend):
        graph = _chain(backend, 3)
        result = graph.invoke({"count": 0}, print_mode="values")
        printed[backend.prefix] = capsys.readouterr().out
        return result

    assert assert_same(scenario) == {"count": 3}
    assert printed["engine"] == printed["langgraph"]
    assert printed["engine"].count("[values]") == 4


def _child_invoked_in_node(backend):
    """A node invokes a subgraph: a parent streaming its subgraphs sees the child's values."""
    child = _chain(backend, 2)

    def run_child(state: Count) -> dict:
        return child.invoke({"count": state["count"]})

    g = backend.graph.StateGraph(Count)
    g.add_node("outer", run_child)
    g.add_edge(backend.graph.START, "outer")
    parent = g.compile()
    chunks = list(parent.stream({"count": 1}, stream_mode="values", subgraphs=True))
    return [(len(ns), value) for ns, value in chunks]


def test_a_parent_streaming_subgraphs_sees_an_invoked_childs_values():
    chunks = assert_same(_child_invoked_in_node)
    assert chunks == [(0, {"count": 1}), (1, {"count": 1}), (1, {"count": 2}),
                      (1, {"count": 3}), (0, {"count": 3})]  # fmt: skip
