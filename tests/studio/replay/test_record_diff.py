"""The run diff: a recorded run and its replay after a code change, step by step (tasks,
writes, state, path); only what the change changed shows."""

from __future__ import annotations

import operator
from typing import Annotated

from langchain_openai import ChatOpenAI

from engine.graph import END, START, MessagesState, StateGraph
from engine.record import RecordingStore, record, replay_from, replay_thread
from studio.replay.run_diff import diff_threads, run_steps
from tests.engine.record.conftest import KEY, QUESTION


class State(MessagesState):
    answer: str
    notes: Annotated[list, operator.add]


def build(server, saver, *, shout=False, check=False, prompt=None):
    model = ChatOpenAI(model="gpt-test", base_url=server.base_url, api_key=KEY, max_retries=0)

    def ask(state):
        system = [("system", prompt)] if prompt else []
        return {"messages": [model.invoke([*system, *state["messages"]])]}

    def format_answer(state):
        text = state["messages"][-1].content
        return {"answer": text.upper() if shout else text, "notes": ["formatted"]}

    builder = StateGraph(State)
    builder.add_node("ask", ask)
    builder.add_node("format", format_answer)
    builder.add_edge(START, "ask")
    if check:
        builder.add_node("check", lambda state: {"notes": ["checked"]})
        builder.add_edge("ask", "check")
        builder.add_edge("check", "format")
    else:
        builder.add_edge("ask", "format")
    builder.add_edge("format", END)
    return builder.compile(checkpointer=saver)


def recorded(server, saver):
    server.reply("five")
    graph = build(server, saver)
    config = {"configurable": {"thread_id": "t"}}
    record(config, RecordingStore.for_saver(saver))
    graph.invoke(QUESTION, config)
    server.stop()
    return graph


def test_a_replay_of_the_same_code_is_the_same(server, saver):
    graph = recorded(server, saver)
    assert replay_thread(graph, "t", "r").error is None
    diff = diff_threads(graph, "t", "r")
    assert diff.same, diff.lines()
    assert diff.lines()[-1] == "the same: every step's tasks, writes and state"
    assert [s.tasks for s in run_steps(graph, "t")] == [("__start__",), ("ask",), ("format",)]


def test_a_code_change_shows_in_its_step_only(server, saver):
    graph = recorded(server, saver)
    edited = build(server, saver, shout=True)
    assert replay_thread(edited, "t", "r").error is None
    diff = diff_threads(graph, "t", "r", new_graph=edited)
    assert [s.step for s in diff.changed_steps] == [2]
    assert diff.lines() == [
        "run diff: 't' (old) vs 'r' (new)",
        "path old: __start__ → ask → format",
        "path new: __start__ → ask → format",
        "step 2: tasks format | format",
        "  format wrote .answer: 'five' → 'FIVE'",
        "  state .answer: 'five' → 'FIVE'",
    ]


def test_a_new_node_changes_the_path_and_the_steps_after_it(server, saver):
    graph = recorded(server, saver)
    edited = build(server, saver, check=True)
    assert replay_thread(edited, "t", "r").error is None
    diff = diff_threads(graph, "t", "r", new_graph=edited)
    lines = diff.lines()
    assert lines[1:3] == ["path old: __start__ → ask → format",
                          "path new: __start__ → ask → check → format"]  # fmt: skip
    assert "step 2: tasks format | check" in lines
    assert "step 3: tasks (no such step) | format" in lines
    assert "  format wrote - {'answer': 'five', 'notes': ['formatted']}" in lines
    assert "  check wrote + {'notes': ['checked']}" in lines
    assert "  state .notes[0]: 'formatted' → 'checked'" in lines
    assert lines[-3:] == ["final state:", "  .notes[0]: 'formatted' → 'checked'",
                          "  .notes[1]: + 'formatted'"]  # fmt: skip


def test_a_replay_from_a_checkpoint_is_compared_from_that_step(server, saver):
    graph = recorded(server, saver)
    edited = build(server, saver, shout=True)
    history = list(graph.get_state_history({"configurable": {"thread_id": "t"}}))
    after_ask = next(s for s in history if s.next == ("format",))
    report = replay_from(edited, "t", after_ask.config["configurable"]["checkpoint_id"], "r")
    assert report.error is None and report.decisions == []  # the model ran before the copy
    diff = diff_threads(graph, "t", "r", new_graph=edited)
    assert [s.step for s in diff.steps] == [1, 2]
    assert diff.lines()[-2:] == ["  format wrote .answer: 'five' → 'FIVE'",
                                 "  state .answer: 'five' → 'FIVE'"]  # fmt: skip


def test_a_replay_stopped_at_a_changed_call_shows_the_step_it_did_not_finish(server, saver):
    graph = recorded(server, saver)
    edited = build(server, saver, prompt="Be brief.")
    report = replay_thread(edited, "t", "r")
    assert type(report.error).__name__ == "ReplayMismatch"
    lines = diff_threads(graph, "t", "r", new_graph=edited).lines()
    assert lines[1:] == [
        "path old: __start__ → ask → format",
        "path new: __start__ → ask",
        "step 1: tasks ask | ask (did not finish)",
        "step 2: tasks format | (no such step)",
    ]
