"""A retried attempt resumes, as langgraph's does: the node's interrupt() calls count from the
first again, so an answered interrupt gets its answer back (the engine asked again under a new
id), and a graph with a checkpointer the node runs resumes from the checkpoint its namespace
holds instead of taking the input anew."""

from __future__ import annotations

import asyncio
from typing import TypedDict

import pytest

from tests.oracle import Backend, assert_same

pytestmark = pytest.mark.differential


def _policy(b: Backend):
    return b.types.RetryPolicy(initial_interval=0, jitter=False, retry_on=ValueError)


def _ask(b: Backend, calls: list) -> dict:
    """The node: asks, then fails once after getting its answer."""
    answer = b.types.interrupt("name?")
    calls.append(answer)
    if len(calls) == 1:
        raise ValueError("flaky")
    return {"answer": answer}


def _asking_graph(b: Backend, calls: list, node):
    class S(TypedDict, total=False):
        answer: str

    builder = b.graph.StateGraph(S)
    builder.add_node("ask", node, retry_policy=_policy(b))
    builder.add_edge(b.graph.START, "ask")
    return builder.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())


def test_retried_node_gets_its_interrupt_answer_again():
    def scenario(b: Backend):
        calls: list = []
        graph = _asking_graph(b, calls, lambda s: _ask(b, calls))
        cfg = {"configurable": {"thread_id": "t"}}
        first = list(graph.stream({"answer": ""}, cfg))
        resumed = list(graph.stream(b.types.Command(resume="ada"), cfg))
        state = graph.get_state(cfg)
        return first, resumed, calls, state.values, [t.interrupts for t in state.tasks]

    assert_same(scenario)


def test_async_retried_node_gets_its_interrupt_answer_again():
    def scenario(b: Backend):
        calls: list = []

        async def ask(s):
            return _ask(b, calls)

        graph = _asking_graph(b, calls, ask)
        cfg = {"configurable": {"thread_id": "t"}}

        async def run():
            first = [c async for c in graph.astream({"answer": ""}, cfg)]
            resumed = [c async for c in graph.astream(b.types.Command(resume="ada"), cfg)]
            state = await graph.aget_state(cfg)
            return first, resumed, calls, state.values

        return asyncio.run(run())

    assert_same(scenario)


def test_retry_resumes_a_checkpointed_subgraph():
    """A subgraph compiled with checkpointer=True keeps its namespace's history across runs of
    the thread; a retry's second attempt runs it under the namespace the first run's retry
    used, and resumes there (its last run had ended) instead of running it on the new input."""

    def scenario(b: Backend):
        class S(TypedDict, total=False):
            n: int

        inner_runs: list = []

        def inner(s):
            inner_runs.append(s["n"])
            return {"n": s["n"] + 1}

        sub_builder = b.graph.StateGraph(S)
        sub_builder.add_node("inner", inner)
        sub_builder.add_edge(b.graph.START, "inner")
        sub = sub_builder.compile(checkpointer=True)
        results: list = []

        def outer(s):
            results.append(sub.invoke(s))
            if len(results) % 2 == 1:  # each run's first attempt fails
                raise ValueError("flaky")
            return results[-1]

        builder = b.graph.StateGraph(S)
        builder.add_node("outer", outer, retry_policy=_policy(b))
        builder.add_edge(b.graph.START, "outer")
        graph = builder.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        cfg = {"configurable": {"thread_id": "t"}}
        outputs = [graph.invoke({"n": 1}, cfg), graph.invoke({"n": 10}, cfg)]
        return outputs, inner_runs, results

    assert_same(scenario)
