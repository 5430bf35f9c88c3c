"""Differential tests: create_agent's graph shape, loop, tools node and tool errors.

Each test runs its scenario on langchain.agents (+langgraph) and on engine.agents (+engine) and
compares normalised results (message ids that langchain generates at random are dropped).
"""

import inspect

import pytest
from langchain_core.messages import AIMessage, ToolMessage

from engine.agents.scripted import ScriptedChatModel
from tests.engine.agents.helpers import (
    add,
    ai,
    dump,
    explode,
    fake,
    final_answer,
    graph_shape,
    same,
    shout,
)

pytestmark = pytest.mark.differential

USER = {"messages": [{"role": "user", "content": "hi"}]}


def _messages(agent, inp=USER, **kw):
    return dump(agent.invoke(inp, **kw)["messages"])


def test_graph_shape_model_only(agent_backend):
    shape = same(agent_backend, lambda b: graph_shape(b.agents.create_agent(fake(ai("x")), [])))
    assert shape == (
        ["__end__", "__start__", "model"],
        [("__start__", "model", False), ("model", "__end__", False)],
    )


def test_signature_reads_as_langchains(agent_backend):
    """A lesson printing `inspect.signature(create_agent)` (its parameters, defaults and return
    annotation) read `-> Any` on the engine, where langchain names the compiled graph's types."""

    def signature(b):
        sig = inspect.signature(b.agents.create_agent)
        params = [
            (p.name, p.kind.name, repr(p.default), str(p.annotation))
            for p in sig.parameters.values()
        ]
        return params, str(sig.return_annotation)

    params, returned = same(agent_backend, signature)
    assert returned.startswith("CompiledStateGraph[") and params[0][3] == "str | BaseChatModel"


def test_graph_shape_with_tools(agent_backend):
    nodes, edges = same(
        agent_backend, lambda b: graph_shape(b.agents.create_agent(fake(ai("x")), [add]))
    )
    assert nodes == ["__end__", "__start__", "model", "tools"]
    assert ("model", "tools", True) in edges and ("tools", "model", True) in edges


def test_graph_shape_return_direct_tool(agent_backend):
    nodes, edges = same(
        agent_backend,
        lambda b: graph_shape(b.agents.create_agent(fake(ai("x")), [add, final_answer])),
    )
    assert ("tools", "__end__", True) in edges


def test_channels_and_schemas(agent_backend):
    def scenario(b):
        agent = b.agents.create_agent(fake(ai("x")), [add])
        channels = sorted(
            k for k in agent.channels if not k.startswith("branch:") and k != "__start__"
        )
        return channels, sorted(agent.builder.nodes), agent.config.get("recursion_limit")

    channels, nodes, limit = same(agent_backend, scenario)
    assert {"messages", "jump_to", "structured_response"} <= set(channels)
    assert limit == 9999


def test_loop_with_parallel_tool_calls(agent_backend):
    def scenario(b):
        model = fake(
            ai("", ("add", {"a": 1, "b": 2}, "c1"), ("shout", {"text": "hey"}, "c2")), ai("done")
        )
        return _messages(b.agents.create_agent(model, [add, shout], system_prompt="be brief"))

    msgs = same(agent_backend, scenario)
    assert [m[0] for m in msgs] == ["human", "ai", "tool", "tool", "ai"]
    assert msgs[2][1:4] == ("3", [], "c1") and msgs[3][1] == "HEY"


def test_updates_stream_one_send_per_tool_call(agent_backend):
    def scenario(b):
        model = fake(
            ai("", ("add", {"a": 1, "b": 2}, "c1"), ("add", {"a": 5, "b": 5}, "c2")), ai("done")
        )
        agent = b.agents.create_agent(model, [add])
        chunks = list(agent.stream(USER, stream_mode="updates"))
        # the two Send tasks run in parallel: their chunks come in completion order
        tool_chunks = sorted(dump(c["tools"]["messages"]) for c in chunks if "tools" in c)
        return [list(c) for c in chunks], tool_chunks

    nodes, tool_chunks = same(agent_backend, scenario)
    assert nodes == [["model"], ["tools"], ["tools"], ["model"]]
    assert [t[0][1] for t in tool_chunks] == ["10", "3"]


