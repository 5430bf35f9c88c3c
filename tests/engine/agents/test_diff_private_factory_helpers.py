"""langchain.agents.factory's private helpers that langchain's own tests (and packages built on
it) import: the same names on engine.agents.factory, behaving the same."""

import importlib

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from tests.engine.agents.helpers import add, final_answer, same

pytestmark = pytest.mark.differential


def _factory(b):
    return importlib.import_module(
        "langchain.agents.factory" if b.prefix == "langgraph" else "engine.agents.factory"
    )


def _call(name, id_):
    return {"name": name, "args": {}, "id": id_, "type": "tool_call"}


def test_last_ai_and_tool_messages(agent_backend):
    def scenario(b):
        fetch = _factory(b)._fetch_last_ai_and_tool_messages
        history = [
            HumanMessage("q"),
            AIMessage("first", tool_calls=[_call("add", "1")]),
            ToolMessage("r1", tool_call_id="1"),
            AIMessage("second", tool_calls=[_call("add", "2")]),
            ToolMessage("r2", tool_call_id="2"),
            HumanMessage("between"),
        ]
        out = []
        for messages in (history, history[:1], []):
            ai, tools = fetch(messages)
            out.append((ai.content if ai else None, [t.content for t in tools]))
        return out

    assert same(agent_backend, scenario) == [("second", ["r2"]), (None, []), (None, [])]


def test_can_jump_to_reads_hook_config_of_overridden_hooks(agent_backend):
    def scenario(b):
        mw = b.middleware

        class Jumps(mw.AgentMiddleware):
            @mw.hook_config(can_jump_to=["end", "tools"])
            def before_model(self, state, runtime):
                return None

            def after_model(self, state, runtime):
                return None

        get = _factory(b)._get_can_jump_to
        return [get(Jumps(), hook) for hook in ("before_model", "after_model", "before_agent")]

    assert same(agent_backend, scenario) == [["end", "tools"], [], []]


def test_tools_to_model_edge(agent_backend):
    def scenario(b):
        tool_node = b.mod("prebuilt").ToolNode([add, final_answer])
        edge = _factory(b)._make_tools_to_model_edge(
            tool_node=tool_node,
            model_destination="model",
            structured_output_tools={},
            end_destination="__end__",
        )
        direct = AIMessage("", tool_calls=[_call("final_answer", "a")])
        mixed = AIMessage("", tool_calls=[_call("final_answer", "a"), _call("add", "b")])
        return [
            edge({"messages": [direct, ToolMessage("x", tool_call_id="a", name="final_answer")]}),
            edge(
                {
                    "messages": [
                        mixed,
                        ToolMessage("x", tool_call_id="a", name="final_answer"),
                        ToolMessage("3", tool_call_id="b", name="add"),
                    ]
                }
            ),
            edge({"messages": [HumanMessage("no ai")]}),
        ]

    assert same(agent_backend, scenario) == ["__end__", "model", "model"]


def test_chain_and_provider_strategy_helpers(agent_backend):
    def scenario(b):
        factory = _factory(b)
        return (
            factory._chain_model_call_handlers([]),
            factory._chain_async_model_call_handlers([]),
            [
                factory._supports_provider_strategy(n)
                for n in ("gpt-5", "gpt-5.4-pro", "claude-opus-4-1", "grok-4")
            ],
        )

    assert same(agent_backend, scenario) == (None, None, [True, False, False, True])
