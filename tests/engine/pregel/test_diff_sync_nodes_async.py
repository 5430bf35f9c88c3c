"""Differential tests: a sync node or router awaited by the async API runs in the event loop's
default executor, as langgraph runs it, so it never blocks the loop and parallel sync nodes
overlap. Its context (config, runtime, interrupts, stream writer) goes with it."""

import asyncio
import operator
import threading
from contextlib import aclosing
from typing import Annotated, TypedDict

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class Log(TypedDict):
    log: Annotated[list, operator.add]


def _until_cancelled(seen: list[str], started: asyncio.Event | None = None):
    """An async node that waits until it is cancelled, and notes that it was."""

    async def forever(state: Log) -> dict:
        if started is not None:
            started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise
        return {"log": ["never"]}

    return forever


def _side_by_side(g, **nodes):
    """A graph whose nodes all start at START: one superstep running them together."""
    builder = g.StateGraph(Log)
    for name, node in nodes.items():
        builder.add_node(name, node)
        builder.add_edge(g.START, name)
    return builder.compile()


def test_sync_nodes_and_routers_run_off_the_loop_thread_and_overlap():
    def scenario(b):
        g = b.graph
        both_running = threading.Barrier(2, timeout=5)  # broken if the two ran one by one
        seen: list[tuple[str, bool]] = []

        def off_loop() -> bool:
            return threading.current_thread() is not threading.main_thread()

        def make(name: str):
            def node(state: Log) -> dict:
                seen.append((name, off_loop()))
                both_running.wait()
                return {"log": [name]}

            return node

        def route(state: Log) -> str:
            seen.append(("route", off_loop()))
            return "c"

        builder = g.StateGraph(Log)
        builder.add_node("a", make("a"))
        builder.add_node("b", make("b"))
        builder.add_node("c", lambda s: {"log": ["c"]})
        builder.add_edge(g.START, "a")
        builder.add_edge(g.START, "b")
        builder.add_conditional_edges("a", route, ["c"])
        graph = builder.compile()
        out = asyncio.run(graph.ainvoke({"log": []}))
        return sorted(out["log"][:2]) + out["log"][2:], sorted(seen)

    assert_same(scenario)


def test_a_sync_node_off_the_loop_still_streams_and_interrupts():
    def scenario(b):
        g, types = b.graph, b.types
        get_stream_writer = b.config.get_stream_writer

        def ask(state: Log) -> dict:
            get_stream_writer()({"progress": "asking"})
            return {"log": [types.interrupt("go?")]}

        builder = g.StateGraph(Log)
        builder.add_node("ask", ask)
        builder.add_edge(g.START, "ask")
        graph = builder.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = {"configurable": {"thread_id": "t"}}

        async def run():
            first = [c async for c in graph.astream({"log": []}, config, stream_mode="custom")]
            resumed = await graph.ainvoke(types.Command(resume="yes"), config)
            return first, resumed

        return asyncio.run(run())

    assert_same(scenario)


@pytest.mark.parametrize("kind", ["async", "sync"])
def test_astream_delivers_custom_output_while_the_node_runs(kind):
    """The caller gets a node's chunk before the node ends: the node waits for the caller to
    acknowledge it (it would wait in vain if chunks came only at the node's end)."""

    def scenario(b):
        g = b.graph
        get_stream_writer = b.config.get_stream_writer
        acked = threading.Event()
        heard: list[bool] = []

        async def async_node(state: Log) -> dict:
            get_stream_writer()({"step": "started"})
            for _ in range(500):
                if acked.is_set():
                    break
                await asyncio.sleep(0.01)
            heard.append(acked.is_set())
            return {"log": ["done"]}

        def sync_node(state: Log) -> dict:
            get_stream_writer()({"step": "started"})
            heard.append(acked.wait(5))
            return {"log": ["done"]}

        builder = g.StateGraph(Log)
        builder.add_node("n", async_node if kind == "async" else sync_node)
        builder.add_edge(g.START, "n")
        graph = builder.compile()

        async def run():
            chunks = []
            async for mode, chunk in graph.astream({"log": []}, stream_mode=["custom", "values"]):
                chunks.append((mode, chunk))
                if mode == "custom":
                    acked.set()
            return chunks

        return asyncio.run(run()), heard

    assert_same(scenario)


def test_leaving_astream_cancels_the_running_tasks():
    """A caller that stops reading (break inside `aclosing`) cancels the step's running async
    nodes before it goes on, as langgraph."""

    def scenario(b):
        g = b.graph
        seen: list[str] = []

        async def run():
            started = asyncio.Event()

            forever = _until_cancelled(seen, started)

            async def quick(state: Log) -> dict:
                await started.wait()
                return {"log": ["quick"]}

            graph = _side_by_side(g, forever=forever, quick=quick)
            async with aclosing(graph.astream({"log": []})) as stream:
                async for chunk in stream:
                    seen.append(str(chunk))
                    break
            return list(seen)

        return asyncio.run(run())

    assert_same(scenario)


def test_a_failed_node_cancels_its_running_siblings():
    """Under the async API the step ends at the first failure: the nodes still running are
    cancelled and the error is raised at once (not after they finish)."""

    def scenario(b):
        g = b.graph
        seen: list[str] = []

        forever = _until_cancelled(seen)

        async def bad(state: Log) -> dict:
            await asyncio.sleep(0)
            raise ValueError("bad node")

        graph = _side_by_side(g, forever=forever, bad=bad)

        async def run():
            try:
                await asyncio.wait_for(graph.ainvoke({"log": []}), 5)
            except ValueError as exc:
                seen.append(str(exc))
            return seen

        return asyncio.run(run())

    assert_same(scenario)


def test_step_timeout_cancels_the_step_and_raises():
    """Pregel.step_timeout: a superstep still running after it is cancelled (async nodes) and
    the run raises TimeoutError; what finished before is streamed."""

    def scenario(b):
        g = b.graph
        seen: list[str] = []

        forever = _until_cancelled(seen)

        async def quick(state: Log) -> dict:
            return {"log": ["quick"]}

        graph = _side_by_side(g, forever=forever, quick=quick)
        graph.step_timeout = 0.2

        async def run():
            try:
                async for chunk in graph.astream({"log": []}, stream_mode="updates"):
                    seen.append(str(chunk))
            except TimeoutError as exc:
                seen.append(f"{type(exc).__name__}: {exc}")
            return seen

        return asyncio.run(run())

    assert_same(scenario)


def test_step_timeout_of_a_sync_run():
    def scenario(b):
        g = b.graph
        release = threading.Event()

        def slow(state: Log) -> dict:
            release.wait(1)  # langgraph's sync runner waits for it before raising
            return {"log": ["slow"]}

        builder = g.StateGraph(Log)
        builder.add_node("quick", lambda s: {"log": ["quick"]})
        builder.add_node("slow", slow)
        builder.add_edge(g.START, "quick")
        builder.add_edge("quick", "slow")
        graph = builder.compile()
        graph.step_timeout = 0.2
        chunks = []
        try:
            for chunk in graph.stream({"log": []}, stream_mode="updates"):
                chunks.append(chunk)
        except TimeoutError as exc:
            chunks.append(f"{type(exc).__name__}: {exc}")
        release.set()
        return chunks

    assert_same(scenario)
