"""Differential tests: the functional API (`func.entrypoint`, `func.task`) on both backends.

Each scenario imports through the backend, so it runs unchanged on langgraph and on engine;
`assert_same` compares the normalised results (ids aside). Tasks run concurrently, so streams
are compared as sorted lists where order is not part of the promise.
"""

from __future__ import annotations

import asyncio
import functools
import operator
import threading
import uuid
from typing import Annotated, Any, TypedDict

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def thread() -> dict:
    return {"configurable": {"thread_id": str(uuid.uuid4())}}


def saver(b):
    return b.mod("checkpoint.memory").InMemorySaver()


def test_parallel_tasks_stream_their_results_then_the_entrypoint_output():
    def scenario(b):
        func = b.func

        @func.task
        def square(x: int) -> int:
            return x * x

        @func.entrypoint()
        def squares(xs: list[int]) -> list[int]:
            futures = [square(x) for x in xs]
            return [f.result() for f in futures]

        chunks = list(squares.stream([1, 2, 3]))
        return sorted(chunks[:-1], key=str), chunks[-1], squares.invoke([4]), squares.stream_mode

    assert_same(scenario)


def test_an_interrupt_after_tasks_resumes_without_running_them_again():
    def scenario(b):
        func, types = b.func, b.types
        calls = []

        @func.task()
        def fetch(x: int) -> str:
            calls.append(x)
            return str(x) * 2

        @func.entrypoint(checkpointer=saver(b))
        def flow(xs: list[int]) -> list[str]:
            fetched = [f.result() for f in [fetch(x) for x in xs]]
            answer = types.interrupt("question")
            return [s + answer for s in fetched]

        config = thread()
        first = flow.invoke([0, 1], config)
        state = flow.get_state(config)
        resumed = flow.invoke(types.Command(resume="!"), config)
        after = flow.get_state(config)
        return (
            first,
            state.next,
            state.values,
            [t.name for t in state.tasks],
            resumed,
            sorted(calls),
            after.values,
            after.next,
            after.metadata["source"],
        )

    assert_same(scenario)


def test_an_interrupt_inside_a_task_is_answered_and_each_interrupt_in_turn():
    def scenario(b):
        func, types = b.func, b.types
        runs = {"double": 0}

        @func.task
        def double(x: int) -> int:
            runs["double"] += 1
            return 2 * x

        @func.task
        def ask(question: str) -> str:
            return types.interrupt(question)

        @func.entrypoint(checkpointer=saver(b))
        def flow(_: dict) -> dict:
            values = []
            for i in (1, 2, 3):
                values.extend([double(i).result(), ask(f"q{i}").result()])
            return {"values": values}

        config = thread()
        outputs = [flow.invoke({}, config)]
        for answer in ("a", "b", "c"):
            outputs.append(flow.invoke(types.Command(resume=answer), config))
        return outputs, runs["double"]

    assert_same(scenario)


def test_previous_and_final_carry_a_value_between_runs_of_a_thread():
    def scenario(b):
        func = b.func
        seen = []

        @func.entrypoint(checkpointer=saver(b))
        def chat(message: str, *, previous: Any = None) -> func.entrypoint.final[int, list]:
            seen.append(previous)
            history = (previous or []) + [message]
            return func.entrypoint.final(value=len(history), save=history)

        config = thread()
        results = [chat.invoke(m, config) for m in ("hi", "there", "you")]
        chat.update_state(config, ["reset"])
        results.append(chat.invoke("again", config))
        return results, seen, chat.get_state(config).values

    assert_same(scenario)


def test_previous_is_none_on_every_run_without_a_checkpointer():
    def scenario(b):
        @b.func.entrypoint()
        def echo(inputs: Any, *, previous: Any) -> Any:
            return {"current": inputs, "previous": previous}

        config = thread()
        return echo.invoke({"a": 1}, config), echo.invoke({"a": 2}, config)

    assert_same(scenario)


def test_async_entrypoint_awaits_tasks_together():
    def scenario(b):
        func = b.func
        both_running = threading.Barrier(2, timeout=5)

        @func.task
        async def slow_add(x: int, y: int) -> int:
            await asyncio.sleep(0.01)
            return x + y

        @func.task
        def meet(x: int) -> int:
            both_running.wait()  # returns only if the two calls overlap
            return x

        @func.entrypoint()
        async def flow(n: int) -> dict:
            added = await asyncio.gather(*(slow_add(i, n) for i in range(3)))
            met = await asyncio.gather(meet(1), meet(2))
            return {"added": added, "met": met}

        return asyncio.run(flow.ainvoke(10))

    assert_same(scenario)


def test_sync_tasks_run_concurrently():
    def scenario(b):
        both_running = threading.Barrier(2, timeout=5)

        @b.func.task
        def meet(x: int) -> int:
            both_running.wait()
            return x

        @b.func.entrypoint()
        def flow(_: Any) -> list[int]:
            futures = [meet(1), meet(2)]
            return [f.result() for f in futures]

        return flow.invoke(None)

    assert_same(scenario)


