"""Differential tests: a workflow's stream gives each @task call's update when the call ends,
while the entrypoint still runs (not all at once when the workflow returns), and announces
every call in its "tasks" and "debug" parts, one answered from the cache or from a saved
attempt too; the messages a call makes stream at its caller's level, under the call's name."""

import threading

import pytest
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def test_a_calls_update_reaches_the_caller_before_the_workflow_ends():
    def scenario(b):
        func = b.func
        acked = threading.Event()
        heard: list[bool] = []

        @func.task()
        def double(x: int) -> int:
            return 2 * x

        @func.entrypoint()
        def flow(n: int) -> int:
            first = double(n).result()
            heard.append(acked.wait(5))  # the caller has seen the first call's update
            return double(first).result()

        chunks = []
        for chunk in flow.stream(3):
            chunks.append(chunk)
            if "double" in chunk:
                acked.set()
        return chunks, heard

    assert_same(scenario)


def _announced(flow, inp, config=None) -> list:
    """The "tasks" and "debug" parts of one stream, their ids dropped."""
    parts = []
    for mode, chunk in flow.stream(inp, config, stream_mode=["tasks", "debug"]):
        if mode == "debug":
            chunk = (chunk["type"], chunk["payload"].get("name"))
        else:
            chunk = {k: v for k, v in chunk.items() if k != "id"}
        parts.append((mode, chunk))
    return parts


def test_a_call_answered_from_the_cache_is_still_announced():
    def scenario(b):
        func = b.func

        @func.task(cache_policy=b.types.CachePolicy())
        def triple(x: int) -> int:
            return 3 * x

        @func.entrypoint(cache=b.mod("cache.memory").InMemoryCache())
        def flow(n: int) -> int:
            return triple(n).result()

        # (one call a run: whether a second call in the same run finds the first one's writes
        # cached yet is a race on langgraph; the next run always does)
        return _announced(flow, 2), _announced(flow, 2)

    assert_same(scenario)


def test_a_call_answered_from_a_saved_attempt_is_still_announced_on_resume():
    def scenario(b):
        func = b.func

        @func.task()
        def triple(x: int) -> int:
            return 3 * x

        @func.entrypoint(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        def flow(n: int) -> list:
            return [triple(n).result(), b.types.interrupt("go on?")]

        config = {"configurable": {"thread_id": "t"}}
        first = _announced(flow, 2, config)
        return first[:4], _announced(flow, b.types.Command(resume="yes"), config)

    assert_same(scenario)


def test_messages_made_in_a_call_stream_at_the_workflows_level_under_the_calls_name():
    """A chat model answering inside a call, and a message a call returns, reach a messages
    stream without subgraphs, tagged with the call; a message handed to a call as an argument
    counts as seen, so the workflow returning it does not replay it."""

    def scenario(b):
        func = b.func
        model = GenericFakeChatModel(messages=iter(["from the model"]))

        @func.task()
        def ask(history: list) -> AIMessage:
            return model.invoke(history)

        @func.task()
        def note(topic: str) -> list:
            return [AIMessage(content=f"a note on {topic}", id="note-1")]

        @func.entrypoint()
        def flow(topic: str) -> dict:
            history = [HumanMessage(content=topic, id="question-1")]
            answer = ask(history).result()
            return {"messages": [*history, answer, *note(topic).result()]}

        return [
            (type(message).__name__, message.content, meta["langgraph_node"])
            for message, meta in flow.stream("cats", stream_mode="messages")
        ]

    parts = assert_same(scenario)
    said = "".join(text for kind, text, node in parts if node == "ask")
    assert said == "from the model"  # in tokens: the fake model streams them
    assert parts[-1] == ("AIMessage", "a note on cats", "note")
    assert {node for *_, node in parts} == {"ask", "note"}
