"""What each checkpoint put receives (new versions, values, metadata) matches langgraph's, and a
superstep's checkpoint costs what the step changed, not a pass over every channel (issue 32.3:
the loop tracks the versions it gave instead of comparing every channel's at each put)."""

from __future__ import annotations

import copy
import operator
from typing import Annotated, TypedDict

import pytest

from engine.channels.ephemeral_value import EphemeralValue
from engine.channels.last_value import LastValue
from engine.checkpoint.base import version_counter
from engine.checkpoint.memory import InMemorySaver
from engine.graph import END, START, StateGraph
from tests.oracle import normalize, run_both


class State(TypedDict):
    count: int
    hits: Annotated[list[int], operator.add]


def _recording_saver(backend):
    class Recording(backend.mod("checkpoint.memory").InMemorySaver):
        def __init__(self) -> None:
            super().__init__()
            self.puts: list = []

        def put(self, config, checkpoint, metadata, new_versions):
            self.puts.append(
                (
                    [(c, version_counter(v)) for c, v in new_versions.items()],
                    list(copy.deepcopy(checkpoint["channel_values"]).items()),
                    {c: version_counter(v) for c, v in checkpoint["channel_versions"].items()},
                    {n: sorted(s) for n, s in checkpoint["versions_seen"].items()},
                    metadata.get("source"),
                    metadata.get("step"),
                )
            )
            return super().put(config, checkpoint, metadata, new_versions)

    return Recording()


def _build(backend, saver, **compile_kw):
    """a -> (b, c in parallel) -> join (waits for both) -> loop back to a twice, then END."""
    g = backend.graph

    def step(state: State) -> dict:
        return {"count": state["count"] + 1, "hits": [1]}

    def side(state: State) -> dict:
        return {"hits": [3]}

    builder = g.StateGraph(State)
    builder.add_node("a", step)
    builder.add_node("b", step)
    builder.add_node("c", side)
    builder.add_node("join", step)
    builder.add_edge(g.START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("a", "c")
    builder.add_edge(["b", "c"], "join")
    builder.add_conditional_edges("join", lambda s: "a" if s["count"] < 7 else g.END)
    return builder.compile(checkpointer=saver, **compile_kw)


@pytest.mark.parametrize("durability", ["sync", "exit"])
def test_each_put_receives_langgraphs_new_versions_and_values(durability):
    def scenario(b):
        saver = _recording_saver(b)
        graph = _build(b, saver)
        config = {"configurable": {"thread_id": "t"}}
        result = graph.invoke({"count": 0, "hits": []}, config, durability=durability)
        # a second run on the same thread starts from the saved checkpoint
        result = graph.invoke({"count": 0}, config, durability=durability)
        return result, saver.puts

    lg, en = run_both(scenario)
    assert normalize(en) == normalize(lg)
    assert len(en[1]) == (22 if durability == "sync" else 2)


def test_puts_match_langgraphs_across_an_interrupt_and_its_resume():
    def scenario(b):
        saver = _recording_saver(b)
        graph = _build(b, saver, interrupt_before=["join"])
        config = {"configurable": {"thread_id": "t"}}
        out = [graph.invoke({"count": 0, "hits": []}, config)]
        while graph.get_state(config).next:
            out.append(graph.invoke(None, config))
        return out, saver.puts

    lg, en = run_both(scenario)
    assert normalize(en) == normalize(lg)


def test_a_superstep_checkpoints_only_the_channels_it_changed(monkeypatch):
    """A 60-node chain with a saver: each superstep's checkpoint asks only the channels given a
    version in that step for their value (the count, the edge it fired, the edge it cleared)."""
    calls = []
    for cls in (LastValue, EphemeralValue):
        original = cls.checkpoint
        monkeypatch.setattr(
            cls, "checkpoint", lambda self, original=original: calls.append(self) or original(self)
        )
    size = 60
    builder = StateGraph(State)
    names = [f"n{i}" for i in range(size)]
    for name in names:
        builder.add_node(name, lambda s: {"count": s["count"] + 1})
    builder.add_edge(START, names[0])
    for a, b in zip(names, names[1:], strict=False):
        builder.add_edge(a, b)
    builder.add_edge(names[-1], END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}, "recursion_limit": size + 10}
    assert graph.invoke({"count": 0, "hits": []}, config)["count"] == size
    # a pass over every channel with a version would ask about 60 of them per step
    assert len(calls) < 6 * size, f"{len(calls)} channel reads for {size} supersteps"
    assert graph.get_state(config).values == {"count": size, "hits": []}
