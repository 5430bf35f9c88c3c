"""The real langchain-openai client against the local server, through the engine and langgraph:
a tool-call round trip, tokens streamed with langgraph's metadata, and each provider error."""

from __future__ import annotations

import importlib

import openai
import pytest
from langchain_core.messages import HumanMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI

from tests.openai_server import refused_url
from tests.oracle import PREFIXES, normalize


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def _model(server, **kw):
    return ChatOpenAI(model=kw.pop("model", "gpt-test"), base_url=kw.pop("base_url", server.base_url),
                      api_key=kw.pop("api_key", "sk-test"), max_retries=0, **kw)  # fmt: skip


def _agent(prefix, model, **kw):
    agents = importlib.import_module(
        "langchain.agents" if prefix == "langgraph" else "engine.agents"
    )
    return agents.create_agent(model, tools=[add], **kw)


@pytest.mark.parametrize("prefix", PREFIXES)
def test_tool_call_round_trip(openai_server, prefix):
    openai_server.reply(tool_calls=[("add", {"a": 2, "b": 3})])
    openai_server.reply("The sum is 5.")
    out = _agent(prefix, _model(openai_server)).invoke({"messages": [HumanMessage("2+3?")]})
    assert [(m.type, m.content) for m in out["messages"]] == [
        ("human", "2+3?"),
        ("ai", ""),
        ("tool", "5"),
        ("ai", "The sum is 5."),
    ]
    # the second request carried the tool's result back, under the call's id
    second = openai_server.requests[-1].body["messages"]
    assert second[-1] == {"content": "5", "role": "tool", "tool_call_id": "call_0"}
    assert openai_server.requests[0].headers["authorization"] == "Bearer sk-test"


def _stream_rows(prefix, server):
    server.reply(tool_calls=[("add", {"a": 2, "b": 3})])
    server.reply("The sum is 5.")
    agent = _agent(prefix, _model(server))
    return [
        (type(m).__name__, m.content, getattr(m, "tool_call_chunks", None), meta)
        for m, meta in agent.stream(
            {"messages": [HumanMessage("2+3?", id="h1")]}, stream_mode="messages"
        )
    ]


def test_streamed_tokens_equal_langgraphs(openai_server):
    lg, eng = (normalize(_stream_rows(p, openai_server)) for p in PREFIXES)
    assert eng == lg
    tokens = [
        c for t, c, _, meta in eng if t == "AIMessageChunk" and meta["langgraph_node"] == "model"
    ]
    assert "".join(tokens) == "The sum is 5." and "sum" in tokens
    assert eng[0][3]["ls_provider"] == "openai" and eng[0][3]["ls_model_name"] == "gpt-test"


@pytest.mark.parametrize(
    ("setup", "error", "text"),
    [
        (
            lambda s: {"api_key": "sk-wrong-key-1234"},
            openai.AuthenticationError,
            "Incorrect API key provided: sk-***1234",
        ),
        (
            lambda s: {"model": "gpt-missing"},
            openai.NotFoundError,
            "The model `gpt-missing` does not exist",
        ),
        (lambda s: s.fail(429) or {}, openai.RateLimitError, "Rate limit reached"),
        (
            lambda s: s.reply("late", delay=1.0) or {"timeout": 0.2},
            openai.APITimeoutError,
            "Request timed out.",
        ),
        (lambda s: {"base_url": refused_url()}, openai.APIConnectionError, "Connection error."),
    ],
    ids=["401", "404-model", "429", "timeout", "connection-refused"],
)
@pytest.mark.parametrize("prefix", PREFIXES)
def test_provider_errors_reach_the_caller_as_langgraph(openai_server, prefix, setup, error, text):
    model = _model(openai_server, **setup(openai_server))
    with pytest.raises(error) as info:
        _agent(prefix, model).invoke({"messages": [HumanMessage("hi")]})
    assert text in str(info.value)
    assert "During task with name 'model'" in "".join(getattr(info.value, "__notes__", []))


@pytest.mark.parametrize("prefix", PREFIXES)
def test_rate_limit_retried_by_the_model_retry_middleware(openai_server, prefix):
    mw = importlib.import_module(
        "langchain.agents.middleware" if prefix == "langgraph" else "engine.agents.middleware"
    )
    openai_server.fail(429, times=2)
    openai_server.reply("finally")
    retry = mw.ModelRetryMiddleware(max_retries=2, initial_delay=0.01, jitter=False)
    out = _agent(prefix, _model(openai_server), middleware=[retry]).invoke(
        {"messages": [HumanMessage("hi")]}
    )
    assert out["messages"][-1].content == "finally"
    assert len(openai_server.requests) == 3
