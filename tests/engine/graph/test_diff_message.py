"""Differential tests of add_messages and MessagesState (engine.graph.message)."""

from typing import Annotated, TypedDict

from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage

from tests.engine.graphs import _g, _one_node
from tests.oracle import normalize


def _msgs_graph(backend, node):
    StateGraph, START, _ = _g(backend)
    add_messages = backend.mod("graph.message").add_messages

    class M(TypedDict):
        messages: Annotated[list, add_messages]

    g = StateGraph(M)
    g.add_node("node", node)
    g.add_edge(START, "node")
    return g.compile()


def test_add_messages_appends_and_coerces(backend):
    app = _msgs_graph(backend, lambda s: {"messages": [AIMessage("hi", id="a1")]})
    out = app.invoke({"messages": [("user", "hello")]})
    assert [(type(m).__name__, m.content) for m in out["messages"]] == [
        ("HumanMessage", "hello"),
        ("AIMessage", "hi"),
    ]
    assert normalize(out["messages"][0].id) == "<uuid>"  # ids are assigned to id-less messages
    assert out["messages"][1].id == "a1"
    out = app.invoke({"messages": "just a string"})
    assert [(type(m).__name__, m.content) for m in out["messages"]] == [
        ("HumanMessage", "just a string"),
        ("AIMessage", "hi"),
    ]
    out = app.invoke({"messages": {"role": "user", "content": "dict"}})
    assert [(type(m).__name__, m.content) for m in out["messages"]] == [
        ("HumanMessage", "dict"),
        ("AIMessage", "hi"),
    ]


def test_add_messages_replaces_by_id_and_removes(backend):
    def edit(s):
        return {"messages": [AIMessage("edited", id="h1"), RemoveMessage(id="a0")]}

    app = _msgs_graph(backend, edit)
    out = app.invoke({"messages": [HumanMessage("hello", id="h1"), AIMessage("x", id="a0")]})
    assert [(type(m).__name__, m.content, m.id) for m in out["messages"]] == [
        ("AIMessage", "edited", "h1")
    ]


def test_add_messages_function_directly(backend):
    add_messages = backend.mod("graph.message").add_messages
    merged = add_messages(
        [HumanMessage("a", id="1"), AIMessage("b", id="2")],
        [AIMessage("b2", id="2"), HumanMessage("c", id="3")],
    )
    assert [(m.content, m.id) for m in merged] == [("a", "1"), ("b2", "2"), ("c", "3")]


def test_messages_state(backend):
    StateGraph, START, _ = _g(backend)
    MessagesState = backend.graph.MessagesState
    g = StateGraph(MessagesState)
    g.add_node("bot", lambda s: {"messages": [AIMessage(f"n={len(s['messages'])}", id="b")]})
    g.add_edge(START, "bot")
    app = g.compile()
    out = app.invoke({"messages": [HumanMessage("hi", id="h")]})
    assert [(m.content, m.id) for m in out["messages"]] == [("hi", "h"), ("n=1", "b")]
    assert type(app.channels["messages"]).__name__ == "BinaryOperatorAggregate"


def test_state_add_messages_reducer(backend):
    add_messages = backend.graph.add_messages

    class State(TypedDict):
        messages: Annotated[list, add_messages]  # 自动追加消息

    out = _one_node(
        backend,
        State,
        lambda s: {"messages": [AIMessage(content="hi there", id="a1")]},
        name="reply",
    ).invoke({"messages": [HumanMessage(content="hi", id="h1")]})
    assert out == {
        "messages": [HumanMessage(content="hi", id="h1"), AIMessage(content="hi there", id="a1")]
    }