def test_return_direct_ends_the_loop(agent_backend):
    def scenario(b):
        model = fake(ai("", ("final_answer", {"answer": "42"}, "c1")), ai("never"))
        return _messages(b.agents.create_agent(model, [add, final_answer]))

    msgs = same(agent_backend, scenario)
    assert msgs[-1][:2] == ("tool", "ANSWER: 42")


def test_return_direct_mixed_with_normal_tool_continues(agent_backend):
    def scenario(b):
        model = fake(
            ai("", ("final_answer", {"answer": "42"}, "c1"), ("add", {"a": 1, "b": 1}, "c2")),
            ai("after"),
        )
        return _messages(b.agents.create_agent(model, [add, final_answer]))

    assert same(agent_backend, scenario)[-1][:2] == ("ai", "after")


def test_unknown_tool_name_is_model_visible_error(agent_backend):
    def scenario(b):
        model = fake(ai("", ("nope", {"x": 1}, "c1")), ai("sorry"))
        return _messages(b.agents.create_agent(model, [add, shout]))

    msgs = same(agent_backend, scenario)
    assert msgs[2] == (
        "tool",
        "Error: nope is not a valid tool, try one of [add, shout].",
        [],
        "c1",
        "nope",
        "error",
    )


def test_malformed_tool_args_become_error_message(agent_backend):
    def scenario(b):
        model = fake(ai("", ("add", {"a": "x"}, "c1")), ai("fixed"))
        return _messages(b.agents.create_agent(model, [add]))

    msgs = same(agent_backend, scenario)
    assert msgs[2][0] == "tool" and msgs[2][5] == "error"
    assert msgs[2][1].startswith("Error invoking tool 'add' with kwargs {'a': 'x'} with error:")


def test_invalid_tool_call_json_is_answered_before_next_model_call(agent_backend):
    def scenario(b):
        broken = AIMessage(
            content="",
            invalid_tool_calls=[
                {
                    "name": "add",
                    "args": "{not json",
                    "id": "bad1",
                    "error": "x",
                    "type": "invalid_tool_call",
                }
            ],
        )
        model = fake(broken, ai("recovered"))
        agent = b.agents.create_agent(
            model, [add], checkpointer=b.mod("checkpoint.memory").InMemorySaver()
        )
        cfg = {"configurable": {"thread_id": "t"}}
        first = _messages(agent, USER, config=cfg)
        second = _messages(agent, {"messages": [{"role": "user", "content": "again"}]}, config=cfg)
        return first, second

    first, second = same(agent_backend, scenario)
    assert first[-1][:2] == ("ai", "")  # no valid tool call: the loop ends
    assert second[2] == (
        "tool",
        "Tool call add with id bad1 could not be executed - arguments were malformed or truncated.",
        [],
        "bad1",
        "add",
        "error",
    )
    assert second[-1][:2] == ("ai", "recovered")


def test_tool_exception_propagates(agent_backend):
    def scenario(b):
        model = fake(ai("", ("explode", {"x": 1}, "c1")), ai("never"))
        return b.agents.create_agent(model, [explode]).invoke(USER)

    err = same(agent_backend, scenario)
    assert isinstance(err, RuntimeError) and str(err) == "boom 1"


def test_tool_exception_in_parallel_calls_propagates(agent_backend):
    def scenario(b):
        model = fake(
            ai("", ("explode", {"x": 2}, "c1"), ("add", {"a": 1, "b": 1}, "c2")), ai("never")
        )
        return b.agents.create_agent(model, [explode, add]).invoke(USER)

    assert isinstance(same(agent_backend, scenario), RuntimeError)


def test_tool_runtime_injection(agent_backend):
    def scenario(b):
        from langchain_core.tools import tool

        ToolRuntime = b.tools.ToolRuntime

        @tool
        def whoami(runtime: ToolRuntime) -> str:
            """Report what the runtime holds."""
            runtime.stream_writer({"tool": runtime.tool_call_id})
            return f"{runtime.tool_call_id}|{runtime.context}|{len(runtime.state['messages'])}|{runtime.store is not None}"

        model = fake(ai("", ("whoami", {}, "c1")), ai("ok"))
        store = b.mod("store.memory").InMemoryStore()
        agent = b.agents.create_agent(model, [whoami], store=store)
        custom = [c for m, c in agent.stream(USER, stream_mode=["custom"], context={"user": "u1"})]
        schema = whoami.tool_call_schema.model_json_schema()
        return custom, list(schema.get("properties", {}))

    custom, props = same(agent_backend, scenario)
    assert custom == [{"tool": "c1"}] and props == []


