"""update_state on a thread with a DeltaChannel, differential: the update's writes are kept on
the checkpoint it builds on and the new checkpoint counts it as a superstep (metadata
counters_since_delta_snapshot), storing the channel whole only when its snapshot_frequency is
reached, on a new thread, after an Overwrite, or from a checkpoint the thread moved past."""

import sqlite3
from typing import Annotated, TypedDict

import pytest

from tests.engine.checkpoint.test_diff_delta_channel import extend
from tests.oracle import Backend, assert_same

pytestmark = pytest.mark.differential


def _graph(b: Backend, kind: str, freq: int):
    if kind == "memory":
        saver = b.mod("checkpoint.memory").InMemorySaver()
    else:
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        saver = b.mod("checkpoint.sqlite").SqliteSaver(conn)

    class S(TypedDict):
        items: Annotated[list, b.channels.DeltaChannel(extend, snapshot_frequency=freq)]

    builder = b.graph.StateGraph(S)
    builder.add_node("a", lambda s: {"items": ["a"]})
    builder.add_node("b", lambda s: {})
    builder.add_edge(b.graph.START, "a")
    builder.add_edge("a", "b")
    return builder.compile(checkpointer=saver), saver


def _history(graph, saver, cfg, stored=True):
    """Per checkpoint: step, source, values, counters, whether `items` is stored whole (not
    asked of SQLite: the engine's keeps a snapshot for the checkpoints after it that share its
    version, langgraph's only in the one that made it; a known storage difference)."""
    return [
        (
            snap.metadata.get("step"),
            snap.metadata.get("source"),
            snap.values.get("items"),
            snap.metadata.get("counters_since_delta_snapshot"),
            stored and "items" in saver.get_tuple(snap.config).checkpoint["channel_values"],
        )
        for snap in graph.get_state_history(cfg)
    ]


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
@pytest.mark.parametrize("freq", [1000, 3])
def test_updates_count_as_supersteps(kind, freq):
    def scenario(b: Backend):
        graph, saver = _graph(b, kind, freq)
        cfg = {"configurable": {"thread_id": "t"}}
        graph.update_state(cfg, {"items": ["u0"]}, as_node="a")  # a new thread
        graph.update_state(cfg, {"items": ["u1"]}, as_node="a")
        graph.invoke({"items": ["x"]}, cfg)
        graph.update_state(cfg, {"items": ["u2"]}, as_node="b")
        graph.update_state(cfg, {"items": ["in"]}, as_node="__input__")
        graph.bulk_update_state(
            cfg,
            [
                [
                    b.types.StateUpdate({"items": ["p"]}, "a", "task-1"),
                    b.types.StateUpdate({"items": ["q"]}, "b", "task-2"),
                ],
                [b.types.StateUpdate({"items": ["r"]}, "b")],
            ],
        )
        graph.update_state(cfg, {"items": b.types.Overwrite(["fresh"])}, as_node="a")
        graph.update_state(cfg, {"items": ["after"]}, as_node="a")
        return graph.get_state(cfg).values, _history(graph, saver, cfg, kind == "memory")

    assert_same(scenario)


def test_update_from_a_past_checkpoint_and_a_copy():
    def scenario(b: Backend):
        graph, saver = _graph(b, "memory", 1000)
        cfg = {"configurable": {"thread_id": "t"}}
        graph.invoke({"items": ["x"]}, cfg)
        graph.invoke({"items": ["y"]}, cfg)
        past = list(graph.get_state_history(cfg))[3]
        forked = graph.update_state(past.config, {"items": ["side"]}, as_node="a")
        copied = graph.update_state(cfg, None, as_node="__copy__")
        graph.update_state(copied, {"items": ["on copy"]}, as_node="a")
        return graph.get_state(forked).values, _history(graph, saver, cfg)

    assert_same(scenario)
