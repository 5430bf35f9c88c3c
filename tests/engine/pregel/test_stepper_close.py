"""A stepper let go of mid-run (the studio starts another run, deletes the thread, quits) ends
its run as a stream's reader that stops ends it: on its own event loop, now, not when the garbage
collector finalizes the suspended run on a thread with no event loop."""

from __future__ import annotations

import asyncio
import gc
import sys
from typing import TypedDict

import pytest

from engine.checkpoint.memory import InMemorySaver
from engine.graph import START, StateGraph


class S(TypedDict):
    n: int


def _chain(asynchronous: bool):
    def add(s: S) -> dict:
        return {"n": s["n"] + 1}

    async def aadd(s: S) -> dict:
        return {"n": s["n"] + 1}

    builder = StateGraph(S)
    for name in "abc":
        builder.add_node(name, aadd if asynchronous else add)
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("b", "c")
    return builder.compile(checkpointer=InMemorySaver())


@pytest.fixture
def unraisable(monkeypatch):
    """What Python reports as 'Exception ignored in ...' while the test runs."""
    seen: list = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    return seen


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("durability", ["exit", "async"])
def test_closing_a_stepper_mid_run_ends_its_run_there(asynchronous, durability, unraisable):
    graph = _chain(asynchronous)
    config = {"configurable": {"thread_id": "t"}}
    stepper = graph.stepper({"n": 0}, config, durability=durability, asynchronous=asynchronous)
    stepper.step()  # the input step
    stepper.step()  # a
    stepper.close()
    stepper.close()  # (again: nothing more to do)
    del stepper
    gc.collect()
    assert unraisable == []
    state = graph.get_state(config)
    # the run's last checkpoint is saved, durability "exit" included, as when a reader stops
    assert (state.values, state.next) == ({"n": 1}, ("b",))
    # and the thread goes on from there
    rest = asyncio.run(graph.ainvoke(None, config)) if asynchronous else graph.invoke(None, config)
    assert rest == {"n": 3}


def test_a_closed_async_steppers_event_loop_is_closed():
    stepper = _chain(True).stepper(
        {"n": 0}, {"configurable": {"thread_id": "t"}}, asynchronous=True
    )
    stepper.step()
    stepper.close()
    assert stepper.done and stepper._event_loop.is_closed()
    assert stepper.step() == []