def test_tool_runtime_subscripted_by_its_context_alone(agent_backend):
    """`ToolRuntime[Ctx]` (the state type left to its default) and `ToolRuntime[Ctx, State]`
    both mark an injected runtime (issue 31)."""

    def scenario(b):
        from dataclasses import dataclass

        from langchain_core.tools import tool

        ToolRuntime = b.tools.ToolRuntime

        @dataclass
        class Ctx:
            user: str

        @tool
        def whoami(runtime: ToolRuntime[Ctx]) -> str:
            """Report the user."""
            return runtime.context.user

        @tool
        def count(runtime: ToolRuntime[Ctx, dict]) -> str:
            """Count the messages."""
            return str(len(runtime.state["messages"]))

        model = fake(ai("", ("whoami", {}, "c1"), ("count", {}, "c2")), ai("ok"))
        agent = b.agents.create_agent(model, [whoami, count], context_schema=Ctx)
        out = agent.invoke(USER, context=Ctx(user="ann"))
        return [m.content for m in out["messages"]], whoami.tool_call_schema.model_json_schema()

    contents, schema = same(agent_backend, scenario)
    assert contents[2:4] == ["ann", "2"] and schema.get("properties", {}) == {}


def test_tools_annotated_with_langchain_tools_injections(agent_backend):
    """A program takes ToolRuntime, InjectedState and InjectedStore from `langchain.tools`
    (langgraph's own classes) whatever agent it builds: the engine's agent fills them too, the
    runtime as the class the annotation names (else the tool's schema refuses it)."""

    def scenario(b):
        from typing import Annotated, Any

        from langchain.tools import InjectedState, InjectedStore, ToolRuntime, tool

        @tool
        def peek(
            q: str,
            msgs: Annotated[list, InjectedState("messages")],
            store: Annotated[Any, InjectedStore()],
            rt: ToolRuntime[dict],
        ) -> str:
            """Report what was injected."""
            return f"{q}|{len(msgs)}|{store is not None}|{rt.tool_call_id}|{type(rt).__name__}"

        model = fake(ai("", ("peek", {"q": "x"}, "c1")), ai("ok"))
        store = b.mod("store.memory").InMemoryStore()
        agent = b.agents.create_agent(model, [peek], store=store)
        return _messages(agent)

    msgs = same(agent_backend, scenario)
    assert msgs[2][1] == "x|2|True|c1|ToolRuntime"


def test_injected_state_and_store(agent_backend):
    def scenario(b):
        from typing import Annotated

        from langchain_core.tools import tool

        InjectedState, InjectedStore = b.tools.InjectedState, b.tools.InjectedStore

        @tool
        def count(
            q: str,
            messages: Annotated[list, InjectedState("messages")],
            store: Annotated[object, InjectedStore()],
        ) -> str:
            """Count messages."""
            return f"{q}:{len(messages)}:{type(store).__name__}"

        model = fake(ai("", ("count", {"q": "n"}, "c1")), ai("ok"))
        agent = b.agents.create_agent(model, [count], store=b.mod("store.memory").InMemoryStore())
        return _messages(agent)

    assert same(agent_backend, scenario)[2][1] == "n:2:InMemoryStore"


