"""The supersteps bound of DeltaChannel snapshots, against langgraph: a delta channel no step
writes is still stored whole once DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT supersteps have passed
since its last snapshot (the bound is read from pregel._checkpoint at each checkpoint)."""

from __future__ import annotations

from typing import Annotated

import pytest
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential

CONFIG = {"configurable": {"thread_id": "t"}}


def _extend(state: list, writes: list) -> list:
    return [*state, *(item for write in writes for item in write)]


def _graph(b, steps: int):
    delta = b.mod("channels.delta").DeltaChannel
    State = TypedDict(  # noqa: UP013  (a class body could not see the local channels)
        "State",
        {"a": Annotated[list, delta(_extend)], "b": Annotated[list, delta(_extend)]},
    )
    builder = b.graph.StateGraph(State)
    previous = b.graph.START
    for i in range(steps):
        builder.add_node(f"step_{i}", lambda state, i=i: {"a": [f"a{i}"]})
        builder.add_edge(previous, f"step_{i}")
        previous = f"step_{i}"
    return builder.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())


@pytest.mark.parametrize("bound", [3, 5])
def test_an_unwritten_delta_channel_is_stored_once_the_bound_is_reached(bound, monkeypatch):
    def scenario(b):
        monkeypatch.setattr(
            b.mod("pregel._checkpoint"), "DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT", bound
        )
        graph = _graph(b, 3)
        graph.invoke({"a": ["seed-a"], "b": ["seed-b"]}, CONFIG)
        graph.invoke({"a": ["more"]}, CONFIG)
        rows = [
            (t.metadata["step"], sorted(t.checkpoint["channel_values"]),
             t.metadata.get("counters_since_delta_snapshot"))
            for t in graph.checkpointer.list(CONFIG)
        ]  # fmt: skip
        return rows, graph.get_state(CONFIG).values

    rows, values = assert_same(scenario)
    assert any("b" in stored for _, stored, _ in rows)
    assert values["b"] == ["seed-b"]


def test_the_predicate():
    from engine.channels.delta import DeltaChannel
    from engine.pregel._checkpoint import (
        DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT as bound,
    )
    from engine.pregel._checkpoint import delta_channels_to_snapshot

    channel = DeltaChannel(_extend, list, snapshot_frequency=10).from_checkpoint(None)
    channels = {"x": channel}
    assert delta_channels_to_snapshot(channels, {"x": (0, bound)}, {"x": 1}) == {"x"}
    assert delta_channels_to_snapshot(channels, {"x": (0, bound - 1)}, {"x": 1}) == set()
    assert delta_channels_to_snapshot(channels, {"x": (10, 1)}, {"x": 1}) == {"x"}
    assert delta_channels_to_snapshot(channels, {"x": (10, 1)}, {}) == set()  # never written
