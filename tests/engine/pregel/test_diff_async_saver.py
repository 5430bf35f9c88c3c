"""Async runs (ainvoke, astream) read and save through the saver's async methods, on langgraph
and on the engine: a saver that records which methods the run called sees only async ones, one
that fails in an async method fails the run, and a put cut short by cancelling still lands.

The recording savers mark their async methods' context, so a sync method that an async one calls
internally (InMemorySaver.aput calls put) is not counted; a sync call made by the run is.
"""

from __future__ import annotations

import asyncio
import contextvars
import operator
from typing import Annotated, Any, TypedDict

import pytest

from tests.oracle import normalize

_ASYNC = ("aget_tuple", "alist", "aput", "aput_writes", "aget_delta_channel_history")
_SYNC = ("get_tuple", "list", "put", "put_writes", "get_delta_channel_history")
_inside_async = contextvars.ContextVar("inside_async", default=False)


def recording(base: type) -> type:
    """A subclass of `base` that records the run's calls of the saver's read and save methods."""

    def sync_method(name: str):
        def method(self, *args: Any, **kwargs: Any) -> Any:
            if not _inside_async.get():
                self.calls.append(name)
            return getattr(base, name)(self, *args, **kwargs)

        return method

    def async_method(name: str):
        async def method(self, *args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            token = _inside_async.set(True)
            try:
                return await getattr(base, name)(self, *args, **kwargs)
            finally:
                _inside_async.reset(token)

        return method

    def alist(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("alist")

        async def listed():
            token = _inside_async.set(True)
            try:
                async for item in base.alist(self, *args, **kwargs):
                    yield item
            finally:
                _inside_async.reset(token)

        return listed()

    members: dict[str, Any] = {name: sync_method(name) for name in _SYNC}
    members.update({name: async_method(name) for name in _ASYNC if name != "alist"})
    members["alist"] = alist
    members["calls"] = None

    def init(self, *args: Any, **kwargs: Any) -> None:
        base.__init__(self, *args, **kwargs)
        self.calls = []

    members["__init__"] = init
    return type(f"Recording{base.__name__}", (base,), members)


class State(TypedDict):
    log: Annotated[list, operator.add]


def fan_graph(backend, saver, interrupt: bool = False, **compile_kwargs):
    g = backend.graph

    def ask(state: State) -> dict:
        if interrupt:
            answer = backend.types.interrupt("name?")
            return {"log": [f"ask:{answer}"]}
        return {"log": ["ask"]}

    builder = g.StateGraph(State)
    builder.add_node("a", lambda s: {"log": ["a"]})
    builder.add_node("b", lambda s: {"log": ["b"]})
    builder.add_node("ask", ask)
    builder.add_edge(g.START, "a")
    builder.add_edge(g.START, "b")
    builder.add_edge("a", "ask")
    builder.add_edge("b", "ask")
    builder.add_edge("ask", g.END)
    return builder.compile(checkpointer=saver, **compile_kwargs)


async def history(graph, config) -> list:
    return [
        (normalize(s.values), s.next, s.metadata["source"], s.metadata["step"])
        async for s in graph.aget_state_history(config)
    ]


def memory_saver(backend):
    return recording(backend.mod("checkpoint.memory").InMemorySaver)()


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
@pytest.mark.parametrize("api", ["ainvoke", "astream"])
async def test_run_calls_only_async_methods(backend, durability, api):
    saver = memory_saver(backend)
    graph = fan_graph(backend, saver)
    config = {"configurable": {"thread_id": "t"}}
    if api == "ainvoke":
        out = await graph.ainvoke({"log": ["in"]}, config, durability=durability)
    else:
        out = [c async for c in graph.astream({"log": ["in"]}, config, durability=durability)]
    # a put per checkpoint (input, 3 steps) and a put_writes per task; "exit": one put at the end
    saved = ["aput"] if durability == "exit" else ["aput"] * 4 + ["aput_writes"] * 4
    assert sorted(saver.calls) == ["aget_tuple", *saved]
    saver.calls.clear()
    snapshots = await history(graph, config)
    assert normalize(out) == normalize(
        {"log": ["in", "a", "b", "ask"]}
        if api == "ainvoke"
        else [{"a": {"log": ["a"]}}, {"b": {"log": ["b"]}}, {"ask": {"log": ["ask"]}}]
    )
    assert len(snapshots) == (1 if durability == "exit" else 4)
    assert snapshots[0][0] == {"log": ["in", "a", "b", "ask"]}


async def test_interrupt_resume_and_time_travel(backend):
    saver = memory_saver(backend)
    graph = fan_graph(backend, saver, interrupt=True)
    config = {"configurable": {"thread_id": "t"}}
    first = await graph.ainvoke({"log": ["in"]}, config)
    assert [i.value for i in first["__interrupt__"]] == ["name?"]
    resumed = await graph.ainvoke(backend.types.Command(resume="ada"), config)
    assert resumed == {"log": ["in", "a", "b", "ask:ada"]}
    past = [s async for s in graph.aget_state_history(config)]
    before_ask = next(s for s in past if s.next == ("ask",))
    saver.calls.clear()
    replayed = [c async for c in graph.astream(None, before_ask.config)]
    assert set(saver.calls) <= set(_ASYNC), saver.calls
    assert normalize(replayed) == normalize(
        [
            {
                "__interrupt__": (
                    backend.types.Interrupt(value="name?", id=replayed[0]["__interrupt__"][0].id),
                )
            }
        ]
    )
    saver.calls.clear()
    again = await graph.ainvoke(backend.types.Command(resume="bob"), config)
    assert set(saver.calls) <= set(_ASYNC), saver.calls
    assert again == {"log": ["in", "a", "b", "ask:bob"]}


async def test_subgraph_with_its_own_checkpointer(backend):
    g = backend.graph

    def inner_step(state: State) -> dict:
        return {"log": [f"inner:{backend.types.interrupt('go?')}"]}

    inner = g.StateGraph(State)
    inner.add_node("inner_step", inner_step)
    inner.add_edge(g.START, "inner_step")
    sub = inner.compile(checkpointer=True)
    outer = g.StateGraph(State)
    outer.add_node("sub", sub)
    outer.add_edge(g.START, "sub")
    saver = memory_saver(backend)
    graph = outer.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    await graph.ainvoke({"log": ["in"]}, config)
    out = await graph.ainvoke(backend.types.Command(resume="yes"), config)
    assert set(saver.calls) <= set(_ASYNC), saver.calls
    assert out == {"log": ["in", "in", "inner:yes"]}
    state = await graph.aget_state(config, subgraphs=True)
    assert state.next == ()


@pytest.mark.parametrize("failing", ["aget_tuple", "aput", "aput_writes"])
@pytest.mark.parametrize("api", ["ainvoke", "astream"])
async def test_a_failing_async_method_fails_the_run(backend, failing, api):
    async def fail(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError(f"faulty {failing}")

    base = backend.mod("checkpoint.memory").InMemorySaver
    graph = fan_graph(backend, type("Faulty", (base,), {failing: fail})())
    config = {"configurable": {"thread_id": "t"}}
    with pytest.raises(ValueError, match=f"faulty {failing}"):
        if api == "ainvoke":
            await graph.ainvoke({"log": ["in"]}, config, durability="async")
        else:
            async for _ in graph.astream({"log": ["in"]}, config, durability="sync"):
                pass


async def test_async_sqlite_saver(backend, tmp_path):
    aio = backend.mod("checkpoint.sqlite.aio")
    path = str(tmp_path / f"{backend.prefix}.sqlite")
    async with recording(aio.AsyncSqliteSaver).from_conn_string(path) as saver:
        graph = fan_graph(backend, saver, interrupt=True)
        config = {"configurable": {"thread_id": "t"}}
        await graph.ainvoke({"log": ["in"]}, config, durability="sync")
        chunks = [c async for c in graph.astream(backend.types.Command(resume="ada"), config)]
        assert set(saver.calls) <= set(_ASYNC), saver.calls
        assert chunks == [{"ask": {"log": ["ask:ada"]}}]
        assert await history(graph, config) == [
            ({"log": ["in", "a", "b", "ask:ada"]}, (), "loop", 2),
            ({"log": ["in", "a", "b"]}, ("ask",), "loop", 1),
            ({"log": ["in"]}, ("a", "b"), "loop", 0),
            ({"log": []}, ("__start__",), "input", -1),
        ]


async def test_cancelled_run_lands_its_exit_put(backend):
    logs: list[str] = []
    base = backend.mod("checkpoint.memory").InMemorySaver

    class SlowPut(base):
        async def aput(self, *args: Any) -> Any:
            logs.append("put.start")
            await asyncio.sleep(0.3)
            result = await super().aput(*args)
            logs.append("put.end")
            return result

    async def slow(state: State) -> dict:
        logs.append("node.start")
        try:
            await asyncio.sleep(5)
        finally:
            logs.append("node.end")
        return {"log": ["slow"]}

    g = backend.graph
    builder = g.StateGraph(State)
    builder.add_node("slow", slow)
    builder.add_edge(g.START, "slow")
    saver = SlowPut()
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    stream = graph.astream({"log": ["in"]}, config, durability="exit")
    task = asyncio.ensure_future(stream.__anext__())
    await asyncio.sleep(0.1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert logs == ["node.start", "node.end", "put.start", "put.end"]
    saved = await saver.aget_tuple(config)
    assert saved.checkpoint["channel_values"]["log"] == ["in"]


async def test_delta_channel_history_is_read_through_the_async_side(backend):
    # a DeltaChannel stores writes, not values: loading the thread reads its history
    delta = backend.mod("channels.delta").DeltaChannel(operator.add)
    Items = TypedDict("Items", {"items": Annotated[list, delta]})  # noqa: UP013
    g = backend.graph
    builder = g.StateGraph(Items)
    builder.add_node("more", lambda s: {"items": [len(s["items"])]})
    builder.add_edge(g.START, "more")
    saver = memory_saver(backend)
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    outs = [await graph.ainvoke({"items": ["in"]}, config) for _ in range(3)]
    assert set(saver.calls) <= set(_ASYNC), saver.calls
    # each later run reads the thread's delta history; a put and a put_writes per checkpoint
    run = ["aput", "aput_writes", "aput", "aput_writes", "aput"]
    history_read = ["aget_tuple", "aget_delta_channel_history"]
    assert saver.calls == ["aget_tuple", *run, *history_read, *run, *history_read, *run]
    # the reducer gets each step's writes as one batch
    assert outs[-1] == {"items": [["in"], [1], ["in"], [3], ["in"], [5]]}


async def test_a_consumer_that_stops_early_keeps_what_was_saved(backend):
    saver = memory_saver(backend)
    graph = fan_graph(backend, saver)
    config = {"configurable": {"thread_id": "t"}}
    async for chunk in graph.astream({"log": ["in"]}, config, durability="sync"):
        if "b" in chunk:
            break
    assert set(saver.calls) <= set(_ASYNC), saver.calls
    # the step that streamed "b" is not saved: the run stopped before its barrier
    assert [s[1:] for s in await history(graph, config)] == [
        (("a", "b"), "loop", 0),
        (("__start__",), "input", -1),
    ]


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
async def test_async_sqlite_saver_as_it_comes(backend, tmp_path, durability):
    # not subclassed: the engine saves it on its background save thread, batched
    aio = backend.mod("checkpoint.sqlite.aio")
    async with aio.AsyncSqliteSaver.from_conn_string(str(tmp_path / "db.sqlite")) as saver:
        graph = fan_graph(backend, saver)
        config = {"configurable": {"thread_id": "t"}}
        for _ in range(2):
            out = await graph.ainvoke({"log": ["in"]}, config, durability=durability)
        assert out == {"log": ["in", "a", "b", "ask"] * 2}
        steps = [s[1:] for s in await history(graph, config)]
    if durability == "exit":
        assert steps == [((), "loop", 6), ((), "loop", 2)]
    else:
        assert steps[0] == ((), "loop", 6) and len(steps) == 8


async def test_cancelling_astream_then_closing_async_sqlite(backend, tmp_path):
    # every save lands before the saver's connection closes (the engine's save thread used to
    # write into the closed connection and crash), and the cancelled task records nothing
    aio = backend.mod("checkpoint.sqlite.aio")
    g = backend.graph

    class Count(TypedDict):
        count: int

    async def step(state: Count) -> dict:
        await asyncio.sleep(0.002 if state["count"] < 5 else 30)
        return {"count": state["count"] + 1}

    builder = g.StateGraph(Count)
    builder.add_node("step", step)
    builder.add_edge(g.START, "step")
    builder.add_conditional_edges("step", lambda s: g.END if s["count"] >= 1000 else "step")
    config = {"configurable": {"thread_id": "t"}, "recursion_limit": 5000}
    for i in range(3):
        path = str(tmp_path / f"{i}.sqlite")
        async with aio.AsyncSqliteSaver.from_conn_string(path) as saver:
            graph = builder.compile(checkpointer=saver)
            fifth = asyncio.Event()

            async def consume(graph=graph, fifth=fifth):
                async for chunk in graph.astream({"count": 0}, config):
                    if chunk["step"]["count"] == 5:
                        fifth.set()

            task = asyncio.ensure_future(consume())
            await asyncio.wait_for(fifth.wait(), 10)
            await asyncio.sleep(0.02)  # the sixth step is running
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        async with aio.AsyncSqliteSaver.from_conn_string(path) as saver:
            state = await builder.compile(checkpointer=saver).aget_state(config)
            assert state.values == {"count": 5}
            assert state.next == ("step",)
            assert [t.error for t in state.tasks] == [None]