def test_tool_returning_command_updates_state(agent_backend):
    def scenario(b):
        from typing import Annotated

        from langchain_core.tools import InjectedToolCallId, tool

        Command = b.types.Command

        class State(b.agents.AgentState):
            city: str

        @tool
        def set_city(city: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
            """Remember the city."""
            return Command(
                update={"city": city, "messages": [ToolMessage("saved", tool_call_id=tool_call_id)]}
            )

        model = fake(ai("", ("set_city", {"city": "Oslo"}, "c1")), ai("ok"))
        out = b.agents.create_agent(model, [set_city], state_schema=State).invoke(USER)
        return out["city"], dump(out["messages"])

    city, msgs = same(agent_backend, scenario)
    assert city == "Oslo" and msgs[2][1:5] == ("saved", [], "c1", "set_city")


def test_tool_command_without_tool_message_is_error(agent_backend):
    def scenario(b):
        from langchain_core.tools import tool

        Command = b.types.Command

        @tool
        def bad() -> Command:
            """Forgets its ToolMessage."""
            return Command(update={"messages": []})

        model = fake(ai("", ("bad", {}, "c1")), ai("ok"))
        return b.agents.create_agent(model, [bad]).invoke(USER)

    assert isinstance(same(agent_backend, scenario), ValueError)


def test_name_sets_ai_message_name_and_metadata(agent_backend):
    def scenario(b):
        agent = b.agents.create_agent(fake(ai("x")), [], name="helper")
        return _messages(agent), agent.name, agent.config["metadata"]

    msgs, name, meta = same(agent_backend, scenario)
    assert msgs[-1][4] == "helper" and name == "helper"


def test_checkpointer_multi_turn(agent_backend):
    def scenario(b):
        saver = b.mod("checkpoint.memory").InMemorySaver()
        agent = b.agents.create_agent(fake(ai("one"), ai("two")), [add], checkpointer=saver)
        cfg = {"configurable": {"thread_id": "t"}}
        agent.invoke(USER, cfg)
        out = agent.invoke({"messages": [{"role": "user", "content": "again"}]}, cfg)
        return dump(out["messages"]), agent.get_state(cfg).next

    msgs, nxt = same(agent_backend, scenario)
    assert [m[1] for m in msgs] == ["hi", "one", "again", "two"] and nxt == ()


def test_interrupt_before_tools(agent_backend):
    def scenario(b):
        saver = b.mod("checkpoint.memory").InMemorySaver()
        model = fake(ai("", ("add", {"a": 1, "b": 2}, "c1")), ai("done"))
        agent = b.agents.create_agent(model, [add], checkpointer=saver, interrupt_before=["tools"])
        cfg = {"configurable": {"thread_id": "t"}}
        first = dump(agent.invoke(USER, cfg)["messages"])
        nxt = agent.get_state(cfg).next
        second = dump(agent.invoke(None, cfg)["messages"])
        return first, nxt, second

    first, nxt, second = same(agent_backend, scenario)
    assert nxt == ("tools",) and second[-1][1] == "done"


def test_async_invoke(agent_backend):
    import asyncio

    def scenario(b):
        model = fake(ai("", ("add", {"a": 2, "b": 2}, "c1")), ai("four"))
        out = asyncio.run(b.agents.create_agent(model, [add]).ainvoke(USER))
        return dump(out["messages"])

    assert same(agent_backend, scenario)[-1][1] == "four"


def _messages_stream(b, node: str | None):
    model = ScriptedChatModel(
        replies=[{"tool_calls": [{"name": "add", "args": {"a": 1, "b": 2}}]}, "the sum is 3"]
    )
    agent = b.agents.create_agent(model, [add])
    out = []
    for msg, meta in agent.stream(USER, stream_mode="messages"):
        if node is None or meta["langgraph_node"] == node:
            calls = [c["name"] for c in getattr(msg, "tool_call_chunks", [])]
            out.append((meta["langgraph_node"], type(msg).__name__, msg.content, calls))
    return out


def test_scripted_model_streams_tokens_in_messages_mode(agent_backend):
    chunks = same(agent_backend, lambda b: _messages_stream(b, "model"))
    tokens = [c[2] for c in chunks if c[1] == "AIMessageChunk"]
    assert "".join(tokens) == "the sum is 3" and len(tokens) > 3
    assert chunks[0] == ("model", "AIMessageChunk", "", ["add"])


def test_messages_mode_includes_tool_messages(agent_backend):
    chunks = same(agent_backend, lambda b: _messages_stream(b, None))
    assert ("tools", "ToolMessage", "3", []) in chunks


def test_string_model_unknown_provider(agent_backend):
    def scenario(b):
        try:
            b.agents.create_agent("nosuchprovider-model-x", [])
        except ValueError as e:
            return str(e).splitlines()[0]

    first_line = same(agent_backend, scenario)
    assert (
        first_line
        == "Unable to infer model provider for model='nosuchprovider-model-x'. Please specify 'model_provider' directly."
    )


def test_duplicate_middleware_rejected(agent_backend):
    def scenario(b):
        class M(b.middleware.AgentMiddleware):
            pass

        return b.agents.create_agent(fake(ai("x")), [], middleware=[M(), M()])

    assert isinstance(same(agent_backend, scenario), AssertionError)
