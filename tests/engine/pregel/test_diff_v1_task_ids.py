"""A thread saved in checkpoint format 1 plans its tasks under that format's ids.

langgraph hashes a task's place with SHA-1 in a format-1 checkpoint (XXH3 from format 2 on), so
the pending writes of a thread saved by langgraph before then are keyed by SHA-1 ids: reading
the thread back must find them (the task's result shows, a resume does not run it again).
"""

import operator
from typing import Annotated, TypedDict

from tests.oracle import run_both

INPUT_ID = "1f00ffbe-5368-6c0a-bfff-ac22bea4c512"  # a format-1 checkpoint's id (uuid6)


class State(TypedDict):
    topic: str
    notes: Annotated[list[str], operator.add]


def _format_1_thread(b):
    calls = []

    def research(state):
        calls.append("research")
        return {"notes": [f"about {state['topic']}"]}

    builder = b.graph.StateGraph(State)
    builder.add_node("research", research)
    builder.add_edge(b.graph.START, "research")
    saver = b.mod("checkpoint.memory").InMemorySaver()
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
    saved = {
        "v": 1,
        "ts": "2025-04-02T19:51:40.525051+00:00",
        "id": INPUT_ID,
        "channel_values": {"__start__": {"topic": "tides"}},
        "channel_versions": {"__start__": "00000000000000000000000000000001.0.5"},
        "versions_seen": {"__input__": {}},
    }
    stored = saver.put(config, saved, {"source": "input", "step": -1}, saved["channel_versions"])
    planned = graph.get_state(config)
    (start,) = planned.tasks
    # the input task finished before the thread was saved: its writes are kept under its id
    saver.put_writes(stored, [("topic", "tides"), ("branch:to:research", None)], start.id)
    read_back = graph.get_state(config)
    final = graph.invoke(None, config)
    return {
        "start_id": start.id,
        "start_result": read_back.tasks[0].result,
        "final": final,
        "ran": calls,
        "steps": [s.metadata["step"] for s in graph.get_state_history(config)],
    }


def test_a_format_1_thread_finds_its_saved_writes():
    on_langgraph, on_engine = run_both(_format_1_thread)
    assert on_engine == on_langgraph
    assert on_engine["start_result"] == {"topic": "tides"}
    assert on_engine["final"] == {"topic": "tides", "notes": ["about tides"]}
    assert on_engine["ran"] == ["research"]
