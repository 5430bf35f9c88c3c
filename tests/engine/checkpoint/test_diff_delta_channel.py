"""DeltaChannel through a graph, differential on both savers: values, history (with the
counters in metadata), which checkpoints store the channel (compactness), resume after an
interrupt, update_state and a fork, and durability "exit"."""

import sqlite3
from typing import Annotated, TypedDict

import pytest

from tests.oracle import Backend, assert_same

pytestmark = pytest.mark.differential


def extend(state, writes):
    out = list(state)
    for w in writes:
        out.extend(w if isinstance(w, list) else [w])
    return out


def _saver(b: Backend, kind: str):
    if kind == "memory":
        return b.mod("checkpoint.memory").InMemorySaver()
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    return b.mod("checkpoint.sqlite").SqliteSaver(conn)


def _graph(b: Backend, saver, *, freq=3, stop=6, interrupt=False):
    g = b.graph

    class S(TypedDict):
        items: Annotated[list, b.channels.DeltaChannel(extend, snapshot_frequency=freq)]
        n: int

    def step(s):
        if interrupt and s["n"] == 2:
            answer = b.types.interrupt("go?")
            return {"items": [f"ok:{answer}"], "n": s["n"] + 1}
        return {"items": [f"s{s['n']}"], "n": s["n"] + 1}

    builder = g.StateGraph(S)
    builder.add_node("step", step)
    builder.add_edge(g.START, "step")
    builder.add_conditional_edges("step", lambda s: "step" if s["n"] < stop else g.END)
    return builder.compile(checkpointer=saver)


def _history(graph, saver, cfg):
    """Each checkpoint's step, source, values, counters and whether it stores `items`."""
    out = []
    for snap in graph.get_state_history(cfg):
        stored = saver.get_tuple(snap.config).checkpoint["channel_values"]
        out.append(
            (
                snap.metadata.get("step"),
                snap.metadata.get("source"),
                snap.values.get("items"),
                snap.metadata.get("counters_since_delta_snapshot"),
                "items" in stored,
            )
        )
    return out


SAVERS = ("memory", "sqlite")


@pytest.mark.parametrize("kind", SAVERS)
def test_run_state_history_and_a_second_turn(kind):
    def scenario(b: Backend):
        saver = _saver(b, kind)
        graph = _graph(b, saver)
        cfg = {"configurable": {"thread_id": "t"}}
        first = graph.invoke({"items": ["x"], "n": 0}, cfg)
        second = graph.invoke({"items": ["y"], "n": 3}, cfg)
        state = graph.get_state(cfg)
        return first, second, state.values, state.next, _history(graph, saver, cfg)

    assert_same(scenario)


@pytest.mark.parametrize("kind", SAVERS)
def test_resume_after_interrupt_rebuilds_from_writes(kind):
    def scenario(b: Backend):
        saver = _saver(b, kind)
        graph = _graph(b, saver, freq=100, interrupt=True)
        cfg = {"configurable": {"thread_id": "t"}}
        graph.invoke({"items": ["x"], "n": 0}, cfg)
        paused = graph.get_state(cfg)
        # a new graph object reads the thread back from the saver only
        again = _graph(b, saver, freq=100, interrupt=True)
        done = again.invoke(b.types.Command(resume="yes"), cfg)
        return paused.values, paused.next, done, _history(again, saver, cfg)

    assert_same(scenario)


@pytest.mark.parametrize("kind", SAVERS)
def test_update_state_and_fork_from_the_past(kind):
    def scenario(b: Backend):
        saver = _saver(b, kind)
        graph = _graph(b, saver)
        cfg = {"configurable": {"thread_id": "t"}}
        graph.invoke({"items": ["x"], "n": 0}, cfg)
        past = list(graph.get_state_history(cfg))[3]
        updated = graph.update_state(past.config, {"items": ["U"]})
        at_update = graph.get_state(updated).values
        resumed = graph.invoke(None, updated)
        # replaying an older checkpoint forks a new branch from it
        older = list(graph.get_state_history(cfg))[-3]
        replayed = graph.invoke(None, older.config)
        return at_update, resumed, replayed, graph.get_state(cfg).values

    assert_same(scenario)


@pytest.mark.parametrize("kind", SAVERS)
def test_durability_exit(kind):
    def scenario(b: Backend):
        saver = _saver(b, kind)
        graph = _graph(b, saver)
        cfg = {"configurable": {"thread_id": "t"}}
        first = graph.invoke({"items": ["x"], "n": 0}, cfg, durability="exit")
        second = graph.invoke({"items": ["y"], "n": 4}, cfg, durability="exit")
        state = graph.get_state(cfg)
        return first, second, state.values, [h[:3] for h in _history(graph, saver, cfg)]

    assert_same(scenario)
