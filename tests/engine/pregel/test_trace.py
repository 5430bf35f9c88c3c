"""The structured trace: a task whose writes come from the cache is reported as cached."""

import operator
from typing import Annotated, TypedDict

from engine.cache.memory import InMemoryCache
from engine.graph import START, StateGraph
from engine.pregel import trace
from engine.types import CachePolicy


class S(TypedDict):
    n: int
    log: Annotated[list[str], operator.add]


def test_a_cached_task_finishes_as_cached_in_the_trace():
    calls = []

    def slow(state: S) -> dict:
        calls.append(state["n"])
        return {"log": [f"slow {state['n']}"]}

    builder = StateGraph(S)
    builder.add_node("slow", slow, cache_policy=CachePolicy())
    builder.add_edge(START, "slow")
    graph = builder.compile(cache=InMemoryCache())

    def finished(run) -> list[tuple[str, bool]]:
        run.run_to_end()
        return [
            (e.name, e.cached)
            for e in run.events
            if isinstance(e, trace.TaskFinished) and e.name == "slow"
        ]

    assert finished(graph.stepper({"n": 1, "log": []})) == [("slow", False)]
    second = graph.stepper({"n": 1, "log": []})
    assert finished(second) == [("slow", True)]
    assert not any(isinstance(e, trace.TaskStarted) and e.name == "slow" for e in second.events)
    assert calls == [1] and second.output["log"] == ["slow 1"]


def test_each_event_carries_its_time_and_the_json_trace_leaves_it_out():
    import json
    import time

    from engine.pregel.trace_format import event_json

    def nap(state: S) -> dict:
        time.sleep(0.02)
        return {"log": ["napped"]}

    builder = StateGraph(S)
    builder.add_node("nap", nap)
    builder.add_edge(START, "nap")
    before = time.time()
    run = builder.compile().stepper({"n": 1, "log": []})
    run.run_to_end()
    times = [e.at for e in run.events]
    assert before <= times[0] and times == sorted(times) and times[-1] <= time.time()
    started, finished = (next(e for e in run.events if isinstance(e, kind) and e.name == "nap")
                         for kind in (trace.TaskStarted, trace.TaskFinished))  # fmt: skip
    assert finished.at - started.at >= 0.02
    assert all("at" not in json.loads(event_json(e)) for e in run.events)
    # two runs' events compare equal whatever their times
    assert trace.TaskStarted((), 1, "t", "nap", at=1.0) == trace.TaskStarted((), 1, "t", "nap")