def test_a_task_retries_by_its_policy_and_a_failure_reaches_the_caller():
    def scenario(b):
        func, types = b.func, b.types
        attempts = {"flaky": 0}

        @func.task(retry_policy=types.RetryPolicy(initial_interval=0.001, jitter=False))
        def flaky(x: int) -> int:
            attempts["flaky"] += 1
            if attempts["flaky"] < 3:
                raise ConnectionError("try again")
            return x

        @func.task
        def broken(_: int) -> int:
            raise ValueError("broken task")

        @func.entrypoint()
        def flow(x: int) -> int:
            return flaky(x).result()

        @func.entrypoint()
        def failing(x: int) -> int:
            return broken(x).result()

        @func.entrypoint()
        def recovering(x: int) -> str:
            try:
                broken(x).result()
            except ValueError as exc:
                return f"handled: {exc}"
            return "not reached"

        try:
            failing.invoke(1)
        except ValueError as exc:
            failure = str(exc)
        return flow.invoke(7), attempts["flaky"], failure, recovering.invoke(1)

    assert_same(scenario)


def test_a_cached_task_is_not_called_again_until_its_cache_is_cleared():
    def scenario(b):
        func, types = b.func, b.types
        cache = b.mod("cache.memory").InMemoryCache()
        calls = []

        @func.task(cache_policy=types.CachePolicy())
        def expensive(x: int) -> int:
            calls.append(x)
            return x * 10

        @func.entrypoint(cache=cache)
        def flow(xs: list[int]) -> list[int]:
            return [expensive(x).result() for x in xs]

        first = flow.invoke([1, 2])
        second = flow.invoke([2, 3])
        expensive.clear_cache(cache)
        third = flow.invoke([1])
        return first, second, third, calls

    assert_same(scenario)


def test_tasks_get_the_store_and_writer_unless_the_caller_passes_them():
    def scenario(b):
        func = b.func
        store = b.mod("store.memory").InMemoryStore()
        BaseStore, StreamWriter = b.mod("store.base").BaseStore, b.types.StreamWriter  # noqa: N806

        @func.task
        def remember(key: str, *, store: BaseStore) -> str:
            store.put(("notes",), key, {"v": key.upper()})
            return key

        @func.task
        def shout(text: str, *, writer: StreamWriter) -> str:
            if writer is not None:
                writer({"said": text})
            return text.upper()

        @func.entrypoint(store=store)
        def flow(key: str, *, store: BaseStore, writer: StreamWriter) -> dict:
            remember(key).result()
            writer("stored")
            return {
                "note": store.get(("notes",), key).value,
                "shout": shout(key).result(),
                "quiet": shout(key, writer=None).result(),
            }

        @func.entrypoint(store=store)
        def typed_otherwise(key: str, *, store: dict) -> str:
            return "not injected"

        try:
            typed_otherwise.invoke("k")
        except TypeError:
            refused = "store: dict is not injected"
        return list(flow.stream("k", stream_mode=["custom", "values"])), refused

    assert_same(scenario)


def test_a_task_called_from_a_state_graph_node():
    def scenario(b):
        @b.func.task
        def add_one(x: int) -> int:
            return x + 1

        class State(TypedDict):
            n: int
            log: Annotated[list[str], operator.add]

        def node(state: State) -> dict:
            futures = [add_one(state["n"]), add_one(state["n"] * 10)]
            return {"n": sum(f.result() for f in futures), "log": ["node"]}

        graph = b.graph.StateGraph(State)
        graph.add_node("node", node)
        graph.add_edge(b.graph.START, "node")
        app = graph.compile()
        return app.invoke({"n": 1, "log": []}), sorted(map(str, app.stream({"n": 2, "log": []})))

    assert_same(scenario)


def test_task_names_come_from_the_function_a_partial_wraps_or_from_name():
    def scenario(b):
        func = b.func

        def suffix(tag: str, value: str) -> str:
            return f"{value}|{tag}"

        plain = func.task(functools.partial(suffix, "p"))
        named = func.task(functools.partial(suffix, "n"), name="custom")

        @func.entrypoint()
        def flow(value: str) -> str:
            return named(plain(value).result()).result()

        return sorted(map(str, flow.stream("v")))

    assert_same(scenario)


def test_generators_are_refused_and_a_task_outside_a_run_raises():
    def scenario(b):
        func = b.func
        outcomes = []
        try:

            @func.entrypoint()
            def gen(_: Any) -> Any:
                yield 1

        except NotImplementedError:
            outcomes.append("generator refused")

        @func.task
        def lonely() -> int:
            return 1

        try:
            lonely()
        except RuntimeError:
            outcomes.append("outside a run: RuntimeError")
        return outcomes

    assert_same(scenario)


def test_history_of_an_entrypoint_thread():
    def scenario(b):
        func = b.func

        @func.task
        def inc(x: int) -> int:
            return x + 1

        @func.entrypoint(checkpointer=saver(b))
        def counter(x: int, *, previous: Any = None) -> int:
            return inc((previous or 0) + x).result()

        config = thread()
        outputs = [counter.invoke(1, config), counter.invoke(5, config)]
        history = [
            (h.metadata["source"], h.metadata["step"], h.next, h.values)
            for h in counter.get_state_history(config)
        ]
        return outputs, history

    assert_same(scenario)
