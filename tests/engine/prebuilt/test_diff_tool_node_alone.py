"""A ToolNode runs with the runtime of the graph it is in: called by a node's own code with no
config (`tool_node.invoke(state)`), it takes the running task's config, so its tools read the
graph's store and context, as langgraph's do; called outside any graph it fails as langgraph's
does ("Missing required config key 'N/A' for 'tools'."), where the engine ran the tools with an
empty runtime (the how-to that invokes a ToolNode by hand printed ToolMessages on the engine and
stopped with that error on langgraph)."""

import asyncio
from typing import Annotated

import pytest
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = [
    pytest.mark.differential,
    pytest.mark.filterwarnings("ignore:Pydantic serializer warnings"),
]


def _call(name: str, args: dict) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": "c1"}])


def _tools(b):
    runtime_type = b.mod("prebuilt").ToolRuntime

    @tool
    def recall(topic: str, runtime: runtime_type) -> str:
        """Look up what the store keeps on a topic."""
        item = runtime.store.get(("notes",), topic)
        return f"{topic}: {item.value['text'] if item else 'nothing'} ({runtime.context['who']})"

    return [recall]


def test_a_tool_node_called_alone_wants_a_graph():
    def scenario(b):
        node = b.prebuilt.ToolNode(_tools(b))
        return node.invoke({"messages": [_call("recall", {"topic": "tea"})]})

    error = assert_same(scenario)
    assert isinstance(error, ValueError)


def test_a_node_calling_a_tool_node_lends_it_its_runtime():
    def scenario(b):
        class State(TypedDict):
            messages: Annotated[list, b.graph.message.add_messages]

        tool_node = b.prebuilt.ToolNode(_tools(b))

        def ask(state: State) -> dict:
            return {"messages": [_call("recall", {"topic": "tea"})]}

        def run_tools(state: State) -> dict:
            return tool_node.invoke(state)  # no config: the task's

        async def arun_tools(state: State) -> dict:
            return await tool_node.ainvoke(state)

        store = b.mod("store.memory").InMemoryStore()
        store.put(("notes",), "tea", {"text": "green"})
        out = []
        for body in (run_tools, arun_tools):
            builder = b.graph.StateGraph(State, context_schema=dict)
            builder.add_node("ask", ask)
            builder.add_node("tools", body)
            builder.add_edge("__start__", "ask")
            builder.add_edge("ask", "tools")
            graph = builder.compile(store=store)
            result = asyncio.run(graph.ainvoke({"messages": []}, context={"who": "ctx"}))
            out.append(result["messages"][-1].content)
        return out

    assert assert_same(scenario) == ["tea: green (ctx)", "tea: green (ctx)"]
