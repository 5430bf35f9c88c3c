"""The structured trace of a DeltaChannel: its checkpoints store no value (the writes are kept
instead), yet a barrier reports the channel's old and new values, as for any other channel."""

from typing import Annotated, TypedDict

from engine.channels.delta import DeltaChannel
from engine.graph import START, StateGraph
from engine.pregel import trace


def _extend(state: list, writes: list) -> list:
    return [*state, *(item for write in writes for item in write)]


class S(TypedDict):
    items: Annotated[list, DeltaChannel(_extend)]


def test_a_barrier_reports_a_delta_channels_values():
    builder = StateGraph(S)
    builder.add_node("more", lambda state: {"items": ["b"]})
    builder.add_edge(START, "more")
    run = builder.compile().stepper({"items": ["a"]})
    run.run_to_end()
    moved = [
        (e.step, c.old_value, c.new_value)
        for e in run.events
        if isinstance(e, trace.BarrierApplied)
        for c in e.changes
        if c.channel == "items"
    ]
    assert moved == [(0, [], ["a"]), (1, ["a"], ["a", "b"])]
