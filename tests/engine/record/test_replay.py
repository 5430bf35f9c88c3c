"""Replay: a recorded thread run again with the recorded outputs served instead of new calls,
matched by node, call order and input hash; a changed input fails, goes live or is served
anyway, as the caller chooses."""

from __future__ import annotations

import json

import pytest

from engine.record import (
    RecordedCall,
    RecordingStore,
    ReplayMismatch,
    ReplaySession,
    codec,
    record,
    replay_from,
    replay_thread,
)
from tests.engine.record.conftest import agent, contents, recorded_run
from tests.openai_server import OpenAIServer


def state(graph, thread):
    return graph.get_state({"configurable": {"thread_id": thread}})


def test_a_recorded_thread_replays_with_the_server_stopped(server, saver):
    graph, result = recorded_run(server, saver)
    asked = len(server.requests)
    server.stop()
    report = replay_thread(graph, "t", "t-replay")
    assert report.error is None, report.error
    assert contents(state(graph, "t-replay").values) == contents(result)
    assert [d.status for d in report.decisions] == ["recorded"] * 3 and report.unused == []
    assert len(server.requests) == asked  # no new call reached the server
    served = RecordingStore.for_saver(saver).calls("t-replay")
    assert [(c.kind, c.served) for c in served] == [
        ("model", "recorded"), ("tool", "recorded"), ("model", "recorded")]  # fmt: skip
    runs = RecordingStore.for_saver(saver).runs("t-replay")
    assert [r.replay_of for r in runs] == ["t"]


def test_a_replay_of_a_replay_is_the_same_again(server, saver):
    graph, result = recorded_run(server, saver)
    server.stop()
    assert replay_thread(graph, "t", "r1").error is None
    assert replay_thread(graph, "r1", "r2").error is None
    assert contents(state(graph, "r2").values) == contents(result)


def test_a_changed_input_fails_by_default_and_shows_what_changed(server, saver):
    recorded_run(server, saver)
    changed = agent(server, saver, system_prompt="Answer in French.")
    report = replay_thread(changed, "t", "r")
    assert isinstance(report.error, ReplayMismatch)
    decision = report.error.decision
    assert (decision.kind, decision.node, decision.index, decision.status) == (
        "model", "model", 0, "changed:fail")  # fmt: skip
    text = str(report.error)
    assert "the 1st model call of node 'model' has another input than recorded" in text
    assert '+   "content": "Answer in French.",\n+   "type": "system"' in text


def test_a_changed_input_served_from_the_recording_anyway(server, saver):
    _, result = recorded_run(server, saver)
    asked = len(server.requests)
    changed = agent(server, saver, system_prompt="Answer in French.")
    report = replay_thread(changed, "t", "r", on_change="recorded")
    assert report.error is None
    assert [d.status for d in report.decisions] == [
        "changed:recorded",
        "recorded",
        "changed:recorded",
    ]
    assert contents(state(changed, "r").values)[1:] == contents(result)[1:]  # system prompt first
    assert len(server.requests) == asked


def test_a_changed_input_goes_live_to_the_model(server, saver):
    recorded_run(server, saver)
    server.reply("Cinq.")  # the live answer to the changed first call
    changed = agent(server, saver, system_prompt="Answer in French.")
    report = replay_thread(changed, "t", "r", on_change="live")
    assert report.error is None
    assert [d.status for d in report.decisions] == ["changed:live"]
    assert state(changed, "r").values["messages"][-1].content == "Cinq."
    assert server.requests[-1].body["messages"][0]["content"] == "Answer in French."
    assert len(report.unused) == 2  # the tool call and the last answer were never asked for


def test_replay_from_a_checkpoint_serves_only_the_calls_after_it(server, saver):
    graph, result = recorded_run(server, saver)
    history = list(graph.get_state_history({"configurable": {"thread_id": "t"}}))
    after_tools = next(s for s in history if s.next == ("model",) and s.metadata["step"] == 2)
    server.stop()
    report = replay_from(graph, "t", after_tools.config["configurable"]["checkpoint_id"], "r")
    assert report.error is None
    assert [(d.kind, d.status) for d in report.decisions] == [("model", "recorded")]
    assert contents(state(graph, "r").values) == contents(result)
    steps = [
        s.metadata["step"] for s in graph.get_state_history({"configurable": {"thread_id": "r"}})
    ]
    assert steps == [3, 2]


