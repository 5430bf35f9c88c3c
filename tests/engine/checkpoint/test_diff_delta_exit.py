"""Durability "exit" on a graph with DeltaChannels, differential on both savers: the steps it
does not save still count (counters_since_delta_snapshot), at exit only the channels due are
stored whole, and the writes of the others are kept on the final checkpoint's parent (the
checkpoint loaded, or on a new thread an empty step -2 checkpoint) under ids that sort by step;
a run from a checkpoint addressed by id stores the channels it wrote whole."""

import asyncio
import sqlite3
from typing import Annotated, TypedDict

import pytest

from tests.engine.checkpoint.test_diff_delta_channel import extend
from tests.oracle import Backend, assert_same

pytestmark = pytest.mark.differential

SAVERS = ["memory", "sqlite"]
DELTAS = ("items", "other")


def _graph(b: Backend, kind: str, *, freq=1000, other_freq=1000, ask=False):
    if kind == "memory":
        saver = b.mod("checkpoint.memory").InMemorySaver()
    else:
        saver = b.mod("checkpoint.sqlite").SqliteSaver(
            sqlite3.connect(":memory:", check_same_thread=False)
        )
    delta = b.channels.DeltaChannel

    class S(TypedDict):
        items: Annotated[list, delta(extend, snapshot_frequency=freq)]
        other: Annotated[list, delta(extend, snapshot_frequency=other_freq)]
        n: int

    def first(s):
        return {"items": [f"a{s['n']}"], "n": s["n"] + 1}

    def second(s):
        if ask and s["n"] < 3:
            return {"items": [f"c:{b.types.interrupt('go?')}"], "other": ["o"]}
        return {"other": [f"c{s['n']}"]}

    builder = b.graph.StateGraph(S)
    builder.add_node("first", first)
    builder.add_node("second", second)
    builder.add_edge(b.graph.START, "first")
    builder.add_edge("first", "second")
    return builder.compile(checkpointer=saver), saver


def _made_up(task_id: str) -> str:
    """The first group of a task id made up at exit (the step, or ffffffff for a step after
    the first), or "task" for a real one (a hash; its first group may be all digits too, one
    time in forty, but not a small step's zero-padded number)."""
    group = task_id.split("-")[0]
    made = group == "ffffffff" or (group.isdigit() and group.startswith("0000"))
    return group if made else "task"


def _writes(stored):
    """A checkpoint's delta writes, in the order a read replays them."""
    return [(_made_up(w[0]), w[1], w[2]) for w in stored.pending_writes if w[1] in DELTAS]


def _history(graph, saver, cfg, kind):
    """Per checkpoint: step, source, values, counters, next, whether it has a parent, the
    delta channels stored whole (not asked of SQLite: the engine's keeps a snapshot for the
    later checkpoints that share its version, langgraph's only in the one that made it; a
    known storage difference) and its delta writes."""
    out = []
    for snap in graph.get_state_history(cfg):
        stored = saver.get_tuple(snap.config)
        out.append(
            (
                snap.metadata.get("step"),
                snap.metadata.get("source"),
                snap.values,
                snap.metadata.get("counters_since_delta_snapshot"),
                snap.next,
                snap.parent_config is not None,
                kind == "memory"
                and sorted(k for k in DELTAS if k in stored.checkpoint["channel_values"]),
                _writes(stored),
            )
        )
    return out


@pytest.mark.parametrize("kind", SAVERS)
@pytest.mark.parametrize("freq", [1000, 3])
def test_runs_count_their_steps_and_keep_the_writes_on_the_parent(kind, freq):
    def scenario(b: Backend):
        graph, saver = _graph(b, kind, freq=freq, other_freq=1)
        cfg = {"configurable": {"thread_id": "t"}}
        out = []
        for i in range(3):  # the first on a new thread: an empty step -2 parent holds them
            out.append(graph.invoke({"items": [f"x{i}"], "n": 0}, cfg, durability="exit"))
            out.append(_history(graph, saver, cfg, kind))
        graph.invoke({"items": ["sync"], "n": 0}, cfg, durability="sync")
        out.append(graph.invoke({"items": ["y"], "n": 0}, cfg, durability="exit"))
        out.append(_history(graph, saver, cfg, kind)[:3])
        return out

    assert_same(scenario)


@pytest.mark.parametrize("kind", SAVERS)
def test_resume_with_an_update_and_a_run_from_an_addressed_checkpoint(kind):
    def scenario(b: Backend):
        graph, saver = _graph(b, kind, ask=True)
        cfg = {"configurable": {"thread_id": "t"}}
        asked = graph.invoke({"items": ["x"], "n": 0}, cfg, durability="exit")
        command = b.types.Command(resume="yes", update={"items": ["cmd"]})
        done = graph.invoke(command, cfg, durability="exit")
        # from the first run's checkpoint, which has a child already
        past = list(graph.get_state_history(cfg))[1]
        forked = graph.invoke({"items": ["z"], "n": 5}, past.config, durability="exit")
        return asked, done, forked, _history(graph, saver, cfg, kind)

    assert_same(scenario)


def test_async_run():
    def scenario(b: Backend):
        graph, saver = _graph(b, "memory")
        cfg = {"configurable": {"thread_id": "t"}}

        async def runs():
            for i in range(2):
                await graph.ainvoke({"items": [f"x{i}"], "n": 0}, cfg, durability="exit")
            return [s.values async for s in graph.aget_state_history(cfg)]

        return asyncio.run(runs()), _history(graph, saver, cfg, "memory")

    assert_same(scenario)
