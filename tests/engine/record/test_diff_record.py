"""The Recorder is a plain LangChain callback handler and model replay goes through LangChain's
LLM cache: on real langgraph and on the engine they record the same calls (kind, node path,
step, index in the task, input, output) of one graph, a model node and a ToolNode on the real
langchain-openai client against the local server, and replay it to the same messages."""

from __future__ import annotations

import json

from langchain_core.tools import tool
from langchain_openai import ChatOpenAI

from engine.record import Recorder, RecordingStore, codec, replay_thread
from tests.engine.record.conftest import KEY
from tests.oracle import Backend


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def scenario(b: Backend, base_url: str) -> list:
    model = ChatOpenAI(model="gpt-test", base_url=base_url, api_key=KEY, max_retries=0)
    bound = model.bind_tools([add])
    prebuilt = b.mod("prebuilt")

    def ask(state):
        return {"messages": [bound.invoke(state["messages"])]}

    builder = b.graph.StateGraph(b.graph.MessagesState)
    builder.add_node("ask", ask)
    builder.add_node("tools", prebuilt.ToolNode([add]))
    builder.add_edge(b.graph.START, "ask")
    builder.add_conditional_edges("ask", prebuilt.tools_condition)
    builder.add_edge("tools", "ask")
    graph = builder.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
    store = RecordingStore()
    config = {"configurable": {"thread_id": "t"}, "callbacks": [Recorder(store)]}
    graph.invoke({"messages": [("user", "2+3?")]}, config)
    rows = []
    for c in store.calls("t"):
        output = codec.loads(c.output)
        rows.append((c.kind, c.node, c.step, c.call_index, json.loads(c.input),
                     codec.message_essence(output)))  # fmt: skip
    [run] = store.runs("t")
    # replayed with the model calls served (tools run live: the stand-in is the engine's)
    report = replay_thread(graph, "t", "r", serve=("model",), store=store)
    replayed = graph.get_state({"configurable": {"thread_id": "r"}}).values["messages"]
    return [json.loads(run.input), rows, report.error, [d.status for d in report.decisions],
            [codec.message_essence(m) for m in replayed]]  # fmt: skip


def test_langgraph_and_the_engine_record_and_replay_the_same_calls(server):
    results = []
    for prefix in ("langgraph", "engine"):
        server.reply(tool_calls=[("add", {"a": 2, "b": 3})])
        server.reply("The sum is 5.")
        results.append(scenario(Backend(prefix), server.base_url))
    ours, theirs = results[1], results[0]
    assert ours == theirs
    assert ours[2:4] == [None, ["recorded", "recorded"]]
    assert len(server.requests) == 4  # the replays asked the server nothing
    assert [row[:4] for row in ours[1]] == [
        ("model", "ask", 1, 0), ("tool", "tools", 2, 0), ("model", "ask", 3, 0)]  # fmt: skip
