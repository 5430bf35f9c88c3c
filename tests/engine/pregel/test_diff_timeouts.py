"""Differential tests: node timeouts (TimeoutPolicy, NodeTimeoutError) on both backends.

Timings are far apart (a limit of 0.05-0.1 s against work of 0.3 s or more, progress every
0.01 s) so a loaded machine does not change the outcome; elapsed times are never compared.
"""

from __future__ import annotations

import asyncio
import operator
from datetime import timedelta
from typing import Annotated, TypedDict

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class State(TypedDict):
    x: int


class Acc(TypedDict):
    x: Annotated[list[int], operator.add]


def outcome(run) -> object:
    """The run's result, or what its NodeTimeoutError says (elapsed aside)."""
    try:
        return ("ok", asyncio.run(run()))
    except Exception as exc:
        fields = ("node", "kind", "timeout", "run_timeout", "idle_timeout")
        return (type(exc).__name__, {f: getattr(exc, f, None) for f in fields})


def one_node(b, node, **options):
    g = b.mod("graph")
    builder = g.StateGraph(State)
    builder.add_node("work", node, **options)
    builder.add_edge(g.START, "work")
    return builder.compile()


def test_idle_and_run_timeouts_fire_and_carry_the_policy():
    def scenario(b):
        TimeoutPolicy = b.types.TimeoutPolicy

        async def slow(state: State) -> dict:
            await asyncio.sleep(0.5)
            return {"x": 1}

        out = []
        for timeout in (
            TimeoutPolicy(idle_timeout=0.05),
            TimeoutPolicy(run_timeout=0.05, idle_timeout=5),
            0.05,
            timedelta(milliseconds=50),
        ):
            app = one_node(b, slow, timeout=timeout)
            out.append(outcome(lambda app=app: app.ainvoke({"x": 0})))
        return out

    assert_same(scenario)


def test_heartbeats_and_stream_writes_are_progress():
    def scenario(b):
        TimeoutPolicy = b.types.TimeoutPolicy
        get_stream_writer = b.config.get_stream_writer

        async def beats(state: State, runtime) -> dict:
            for _ in range(30):
                runtime.heartbeat()
                await asyncio.sleep(0.01)
            return {"x": 1}

        async def writes(state: State) -> dict:
            writer = get_stream_writer()
            for i in range(30):
                writer({"i": i})
                await asyncio.sleep(0.01)
            return {"x": 2}

        out = {}
        for name, node, policy in (
            ("heartbeat/idle", beats, TimeoutPolicy(idle_timeout=0.1)),
            ("heartbeat/run", beats, TimeoutPolicy(run_timeout=0.1)),
            ("writes/auto", writes, TimeoutPolicy(idle_timeout=0.1)),
            (
                "writes/heartbeat-only",
                writes,
                TimeoutPolicy(idle_timeout=0.1, refresh_on="heartbeat"),
            ),
        ):
            app = one_node(b, node, timeout=policy)

            async def run(app=app):
                parts = [p async for p in app.astream({"x": 0}, stream_mode="custom")]
                return len(parts)

            out[name] = outcome(run)
        return out

    assert_same(scenario)


def test_retries_defaults_and_send_overrides():
    def scenario(b):
        g, types = b.mod("graph"), b.types
        TimeoutPolicy = types.TimeoutPolicy
        attempts: list[int] = []

        async def flaky(state: State) -> dict:
            attempts.append(1)
            if len(attempts) < 2:
                await asyncio.sleep(1.0)
            return {"x": state["x"] + 1}

        retry = types.RetryPolicy(max_attempts=3, initial_interval=0, jitter=False)
        out = {
            "retry": outcome(
                lambda: one_node(b, flaky, timeout=0.1, retry_policy=retry).ainvoke({"x": 0})
            )
        }
        out["attempts"] = len(attempts)

        async def slow(state: Acc) -> dict:
            await asyncio.sleep(0.3)
            return {"x": [1]}

        def fan(state: Acc):
            return [types.Send("slow", state, timeout=TimeoutPolicy(idle_timeout=0.05))]

        builder = g.StateGraph(Acc).set_node_defaults(timeout=TimeoutPolicy(idle_timeout=5))
        builder.add_node("slow", slow)
        builder.add_conditional_edges(g.START, fan)
        out["send"] = outcome(lambda: builder.compile().ainvoke({"x": []}))

        async def slow_state(state: State) -> dict:
            await asyncio.sleep(0.3)
            return {"x": 1}

        defaults = g.StateGraph(State).set_node_defaults(timeout=0.05)
        defaults.add_node("a", slow_state)
        defaults.add_node("b", slow_state, timeout=5)
        defaults.add_edge(g.START, "a")
        out["default"] = outcome(lambda: defaults.compile().ainvoke({"x": 0}))
        return out

    assert_same(scenario)


