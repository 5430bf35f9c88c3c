"""Tasks of one superstep run in parallel when they block, on both backends.

A threading.Barrier only opens when all parties wait at once, so these tests prove
concurrency without timing anything: run one after another, the barrier times out.
"""

import operator
import threading
from typing import Annotated, TypedDict

import pytest


class Hits(TypedDict):
    hits: Annotated[list[str], operator.add]


def _blocking_branches(b, names, barrier):
    def make(name):
        def node(state):
            barrier.wait(timeout=5)
            return {"hits": [name]}

        return node

    g = b.graph.StateGraph(Hits)
    for name in names:
        g.add_node(name, make(name))
        g.add_edge(b.graph.START, name)
    return g.compile()


@pytest.mark.parametrize("width", [2, 4])
def test_blocking_branches_run_concurrently(backend, width):
    names = [f"b{i}" for i in range(width)]
    app = _blocking_branches(backend, names, threading.Barrier(width))
    assert sorted(app.invoke({"hits": []})["hits"]) == names


def test_blocking_send_tasks_run_concurrently(backend):
    barrier = threading.Barrier(3)

    def worker(packet):
        barrier.wait(timeout=5)
        return {"hits": [packet["name"]]}

    g = backend.graph.StateGraph(Hits)
    g.add_node("worker", worker)
    g.add_conditional_edges(
        backend.graph.START,
        lambda s: [backend.types.Send("worker", {"name": n}) for n in "xyz"],
        ["worker"],
    )
    app = g.compile()
    assert sorted(app.invoke({"hits": []})["hits"]) == ["x", "y", "z"]


def test_max_concurrency_one_runs_tasks_one_at_a_time(backend):
    running, peak = [0], [0]
    lock = threading.Lock()

    def make(name):
        def node(state):
            with lock:
                running[0] += 1
                peak[0] = max(peak[0], running[0])
            threading.Event().wait(0.01)
            with lock:
                running[0] -= 1
            return {"hits": [name]}

        return node

    g = backend.graph.StateGraph(Hits)
    for name in "abc":
        g.add_node(name, make(name))
        g.add_edge(backend.graph.START, name)
    out = g.compile().invoke({"hits": []}, {"max_concurrency": 1})
    assert sorted(out["hits"]) == ["a", "b", "c"]
    assert peak[0] == 1


def test_a_helper_thread_failure_is_reported_not_waited_for():
    from engine.pregel.runner import _Workers

    b_done = threading.Event()

    def fn(task):
        if task == "a":  # the caller's own task blocks until the helper's one is over
            assert b_done.wait(timeout=5)
            return None
        b_done.set()
        raise RuntimeError("commit failed")

    outcomes = dict(_Workers(2).run(fn, ["a", "b"]))
    assert outcomes["a"] is None
    assert isinstance(outcomes["b"], RuntimeError) and str(outcomes["b"]) == "commit failed"
