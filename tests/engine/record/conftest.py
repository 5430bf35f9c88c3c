"""An agent on the real langchain-openai client against the local OpenAI-compatible server,
with its checkpoints (and recordings) in a SQLite file."""

from __future__ import annotations

import pytest
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI

from engine.agents import create_agent
from engine.checkpoint.sqlite import SqliteSaver
from engine.record import RecordingStore, record
from tests.openai_server import OpenAIServer

KEY = "sk-record-secret-7c1d"
QUESTION = {"messages": [{"role": "user", "content": "2+3?"}]}


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@pytest.fixture
def server():
    with OpenAIServer(api_key=KEY) as s:
        yield s


@pytest.fixture
def saver(tmp_path):
    with SqliteSaver.from_conn_string(str(tmp_path / "threads.db")) as s:
        yield s


def agent(server, saver, **kwargs):
    model = ChatOpenAI(model="gpt-test", base_url=server.base_url, api_key=KEY, max_retries=0)
    return create_agent(model, [kwargs.pop("tool", add)], checkpointer=saver, **kwargs)


def recorded_run(server, saver, thread="t", **kwargs):
    """One recorded run: the model asks for add(2, 3), then answers."""
    server.reply(tool_calls=[("add", {"a": 2, "b": 3})])
    server.reply("The sum is 5.")
    graph = agent(server, saver, **kwargs)
    config = {"configurable": {"thread_id": thread}}
    record(config, RecordingStore.for_saver(saver))
    return graph, graph.invoke(QUESTION, config)


def contents(values):
    return [(m.type, m.content) for m in values["messages"]]
