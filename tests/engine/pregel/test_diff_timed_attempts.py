"""Differential tests: the timed-attempt observer a server's watchdog passes in the config
(`__pregel_timed_attempt_observer`): every attempt of a timed node is announced and finished,
the finish landing before the retry or the error handler that follows it.

Timings are far apart (limits of 0.05 s against work of 0.5 s); progress events are compared
only where their count does not depend on timing.
"""

from __future__ import annotations

import asyncio
from typing import TypedDict

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential

OBSERVER = "__pregel_timed_attempt_observer"


class State(TypedDict):
    x: str


def _observed(events: list) -> list:
    return [
        (e.event, e.context.task_name, e.context.attempt, e.status, e.error_type)
        for e in events
        if e.event != "progress"
    ]


def test_each_attempt_finishes_before_the_retry_and_the_error_handler():
    def scenario(b):
        g, types = b.mod("graph"), b.types
        NodeError = b.errors.NodeError
        idle = types.TimeoutPolicy(idle_timeout=0.05)
        out = {}

        async def once_slow(state: State, runtime) -> dict:
            if runtime.execution_info.node_attempt == 1:
                await asyncio.sleep(0.5)
            return {"x": "done"}

        retry = types.RetryPolicy(max_attempts=2, initial_interval=0, jitter=False)
        events: list = []
        builder = g.StateGraph(State)
        builder.add_node("flaky", once_slow, timeout=idle, retry_policy=retry)
        builder.add_edge(g.START, "flaky")
        result = asyncio.run(
            builder.compile().ainvoke({"x": ""}, {"configurable": {OBSERVER: events.append}})
        )
        out["retried"] = (result, _observed(events))

        async def slow(state: State) -> dict:
            await asyncio.sleep(0.5)
            return {"x": "late"}

        async def handler(state: State, error: NodeError) -> dict:
            return {"x": f"handled {type(error.error).__name__}"}

        events = []
        builder = g.StateGraph(State)
        builder.add_node("slow", slow, timeout=idle, error_handler=handler)
        builder.add_edge(g.START, "slow")
        app = builder.compile().with_config(configurable={OBSERVER: events.append})
        out["handled"] = (asyncio.run(app.ainvoke({"x": ""})), _observed(events))
        return out

    assert_same(scenario)


def test_interrupts_finish_as_success_and_heartbeats_are_progress():
    def scenario(b):
        g, types = b.mod("graph"), b.types
        saver = b.mod("checkpoint.memory").InMemorySaver()

        async def asks(state: State, runtime) -> dict:
            runtime.heartbeat()  # the first progress is told at once; the next not within 0.25 s
            runtime.heartbeat()
            return {"x": types.interrupt("?")}

        events: list = []
        builder = g.StateGraph(State)
        builder.add_node("asks", asks, timeout=types.TimeoutPolicy(idle_timeout=1.0))
        builder.add_edge(g.START, "asks")
        app = builder.compile(checkpointer=saver)
        config = {"configurable": {"thread_id": "t", OBSERVER: events.append}}
        asyncio.run(app.ainvoke({"x": ""}, config))
        asyncio.run(app.ainvoke(types.Command(resume="yes"), config))
        progress = [
            (e.context.task_name, e.context.idle_timeout_secs)
            for e in events
            if e.event == "progress"
        ]
        return _observed(events), progress

    assert_same(scenario)


def test_a_failing_observer_is_ignored():
    def scenario(b):
        g, types = b.mod("graph"), b.types

        def observer(event) -> None:
            raise RuntimeError("observer down")

        async def node(state: State) -> dict:
            return {"x": "ok"}

        builder = g.StateGraph(State)
        builder.add_node("n", node, timeout=types.TimeoutPolicy(run_timeout=1.0))
        builder.add_edge(g.START, "n")
        return asyncio.run(
            builder.compile().ainvoke({"x": ""}, {"configurable": {OBSERVER: observer}})
        )

    assert_same(scenario)
