"""Differential tests: node error handlers (`add_node(error_handler=)`, `NodeError`) and
`StateGraph.set_node_defaults`, on both backends.

A failing node's handler runs in the same superstep in its place, sees the failed task's input
and `error: NodeError`, and its update or Command is applied like any node's.
"""

from __future__ import annotations

import asyncio
import operator
import uuid
from typing import Annotated, TypedDict

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class State(TypedDict):
    log: Annotated[list[str], operator.add]


def thread() -> dict:
    return {"configurable": {"thread_id": str(uuid.uuid4())}}


def test_handler_gets_the_error_and_routes_with_a_command():
    def scenario(b):
        g, types = b.mod("graph"), b.types
        NodeError = b.errors.NodeError
        attempts = []

        def flaky(state: State) -> dict:
            attempts.append(1)
            raise ConnectionError("boom")

        def handler(state: State, error: NodeError):
            return types.Command(
                update={"log": [f"{error.node}:{type(error.error).__name__}:{error.error}"]},
                goto="after",
            )

        builder = g.StateGraph(State)
        builder.add_node(
            "flaky",
            flaky,
            retry_policy=types.RetryPolicy(max_attempts=3, initial_interval=0, jitter=False),
            error_handler=handler,
        )
        builder.add_node("after", lambda s: {"log": ["after"]})
        builder.add_edge(g.START, "flaky")
        app = builder.compile()
        chunks = list(app.stream({"log": ["in"]}, stream_mode="updates"))
        return app.invoke({"log": []}), len(attempts), sorted(map(str, chunks))

    assert_same(scenario)


def test_handler_failure_and_unhandled_nodes_fail_the_run():
    def scenario(b):
        g = b.mod("graph")

        def fail(state: State) -> dict:
            raise ValueError("node failed")

        def bad_handler(state: State) -> dict:
            raise RuntimeError("handler failed")

        out = []
        for handler in (bad_handler, None):
            builder = g.StateGraph(State)
            builder.add_node("fail", fail, error_handler=handler)
            builder.add_edge(g.START, "fail")
            try:
                builder.compile().invoke({"log": []})
            except Exception as exc:
                out.append((type(exc).__name__, str(exc)))
        return out

    assert_same(scenario)


def test_set_node_defaults_apply_where_a_node_sets_nothing():
    def scenario(b):
        g, types = b.mod("graph"), b.types
        NodeError = b.errors.NodeError
        calls: dict[str, int] = {}

        def failing(name, times):
            def node(state: State) -> dict:
                calls[name] = calls.get(name, 0) + 1
                if calls[name] <= times:
                    raise ConnectionError(f"{name} failed")
                return {"log": [name]}

            return node

        def default_handler(state: State, error: NodeError) -> dict:
            return {"log": [f"default<{error.node}>"]}

        def own_handler(state: State, error: NodeError) -> dict:
            return {"log": [f"own<{error.node}>"]}

        builder = (
            g.StateGraph(State)
            .set_node_defaults(
                retry_policy=types.RetryPolicy(max_attempts=2, initial_interval=0, jitter=False),
                error_handler=default_handler,
            )
            .add_node("once", failing("once", 1))  # the default retry rescues it
            .add_node("always", failing("always", 9))  # default handler after 2 attempts
            .add_node("mine", failing("mine", 9), error_handler=own_handler)
            .add_node(
                "no_retry",
                failing("no_retry", 9),
                retry_policy=types.RetryPolicy(max_attempts=1),
            )
        )
        for name in ("once", "always", "mine", "no_retry"):
            builder.add_edge(g.START, name)
        result = builder.compile().invoke({"log": []})
        return sorted(result["log"]), dict(sorted(calls.items()))

    assert_same(scenario)


def test_default_handler_name_collision_is_refused():
    def scenario(b):
        g = b.mod("graph")
        builder = g.StateGraph(State).set_node_defaults(error_handler=lambda s: {})
        builder.add_node("__default_error_handler__", lambda s: {})
        builder.add_edge(g.START, "__default_error_handler__")
        try:
            builder.compile()
        except ValueError as exc:
            return str(exc)

    assert_same(scenario)


def test_interrupt_is_not_an_error_and_subgraph_failures_are():
    def scenario(b):
        g, types = b.mod("graph"), b.types
        saver = b.mod("checkpoint.memory").InMemorySaver()

        def asks(state: State) -> dict:
            return {"log": [types.interrupt("why?")]}

        def sub_fail(state: State) -> dict:
            raise KeyError("deep")

        sub = g.StateGraph(State)
        sub.add_node("sub_fail", sub_fail)
        sub.add_edge(g.START, "sub_fail")

        NodeError = b.errors.NodeError

        def handler(state: State, error: NodeError) -> dict:
            return {"log": [f"handled {error.node} {type(error.error).__name__}"]}

        builder = g.StateGraph(State)
        builder.add_node("asks", asks, error_handler=handler)
        builder.add_node("sub", sub.compile(), error_handler=handler)
        builder.add_edge(g.START, "asks")
        builder.add_edge(g.START, "sub")
        app = builder.compile(checkpointer=saver)
        config = thread()
        first = app.invoke({"log": []}, config)
        paused = [t.name for t in app.get_state(config).tasks if t.interrupts]
        final = app.invoke(types.Command(resume="because"), config)
        return sorted(first["log"]), paused, sorted(final["log"])

    assert_same(scenario)


def test_async_handler_with_its_node_defaults():
    def scenario(b):
        g = b.mod("graph")

        async def fail(state: State) -> dict:
            await asyncio.sleep(0)
            raise ValueError("async boom")

        NodeError = b.errors.NodeError

        async def handler(state: State, error: NodeError) -> dict:
            return {"log": [f"async handled {error.error}"]}

        builder = g.StateGraph(State).set_node_defaults(error_handler=handler)
        builder.add_node("fail", fail)
        builder.add_node("ok", lambda s: {"log": ["ok"]})
        builder.add_edge(g.START, "fail")
        builder.add_edge(g.START, "ok")
        result = asyncio.run(builder.compile().ainvoke({"log": []}))
        return sorted(result["log"])

    assert_same(scenario)