def test_a_call_with_nothing_recorded_fails_unless_live(server, saver):
    recorded_run(server, saver)
    store = RecordingStore.for_saver(saver)
    first = store.calls("t")[0]
    session = ReplaySession([first], "fail")  # only the first call
    recorded_input = codec.loads(first.input)
    assert session.answer("model", "model", recorded_input)[0].status == "recorded"
    essence = codec.model_input([])
    with pytest.raises(ReplayMismatch, match="2nd model call of node 'model' was not in the"):
        session.answer("model", "model", essence)
    assert ReplaySession([], "live").answer("model", "m", essence)[0].status == "unrecorded:live"


def _call(seq, node, essence, output):
    return RecordedCall("t", seq, "run", "tool", node, None, 1, 0, None,
                        codec.input_hash(essence), codec.dumps(essence), codec.dumps(output))  # fmt: skip


def test_parallel_calls_of_a_node_match_by_hash_in_any_order():
    a, b = codec.tool_input("add", {"a": 1}), codec.tool_input("add", {"a": 2})
    session = ReplaySession([_call(0, "tools", a, "one"), _call(1, "tools", b, "two")])
    assert session.answer("tool", "tools", b)[1] == "two"
    assert session.answer("tool", "tools", a)[1] == "one"
    assert [d.status for d in session.decisions] == ["recorded", "recorded"]


def test_an_unknown_policy_is_refused():
    with pytest.raises(ValueError, match="on_change must be one of fail, live, recorded"):
        ReplaySession([], "maybe")


def test_a_server_started_again_is_not_needed_for_a_second_replay(saver):
    with OpenAIServer(api_key="sk-record-secret-7c1d") as other:
        graph, result = recorded_run(other, saver, thread="x")
    assert replay_thread(graph, "x", "x2").error is None
    assert contents(state(graph, "x2").values) == contents(result)


def test_a_thread_with_an_interrupt_replays_its_resume_too(server, saver):
    from langchain_openai import ChatOpenAI

    from engine.graph import END, START, MessagesState, StateGraph
    from engine.types import Command, interrupt
    from tests.engine.record.conftest import KEY

    model = ChatOpenAI(model="gpt-test", base_url=server.base_url, api_key=KEY, max_retries=0)

    def ask(state):
        return {"messages": [model.invoke(state["messages"])]}

    def review(state):
        verdict = interrupt({"answer": state["messages"][-1].content})
        return {"messages": [{"role": "user", "content": f"reviewer: {verdict}"}]}

    builder = StateGraph(MessagesState)
    for name, fn in (("ask", ask), ("review", review), ("again", ask)):
        builder.add_node(name, fn)
    builder.add_edge(START, "ask")
    builder.add_edge("ask", "review")
    builder.add_edge("review", "again")
    builder.add_edge("again", END)
    graph = builder.compile(checkpointer=saver)
    server.reply("five")
    server.reply("five, approved")
    config = {"configurable": {"thread_id": "h"}}
    store = RecordingStore.for_saver(saver)
    record(config, store)
    assert "__interrupt__" in graph.invoke({"messages": [("user", "2+3?")]}, config)
    record(config := {"configurable": {"thread_id": "h"}}, store)
    final = graph.invoke(Command(resume="ok"), config)
    server.stop()
    runs = store.runs("h")
    assert [json.loads(r.input) for r in runs][1] == {"__command__": {"resume": "ok"}}
    report = replay_thread(graph, "h", "h2")
    assert report.error is None and [d.status for d in report.decisions] == ["recorded"] * 2
    assert contents(state(graph, "h2").values) == contents(final)
    assert contents(final)[-2] == ("human", "reviewer: ok")


def test_a_graph_with_async_nodes_replays_through_ainvoke(server, saver):
    import asyncio

    from langchain_openai import ChatOpenAI

    from engine.graph import START, MessagesState, StateGraph
    from engine.record import plan_thread
    from tests.engine.record.conftest import KEY

    model = ChatOpenAI(model="gpt-test", base_url=server.base_url, api_key=KEY, max_retries=0)

    async def ask(state):
        return {"messages": [await model.ainvoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("ask", ask)
    builder.add_edge(START, "ask")
    graph = builder.compile(checkpointer=saver)
    server.reply("hello there")
    config = {"configurable": {"thread_id": "a"}}
    record(config, RecordingStore.for_saver(saver))
    result = asyncio.run(graph.ainvoke({"messages": [("user", "hi")]}, config))
    server.stop()
    report = asyncio.run(plan_thread(graph, "a", "a2").arun())
    assert report.error is None and [d.status for d in report.decisions] == ["recorded"]
    assert contents(state(graph, "a2").values) == contents(result)
