"""The names of langgraph.graph and langgraph.graph.message that programs import beyond
add_messages: `Messages` (langchain-ai/memory-template's chatbot state is
`Annotated[list[Messages], add_messages]`; the engine had no such name and the import failed)
and the deprecated MessageGraph from the graph package itself (`from langgraph.graph import
END, MessageGraph`, as pre-1.0 tutorials start)."""

import typing
import warnings
from dataclasses import dataclass
from typing import Annotated

import pytest
from langchain_core.messages import AIMessage, MessageLikeRepresentation

pytestmark = pytest.mark.differential


def test_messages_is_a_message_or_a_list_of_them(backend):
    messages = backend.mod("graph.message").Messages
    assert set(typing.get_args(messages)) == {
        list[MessageLikeRepresentation],
        *typing.get_args(MessageLikeRepresentation),
    }


def test_a_dataclass_state_annotated_with_messages_runs(backend):
    message = backend.mod("graph.message")

    @dataclass
    class Chat:
        messages: Annotated[list[message.Messages], message.add_messages]

    def bot(state: Chat) -> dict:
        return {"messages": [AIMessage(f"{len(state.messages)} so far", id="a")]}

    builder = backend.graph.StateGraph(Chat)
    builder.add_node(bot)
    builder.add_edge("__start__", "bot")
    out = builder.compile().invoke({"messages": [("user", "hi")]})
    assert [(m.type, m.content) for m in out["messages"]] == [("human", "hi"), ("ai", "1 so far")]


def test_message_graph_comes_from_the_graph_package(backend):
    package = backend.graph
    assert "MessageGraph" in package.__all__
    assert package.MessageGraph is backend.mod("graph.message").MessageGraph
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        builder = package.MessageGraph()
    assert [type(w.message).__name__ for w in caught] == ["LangGraphDeprecatedSinceV10"]
    builder.add_node("echo", lambda messages: [AIMessage(f"echo: {messages[-1].content}", id="e")])
    builder.add_edge(package.START, "echo")
    builder.add_edge("echo", package.END)
    out = builder.compile().invoke([("user", "hi")])
    assert [(m.type, m.content) for m in out] == [("human", "hi"), ("ai", "echo: hi")]
