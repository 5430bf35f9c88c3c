"""The loop hands its checkpoints to InMemorySaver with put_unshared, and the saver keeps them as
they are, serializing only when read. That is right only if the loop never changes a handed-over
checkpoint afterwards. Each scenario here records what was handed over, serialized at that
moment, and checks that every stored checkpoint still reads the same after the runs: loops,
Send fan-out and a join, interrupt and resume, update_state, a fork, a subgraph, a delta
channel, durability "exit", and an async run."""

import asyncio
import operator
from typing import Annotated, TypedDict

import pytest

from engine.channels import DeltaChannel
from engine.checkpoint.memory import InMemorySaver
from engine.graph import END, START, StateGraph
from engine.types import Command, Send, interrupt


class RecordingSaver(InMemorySaver):
    """Remembers each handed-over checkpoint and metadata as they were at the hand-over."""

    def __init__(self) -> None:
        super().__init__()
        self.handed: dict[str, tuple] = {}

    def put_unshared(self, config, checkpoint, metadata, new_versions) -> None:
        super().put_unshared(config, checkpoint, metadata, new_versions)
        saved = {k: v for k, v in checkpoint.items() if k != "channel_values"}
        stored_metadata = self.storage[config["configurable"]["thread_id"]][
            config["configurable"].get("checkpoint_ns", "")
        ][checkpoint["id"]][1]
        self.handed[checkpoint["id"]] = (
            self._decoded(self.serde.dumps_typed(saved)),
            self._decoded(self.serde.dumps_typed(stored_metadata)),
        )

    def assert_unchanged(self) -> None:
        kept = {
            checkpoint_id: (self._decoded(saved), self._decoded(metadata))
            for spaces in self.storage.values()
            for checkpoints in spaces.values()
            for checkpoint_id, (saved, metadata, _) in checkpoints.items()
            if checkpoint_id in self.handed
        }
        assert len(kept) == len(self.handed) > 0
        for checkpoint_id, now in kept.items():
            assert now == self.handed[checkpoint_id], checkpoint_id


def test_a_saver_that_overrides_put_gets_every_checkpoint_there():
    class Counting(InMemorySaver):
        puts = 0

        def put(self, *args):
            Counting.puts += 1
            return super().put(*args)

    assert InMemorySaver().keeps_unshared
    assert not Counting().keeps_unshared
    graph, cfg = _loop(Counting()), {"configurable": {"thread_id": "t"}}
    graph.invoke({"n": 0}, cfg)
    assert Counting.puts == len(list(graph.get_state_history(cfg))) == 7


class Count(TypedDict):
    n: int
    seen: Annotated[list, operator.add]


def _loop(saver, stop=5):
    builder = StateGraph(Count)
    builder.add_node("step", lambda s: {"n": s["n"] + 1, "seen": [s["n"]]})
    builder.add_edge(START, "step")
    builder.add_conditional_edges("step", lambda s: "step" if s["n"] < stop else END)
    return builder.compile(checkpointer=saver)


def test_a_loop():
    saver = RecordingSaver()
    graph = _loop(saver)
    cfg = {"configurable": {"thread_id": "t"}}
    graph.invoke({"n": 0}, cfg)
    graph.invoke({"n": 1}, cfg)  # a second run on the same thread
    saver.assert_unchanged()
    assert graph.get_state(cfg).values["seen"] == [0, 1, 2, 3, 4, 1, 2, 3, 4]


def test_send_fan_out_and_a_join():
    class S(TypedDict):
        n: int
        out: Annotated[list, operator.add]

    builder = StateGraph(S)
    builder.add_node("worker", lambda p: {"out": [p["i"]]})
    builder.add_node("a", lambda s: {"out": ["a"]})
    builder.add_node("b", lambda s: {"out": ["b"]})
    builder.add_node("join", lambda s: {"n": len(s["out"])})
    builder.add_conditional_edges(START, lambda s: [Send("worker", {"i": i}) for i in range(3)])
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    builder.add_edge(["worker", "a", "b"], "join")
    builder.add_edge("join", END)
    saver = RecordingSaver()
    graph = builder.compile(checkpointer=saver)
    assert graph.invoke({"n": 0}, {"configurable": {"thread_id": "t"}})["n"] == 5
    saver.assert_unchanged()


def test_interrupt_resume_update_state_and_a_fork():
    def ask(s):
        return {"n": s["n"] + 1, "seen": [interrupt("more?")]}

    builder = StateGraph(Count)
    builder.add_node("first", lambda s: {"n": s["n"] + 1})
    builder.add_node("ask", ask)
    builder.add_edge(START, "first")
    builder.add_edge("first", "ask")
    builder.add_edge("ask", END)
    saver = RecordingSaver()
    graph = builder.compile(checkpointer=saver)
    cfg = {"configurable": {"thread_id": "t"}}
    graph.invoke({"n": 0}, cfg)
    graph.invoke(Command(resume="yes"), cfg)
    graph.update_state(cfg, {"n": 10})
    history = list(graph.get_state_history(cfg))
    before_ask = next(s for s in history if s.next == ("ask",))
    forked = graph.update_state(before_ask.config, {"n": 20})
    graph.invoke(None, forked)
    graph.invoke(Command(resume="again"), forked)
    saver.assert_unchanged()
    assert graph.get_state(cfg).values == {"n": 21, "seen": ["again"]}


def test_a_subgraph():
    inner = StateGraph(Count)
    inner.add_node("twice", lambda s: {"n": s["n"] * 2, "seen": ["inner"]})
    inner.add_edge(START, "twice")
    builder = StateGraph(Count)
    builder.add_node("sub", inner.compile())
    builder.add_node("after", lambda s: {"n": s["n"] + 1})
    builder.add_edge(START, "sub")
    builder.add_edge("sub", "after")
    saver = RecordingSaver()
    graph = builder.compile(checkpointer=saver)
    assert graph.invoke({"n": 3}, {"configurable": {"thread_id": "t"}})["n"] == 7
    saver.assert_unchanged()


def test_a_delta_channel():
    def extend(state, writes):
        return [*state, *(x for w in writes for x in w)]

    class S(TypedDict):
        items: Annotated[list, DeltaChannel(extend, snapshot_frequency=2)]
        n: int

    builder = StateGraph(S)
    builder.add_node("step", lambda s: {"items": [s["n"]], "n": s["n"] + 1})
    builder.add_edge(START, "step")
    builder.add_conditional_edges("step", lambda s: "step" if s["n"] < 6 else END)
    saver = RecordingSaver()
    graph = builder.compile(checkpointer=saver)
    cfg = {"configurable": {"thread_id": "t"}}
    assert graph.invoke({"items": [], "n": 0}, cfg)["items"] == [0, 1, 2, 3, 4, 5]
    graph.update_state(cfg, {"items": ["x"]})
    saver.assert_unchanged()


@pytest.mark.parametrize("durability", ["sync", "exit"])
def test_durability(durability):
    saver = RecordingSaver()
    _loop(saver).invoke({"n": 0}, {"configurable": {"thread_id": "t"}}, durability=durability)
    if durability == "exit":  # saved once at the end, through put
        assert not saver.handed
    else:
        saver.assert_unchanged()


def test_an_async_run():
    saver = RecordingSaver()
    graph = _loop(saver)
    asyncio.run(graph.ainvoke({"n": 0}, {"configurable": {"thread_id": "t"}}))
    saver.assert_unchanged()
