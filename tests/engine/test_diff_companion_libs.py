"""langgraph-bigtool, trustcall, langmem and langchain-mcp-adapters, unchanged, on the engine
and on langgraph: a quickstart-sized program of each (their READMEs' examples with scripted
models, deterministic fake embeddings and a local MCP server, offline) gives the same outputs, update streams and checkpoints
(issue 31). On the engine they load their engine-world copies (graphspec.engine_world), whose
legacy `langgraph.utils.*` imports resolve to engine.utils."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage

from tests.engine.deepagents_helpers import ai, assert_same_deep, model

pytestmark = pytest.mark.differential
pytest.importorskip("numpy")  # DeterministicFakeEmbedding


def _config(thread: str = "t") -> dict:
    return {"configurable": {"thread_id": thread}}


def _history(app, config: dict) -> list[tuple]:
    """Per checkpoint, newest first: step, source, next nodes, the state's keys and message
    count."""
    return [(s.metadata["step"], s.metadata["source"], s.next, sorted(s.values),
             len(s.values.get("messages", []))) for s in app.get_state_history(config)]  # fmt: skip


def _store():
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langgraph.store.memory import InMemoryStore

    return InMemoryStore(index={"embed": DeterministicFakeEmbedding(size=16), "dims": 16})


def _bigtool_app(*replies):
    import math

    from langchain_core.tools import tool
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph_bigtool import create_agent

    registry = {}
    for name in ("sqrt", "floor", "ceil"):
        registry[name] = tool(name, description=f"{name} of a number")(getattr(math, name))
    store = _store()
    for tool_id, found in registry.items():
        store.put(("tools",), tool_id, {"description": f"{found.name}: {found.description}"})
    return create_agent(model(*replies), registry).compile(checkpointer=InMemorySaver(),
                                                           store=store)  # fmt: skip


def test_bigtool_answers_and_fails_on_tool_calls_as_on_langgraph():
    """langgraph-bigtool 0.0.3 (its latest) routes a tool call through
    `ToolNode.inject_tool_args`, which langgraph-prebuilt 1.1 no longer has: on langgraph its
    quickstart stops there with AttributeError, and so it does on the engine, same message. An
    answer without tools runs through, with the same outputs, stream and checkpoints."""

    def scenario():
        ask = {"messages": [HumanMessage("Square root of 16?", id="q")]}
        app = _bigtool_app(ai("Four."))
        updates = [sorted(c) for c in app.stream(ask, _config(), stream_mode="updates")]
        answered = app.get_state(_config()).values, updates, _history(app, _config())
        app = _bigtool_app(ai("", ("retrieve_tools", {"query": "square root"}, "r1")),
                           ai("", ("sqrt", {"x": 16}, "s1")))  # fmt: skip
        try:
            app.invoke(ask, _config())
        except AttributeError as exc:
            return answered, str(exc)
        return answered, None

    (values, updates, history), failure = assert_same_deep(scenario)
    assert values["messages"][-1].content == "Four." and values["selected_tool_ids"] == []
    assert updates == [["agent"]] and len(history) == 3
    assert failure == "'ToolNode' object has no attribute 'inject_tool_args'"


def test_trustcall_extracts_and_patches_a_schema():
    def scenario():
        from pydantic import BaseModel
        from trustcall import create_extractor

        class UserInfo(BaseModel):
            """The user's name and favourite colour."""

            name: str
            colour: str

        llm = model(
            ai("", ("UserInfo", {"name": "Ada"}, "u1")),  # invalid: no colour
            ai(
                "",
                (
                    "PatchFunctionErrors",
                    {
                        "json_doc_id": "u1",
                        "planned_edits": "add colour",
                        "patches": [{"op": "add", "path": "/colour", "value": "green"}],
                    },
                    "p1",
                ),
            ),  # fmt: skip
        )
        extractor = create_extractor(llm, tools=[UserInfo], tool_choice="UserInfo")
        out = extractor.invoke({"messages": [("user", "I'm Ada; I like green.")]})
        return [r.model_dump() for r in out["responses"]], out["messages"], out["response_metadata"]

    responses, messages, _ = assert_same_deep(scenario)
    assert responses == [{"name": "Ada", "colour": "green"}]


