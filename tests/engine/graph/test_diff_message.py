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


def test_add_messages_with_the_openai_format(backend):
    """add_messages(format="langchain-openai") is the reducer rewriting messages in OpenAI's
    form: a dict becomes a HumanMessage, an Anthropic image block an image_url (issue 31)."""
    add_messages = backend.graph.add_messages

    class State(TypedDict):
        messages: Annotated[list, add_messages(format="langchain-openai")]

    image = {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "1"}}
    out = _one_node(
        backend,
        State,
        lambda s: {
            "messages": [{"role": "user", "content": [{"type": "text", "text": "x"}, image]}]
        },
    ).invoke({"messages": []})
    [message] = out["messages"]
    assert type(message).__name__ == "HumanMessage"
    assert message.content == [
        {"type": "text", "text": "x"},
        {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,1"}},
    ]


def test_add_messages_given_one_list_or_an_unknown_format(backend):
    add_messages = backend.graph.add_messages
    errors = []
    for call in (
        lambda: add_messages([HumanMessage("a", id="1")], None),
        lambda: add_messages(None, [HumanMessage("a", id="1")]),
        lambda: add_messages([], [HumanMessage("a", id="1")], format="xml"),
    ):
        try:
            call()
        except ValueError as exc:
            errors.append(str(exc))
    assert errors == [
        "Must specify non-null arguments for both 'left' and 'right'. Only received: 'left'.",
        "Must specify non-null arguments for both 'left' and 'right'. Only received: 'right'.",
        "Unrecognized format='xml'. Expected one of 'langchain-openai', None.",
    ]


def test_messages_state_injected_into_a_tool(backend):
    """A handoff tool taking `Annotated[MessagesState, InjectedState]`: pydantic builds its
    schema only from a typing_extensions TypedDict on Python < 3.12 (issue 31)."""
    from langchain_core.messages import ToolMessage
    from langchain_core.tools import InjectedToolCallId, tool

    MessagesState = backend.graph.MessagesState
    InjectedState = backend.prebuilt.InjectedState

    @tool
    def count_messages(
        state: Annotated[MessagesState, InjectedState],
        tool_call_id: Annotated[str, InjectedToolCallId],
    ) -> ToolMessage:
        """Count the conversation's messages."""
        return ToolMessage(str(len(state["messages"])), tool_call_id=tool_call_id)

    call = {"name": "count_messages", "args": {}, "id": "c1", "type": "tool_call"}
    app = _one_node(backend, MessagesState, backend.prebuilt.ToolNode([count_messages]))
    out = app.invoke({"messages": [HumanMessage("hi", id="h"), AIMessage("", tool_calls=[call])]})
    assert [m.content for m in out["messages"]] == ["hi", "", "2"]
    assert count_messages.tool_call_schema.model_json_schema()["properties"] == {}


def test_a_tuple_is_one_message_not_a_list(backend):
    # a (role, content) tuple given where messages go is one message, in a root list state too
    app = _msgs_graph(backend, lambda s: {"messages": ("ai", "reply")})
    out = app.invoke({"messages": ("human", "hello")})
    assert [(type(m).__name__, m.content) for m in out["messages"]] == [
        ("HumanMessage", "hello"),
        ("AIMessage", "reply"),
    ]
    StateGraph, START, _ = _g(backend)
    add_messages = backend.mod("graph.message").add_messages
    root = StateGraph(Annotated[list, add_messages])
    root.add_node("node", lambda messages: [])
    root.add_edge(START, "node")
    out = root.compile().invoke(("human", "what is the weather"))
    assert [(type(m).__name__, m.content) for m in out] == [("HumanMessage", "what is the weather")]


def test_push_message_streams_and_writes_from_a_node(backend):
    push_message = backend.mod("graph.message").push_message
    refused = []

    def node(state):
        try:
            push_message(AIMessage("no id"))
        except ValueError as exc:
            refused.append(str(exc))
        push_message(AIMessage("first", id="p1"))
        push_message({"role": "user", "content": "second", "id": "p2"})
        push_message(AIMessage("stream only", id="p3"), state_key=None)
        return {}

    app = _msgs_graph(backend, node)
    streamed, values = [], None
    for mode, chunk in app.stream({"messages": []}, stream_mode=["messages", "values"]):
        if mode == "messages":
            streamed.append((type(chunk[0]).__name__, chunk[0].content, chunk[1]["langgraph_node"]))
        else:
            values = chunk
    assert refused == ["Message ID is required"]
    assert streamed == [
        ("AIMessage", "first", "node"),
        ("HumanMessage", "second", "node"),
        ("AIMessage", "stream only", "node"),
    ]
    assert [m.id for m in values["messages"]] == ["p1", "p2"]
