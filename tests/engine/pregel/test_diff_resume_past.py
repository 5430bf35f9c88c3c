"""A resume addressed at a checkpoint the thread has moved past reruns the tasks that had
finished there, as langgraph does: their saved writes fed the checkpoints that followed, so they
are not handed back (the engine streamed them as cached and never called the node). A resume at
the thread's latest checkpoint, named by id or not, still hands them back.

Time travel (a replay with no resume) from an update_state checkpoint the thread has moved past
starts a fork of its own, as from any other past checkpoint."""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, TypedDict

import pytest

from tests.oracle import Backend, assert_same, normalize

pytestmark = pytest.mark.differential


class Log(TypedDict, total=False):
    log: Annotated[list, operator.add]


def _history(graph, saver, cfg) -> list:
    return [
        (
            snap.metadata["step"],
            snap.metadata["source"],
            snap.values,
            snap.next,
            sorted((w[1], repr(w[2])) for w in saver.get_tuple(snap.config).pending_writes),
        )
        for snap in graph.get_state_history(cfg)
    ]


def _interrupted(b: Backend) -> tuple:
    """(graph, saver, calls, config) of a thread whose `ask` waits for an answer: `fast` and
    `ask` run side by side, then `after` runs."""
    calls: list = []
    saver = b.mod("checkpoint.memory").InMemorySaver()

    def fast(s):
        calls.append("fast")
        return {"log": ["fast"]}

    def ask(s):
        calls.append("ask")
        return {"log": [b.types.interrupt("answer?")]}

    def after(s):
        calls.append("after")
        return {"log": ["after"]}

    builder = b.graph.StateGraph(Log)
    builder.add_node("fast", fast)
    builder.add_node("ask", ask)
    builder.add_node("after", after)
    builder.add_edge(b.graph.START, "fast")
    builder.add_edge(b.graph.START, "ask")
    builder.add_edge(["fast", "ask"], "after")
    graph = builder.compile(checkpointer=saver)
    cfg = {"configurable": {"thread_id": "t"}}
    graph.invoke({"log": []}, cfg)
    return graph, saver, calls, cfg


@pytest.mark.parametrize("durability", ["sync", "exit"])
def test_resume_at_a_checkpoint_moved_past_reruns_finished_tasks(durability):
    def scenario(b: Backend):
        graph, saver, calls, cfg = _interrupted(b)
        graph.invoke(b.types.Command(resume="one"), cfg, durability=durability)
        # the checkpoint where `after` had run and the thread went on to the end
        past = list(graph.get_state_history(cfg))[1].config
        seen = len(calls)
        chunks = list(
            graph.stream(
                b.types.Command(resume="two"),
                past,
                stream_mode=["updates", "tasks"],
                durability=durability,
            )
        )
        # with durability "exit" the checkpoint before both parallel tasks is the one moved
        # past: they rerun side by side, finishing in any order
        chunks = sorted((normalize(c) for c in chunks), key=repr)
        return chunks, sorted(calls[seen:]), _history(graph, saver, cfg)

    assert_same(scenario)


def test_resume_at_the_latest_checkpoint_by_id_hands_writes_back():
    def scenario(b: Backend):
        graph, saver, calls, cfg = _interrupted(b)
        latest = graph.get_state(cfg).config
        seen = len(calls)
        chunks = list(graph.stream(b.types.Command(resume="one"), latest))
        return chunks, calls[seen:], _history(graph, saver, cfg)

    assert_same(scenario)


def test_entrypoint_resumed_at_a_past_checkpoint_reruns_its_calls():
    def scenario(b: Backend):
        calls: list = []

        @b.func.task
        def double(x):
            calls.append(x)
            return x * 2

        @b.func.entrypoint(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        def flow(x):
            doubled = double(x).result()
            return doubled + b.types.interrupt("more?")

        cfg = {"configurable": {"thread_id": "t"}}
        flow.invoke(1, cfg)
        flow.invoke(b.types.Command(resume=10), cfg)
        past = list(flow.get_state_history(cfg))[1].config
        seen = len(calls)
        chunks = list(flow.stream(b.types.Command(resume=100), past))
        history = [(s.metadata["step"], s.values) for s in flow.get_state_history(cfg)]
        return chunks, calls[seen:], history

    assert_same(scenario)


def test_async_resume_at_a_checkpoint_moved_past():
    def scenario(b: Backend):
        class S(TypedDict, total=False):
            q: str
            a: str

        calls: list = []

        def first(s):
            return {"q": "x"}

        async def qa(s):
            calls.append("qa")
            return {"a": s["q"] + b.types.interrupt("suffix?")}

        builder = b.graph.StateGraph(S)
        builder.add_node("first", first)
        builder.add_node("qa", qa)
        builder.add_edge(b.graph.START, "first")
        builder.add_edge("first", "qa")
        graph = builder.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        cfg = {"configurable": {"thread_id": "t"}}

        async def run():
            await graph.ainvoke({"q": "a"}, cfg)
            await graph.ainvoke(b.types.Command(resume="!"), cfg)
            past = [s async for s in graph.aget_state_history(cfg)][1].config
            seen = len(calls)
            chunks = [c async for c in graph.astream(b.types.Command(resume="?"), past)]
            history = [(s.metadata["step"], s.values) async for s in graph.aget_state_history(cfg)]
            return chunks, calls[seen:], history

        return asyncio.run(run())

    assert_same(scenario)


@pytest.mark.parametrize("resume", [False, True], ids=["replay", "resume"])
def test_update_state_checkpoint_moved_past(resume):
    """A replay from it forks; a resume at it reruns the interrupted node's finished task."""

    def scenario(b: Backend):
        calls: list = []

        def one(s):
            calls.append("one")
            return {"log": ["one"]}

        def two(s):
            calls.append("two")
            return {"log": [b.types.interrupt("?") if resume else "two"]}

        builder = b.graph.StateGraph(Log)
        builder.add_node("one", one)
        builder.add_node("two", two)
        builder.add_edge(b.graph.START, "one")
        builder.add_edge("one", "two")
        saver = b.mod("checkpoint.memory").InMemorySaver()
        graph = builder.compile(checkpointer=saver, interrupt_before=None if resume else ["two"])
        cfg = {"configurable": {"thread_id": "t"}}
        graph.invoke({"log": []}, cfg)
        updated = graph.update_state(cfg, {"log": ["u"]})
        graph.invoke(b.types.Command(resume="r1") if resume else None, cfg)
        seen = len(calls)
        again = b.types.Command(resume="r2") if resume else None
        chunks = list(graph.stream(again, updated, stream_mode=["updates", "values"]))
        return chunks, calls[seen:], _history(graph, saver, cfg)

    assert_same(scenario)
