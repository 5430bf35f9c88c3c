"""Recording: every chat-model and tool call of a run, in the thread's SQLite file."""

from __future__ import annotations

import json
import sqlite3

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from engine.checkpoint.memory import InMemorySaver
from engine.record import RecordingStore, codec, record
from tests.engine.record.conftest import KEY, QUESTION, agent, recorded_run


def test_calls_are_recorded_with_node_task_step_and_index(server, saver):
    _, result = recorded_run(server, saver)
    store = RecordingStore.for_saver(saver)
    calls = store.calls("t")
    assert [(c.kind, c.node, c.step, c.call_index, c.served) for c in calls] == [
        ("model", "model", 1, 0, "live"),
        ("tool", "tools", 2, 0, "live"),
        ("model", "model", 3, 0, "live"),
    ]
    assert all(c.task_id and c.checkpoint_id for c in calls)
    assert [c.checkpoint_id for c in calls] == sorted(c.checkpoint_id for c in calls)
    first, tool, last = (codec.loads(c.output) for c in calls)
    assert isinstance(first, AIMessage) and first.tool_calls[0]["args"] == {"a": 2, "b": 3}
    assert isinstance(tool, ToolMessage) and tool.content == "5"
    assert last.content == "The sum is 5." == result["messages"][-1].content
    assert json.loads(calls[1].input) == {"tool": "add", "args": {"a": 2, "b": 3}}
    assert json.loads(calls[2].input)["messages"][-1] == {"type": "tool", "content": "5",
                                                          "tool_call_id": "call_0", "name": "add"}  # fmt: skip
    [run] = store.runs("t")
    assert (run.seq, json.loads(run.input)) == (0, QUESTION) and run.started < calls[
        0
    ].checkpoint_id


def test_recordings_sit_beside_the_checkpoints_and_hold_no_key(server, saver, tmp_path):
    recorded_run(server, saver)
    path = tmp_path / "threads.db"
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"checkpoints", "record_runs", "record_calls"} <= tables
        assert conn.execute("SELECT COUNT(*) FROM record_calls").fetchone() == (3,)
    assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in server.requests)
    data = b"".join(p.read_bytes() for p in tmp_path.glob("threads.db*"))
    assert KEY.encode() not in data


def test_a_second_run_on_the_thread_continues_the_numbering(server, saver):
    graph, _ = recorded_run(server, saver)
    recorded_run(server, saver)  # a second question on thread t
    store = RecordingStore.for_saver(saver)
    runs, calls = store.runs("t"), store.calls("t")
    assert [r.seq for r in runs] == [0, 1] and runs[1].started > calls[2].checkpoint_id
    assert [c.seq for c in calls] == list(range(6))
    assert {c.run_id for c in calls[3:]} == {runs[1].run_id}


def test_a_failing_call_is_recorded_with_its_error(server, saver):
    server.fail(500)
    graph = agent(server, saver)
    config = {"configurable": {"thread_id": "f"}}
    record(config, RecordingStore.for_saver(saver))
    with pytest.raises(Exception, match="Error code: 500"):
        graph.invoke(QUESTION, config)
    [call] = RecordingStore.for_saver(saver).calls("f")
    assert call.output is None and "Error code: 500" in call.error


def test_an_in_memory_saver_gets_one_store_in_memory():
    saver = InMemorySaver()
    assert RecordingStore.for_saver(saver) is RecordingStore.for_saver(saver)
    assert RecordingStore.for_saver(saver).path == ":memory:"


def test_decoding_a_recording_imports_nothing():
    crafted = {"lc": 1, "type": "constructor", "id": ["os", "system"], "kwargs": {"x": "rm"}}
    assert codec.decode(crafted) == crafted  # not a message dict: stays data
    assert codec.decode({"type": "os.system", "data": {"content": "x"}}) == {
        "type": "os.system", "data": {"content": "x"}}  # fmt: skip
    assert codec.decode({"__repr__": "<object at 0x1>"}) == "<object at 0x1>"
    message = codec.decode({"type": "ai", "data": {"content": "hi"}})
    assert isinstance(message, AIMessage) and message.content == "hi"


def test_keys_that_name_a_secret_are_not_encoded():
    value = {"api_key": KEY, "headers": {"Authorization": "Bearer x"}, "model": "gpt-test",
             "openai_api_key": KEY, "client_secret": "s", "password": "p", "access_token": "t",
             "max_tokens": 5, "token_usage": {"total_tokens": 15}, "page_token": "next"}  # fmt: skip
    assert codec.encode(value) == {"headers": {}, "model": "gpt-test", "max_tokens": 5,
                                   "token_usage": {"total_tokens": 15}, "page_token": "next"}  # fmt: skip


def test_a_message_comes_back_whole():
    message = AIMessage("hi", id="m1", tool_calls=[{"name": "add", "args": {"a": 1}, "id": "c"}],
                        usage_metadata={"input_tokens": 3, "output_tokens": 2, "total_tokens": 5},
                        response_metadata={"token_usage": {"total_tokens": 5}})  # fmt: skip
    assert codec.loads(codec.dumps(message)) == message
