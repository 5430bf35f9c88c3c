"""Restoring a channel from its checkpoint keeps everything it was built with, for the library's
own classes (restored without running __init__, once per channel per snapshot) and for a user's
subclass (whose __init__ still runs), through a graph's saved state."""

from __future__ import annotations

from typing import Annotated, TypedDict

import pytest

from engine.channels.ephemeral_value import EphemeralValue
from engine.channels.last_value import LastValue
from engine.channels.topic import Topic
from engine.checkpoint.memory import InMemorySaver
from engine.graph import END, START, StateGraph


class Loud(LastValue):
    """A user's LastValue that counts its instances in __init__."""

    made = 0

    def __init__(self, typ, key: str = "") -> None:
        super().__init__(typ, key)
        Loud.made += 1


@pytest.mark.parametrize(
    ("channel", "value"),
    [
        (LastValue(int, "k"), 3),
        (EphemeralValue(str, guard=False), "x"),
        (Topic(int, accumulate=True), [1, 2]),
        (Topic(int), []),
    ],
)
def test_a_restored_channel_is_built_like_its_original(channel, value):
    channel.key = "k"
    if value != []:
        channel.update([value] if not isinstance(channel, Topic) else value)
    restored = channel.from_checkpoint(channel.checkpoint())
    assert type(restored) is type(channel) and restored == channel
    assert (restored.key, restored.typ) == ("k", channel.typ)
    assert getattr(restored, "guard", None) == getattr(channel, "guard", None)
    assert getattr(restored, "accumulate", None) == getattr(channel, "accumulate", None)
    assert restored.checkpoint() == channel.checkpoint()
    restored.update([])  # a step passing changes the copy only
    assert channel.is_available() is bool(value)


def test_a_subclass_restored_through_get_state_runs_its_init():
    class State(TypedDict):
        count: Annotated[int, Loud(int)]
        seen: Annotated[list[int], Topic(int, accumulate=True)]

    builder = StateGraph(State)
    builder.add_node("step", lambda s: {"count": s["count"] + 1, "seen": [s["count"]]})
    builder.add_edge(START, "step")
    builder.add_edge("step", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke({"count": 1, "seen": []}, config)
    before = Loud.made
    history = list(graph.get_state_history(config))
    assert [s.values for s in history] == [
        {"count": 2, "seen": [1]},
        {"count": 1},  # an empty topic shows no value
        {},
    ]
    assert Loud.made - before >= len(history)  # each snapshot built its Loud through __init__