def test_timeouts_are_for_async_nodes_and_positive():
    def scenario(b):
        g, func, types = b.mod("graph"), b.func, b.types
        TimeoutPolicy = types.TimeoutPolicy
        out = {}

        def attempt(name, make):
            try:
                make()
                out[name] = "accepted"
            except ValueError as exc:
                out[name] = str(exc)

        def sync_node(state: State) -> dict:
            return {"x": 1}

        async def async_node(state: State) -> dict:
            return {"x": 1}

        attempt("zero node", lambda: g.StateGraph(State).add_node("n", async_node, timeout=0))
        attempt("negative idle", lambda: TimeoutPolicy.coerce(TimeoutPolicy(idle_timeout=-1)))
        attempt(
            "refresh", lambda: TimeoutPolicy.coerce(TimeoutPolicy(run_timeout=1, refresh_on="x"))
        )
        attempt("zero send", lambda: types.Send("n", {}, timeout=0))
        attempt("zero task", lambda: func.task(timeout=0))
        attempt("zero builder", lambda: b.mod("pregel").NodeBuilder().set_timeout(0))
        attempt("sync compile", lambda: one_node(b, sync_node, timeout=1))
        attempt("sync task", lambda: func.task(timeout=1)(lambda x: x))
        attempt("sync entrypoint", lambda: func.entrypoint(timeout=1)(sync_node))
        attempt("async compile", lambda: one_node(b, async_node, timeout=1))
        app = one_node(b, async_node, timeout=1)
        attempt("sync invoke", lambda: app.invoke({"x": 0}))
        out["coerced"] = [
            TimeoutPolicy.coerce(v) for v in (None, 2, timedelta(seconds=3), TimeoutPolicy())
        ]
        return out

    assert_same(scenario)


def test_functional_api_timeouts():
    def scenario(b):
        func, TimeoutPolicy = b.func, b.types.TimeoutPolicy

        @func.task(timeout=TimeoutPolicy(idle_timeout=0.05))
        async def slow_task(x: int) -> int:
            await asyncio.sleep(0.3)
            return x + 1

        @func.task(timeout=1.0)
        async def echo(*, timeout: int) -> int:
            return timeout

        @func.entrypoint()
        async def calls_slow(x: int) -> int:
            return await slow_task(x)

        @func.entrypoint()
        async def calls_echo(x: int) -> int:
            return await echo(timeout=x)

        @func.entrypoint(timeout=TimeoutPolicy(idle_timeout=0.05))
        async def slow_entry(x: int) -> int:
            await asyncio.sleep(0.3)
            return x

        return [
            outcome(lambda: calls_slow.ainvoke(1)),
            outcome(lambda: calls_echo.ainvoke(5)),
            outcome(lambda: slow_entry.ainvoke(1)),
        ]

    assert_same(scenario)


def test_a_node_raising_cancelled_error_fails_the_run():
    def scenario(b):
        errors = b.errors

        async def boom(state: State) -> dict:
            raise asyncio.CancelledError("from the body")

        app = one_node(b, boom)
        try:
            asyncio.run(app.ainvoke({"x": 0}))
        except errors.NodeCancelledError as exc:
            return exc.node, str(exc), errors.NodeTimeoutError.__mro__[1].__name__

    assert_same(scenario)