def test_langmem_agent_manages_and_searches_its_memories():
    def scenario():
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.prebuilt import create_react_agent
        from langmem import create_manage_memory_tool, create_search_memory_tool

        llm = model(
            ai("", ("manage_memory", {"content": "User prefers dark mode", "action": "create"},
                    "m1")),
            ai("", ("search_memory", {"query": "display preferences"}, "s1")),
            ai("You prefer dark mode."),
        )  # fmt: skip
        store = _store()
        app = create_react_agent(
            llm, tools=[create_manage_memory_tool(namespace=("memories",)),
                        create_search_memory_tool(namespace=("memories",))],
            store=store, checkpointer=InMemorySaver(),
        )  # fmt: skip
        ask = {"messages": [HumanMessage("Remember I like dark mode; what do I like?", id="q")]}
        updates = [sorted(c) for c in app.stream(ask, _config(), stream_mode="updates")]
        memories = [(i.namespace, i.value) for i in store.search(("memories",))]
        state = app.get_state(_config())
        return state.values, updates, memories, _history(app, _config())

    values, _, memories, _ = assert_same_deep(scenario)
    assert memories == [(("memories",), {"content": "User prefers dark mode"})]
    assert "dark mode" in values["messages"][-2].content  # search_memory's result
    assert values["messages"][-1].content == "You prefer dark mode."


def test_each_library_runs_on_the_engine_there():
    """What the tests above compare is the engine's run: on the engine each library's own
    langgraph names are the engine's (its legacy `langgraph.utils` imports included)."""
    from graphspec.engine_world import on_engine

    with on_engine():
        from langgraph_bigtool import graph as bigtool
        from langmem.knowledge import extraction, tools
        from trustcall import _base as trustcall

        found = [bigtool.StateGraph, bigtool.RunnableCallable, trustcall.StateGraph,
                 trustcall.RunnableCallable, tools.get_store, extraction.ensure_config]  # fmt: skip
    assert all(f.__module__.startswith("engine.") for f in found), [f.__module__ for f in found]
    import trustcall._base

    assert trustcall._base.StateGraph.__module__.startswith("langgraph.")  # outside: untouched


@pytest.mark.filterwarnings("ignore:create_react_agent has been moved")
def test_mcp_adapters_quickstart_streams_and_checkpoints_the_same():
    """langchain-mcp-adapters' README quickstart: MultiServerMCPClient's tools from the `mcp`
    package's own server (a command over stdio, tests/mcp_server.py) given to a ReAct agent; the
    same tool results, update stream and checkpoints on both."""
    pytest.importorskip("langchain_mcp_adapters")
    from tests.mcp_server import stdio_command

    command, args = stdio_command()

    def scenario():
        import asyncio

        from langchain_mcp_adapters.client import MultiServerMCPClient
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.prebuilt import create_react_agent

        async def run():
            client = MultiServerMCPClient(
                {"math": {"command": command, "args": args, "transport": "stdio"}}
            )
            tools = [t for t in await client.get_tools() if t.name in ("add", "shout")]
            llm = model(
                ai("", ("add", {"a": 3, "b": 5}, "c1"), ("shout", {"text": "eight"}, "c2")),
                ai("3 + 5 is EIGHT."),
            )
            app = create_react_agent(llm, tools, checkpointer=InMemorySaver())
            ask = {"messages": [HumanMessage("what's (3 + 5), loudly?", id="q")]}
            updates = [sorted(c) async for c in app.astream(ask, _config(), stream_mode="updates")]
            state = await app.aget_state(_config())
            history = [(s.metadata["step"], s.metadata["source"], s.next, len(s.values["messages"]))
                       async for s in app.aget_state_history(_config())]  # fmt: skip
            return sorted(t.name for t in tools), state.values, updates, history

        return asyncio.run(run())

    names, values, updates, history = assert_same_deep(scenario)
    assert names == ["add", "shout"]
    results = sorted(str(m.content) for m in values["messages"] if m.type == "tool")
    assert "8" in results[0] and "EIGHT" in results[1]
    assert updates == [["agent"], ["tools"], ["tools"], ["agent"]]  # the two calls: two Sends
    assert [(step, nxt) for step, _, nxt, _ in history] == [
        (3, ()), (2, ("agent",)), (1, ("tools", "tools")), (0, ("agent",)), (-1, ("__start__",))
    ]  # fmt: skip
