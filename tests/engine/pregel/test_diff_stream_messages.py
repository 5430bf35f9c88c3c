"""Differential tests of stream_mode="messages": an LLM's tokens streamed from a node, sync and
async, v1 and v2.
"""

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage

from tests.oracle import normalize


def _chat_app(backend):
    StateGraph, START = backend.graph.StateGraph, backend.graph.START
    MessagesState = backend.graph.MessagesState

    def chat(s):
        model = GenericFakeChatModel(messages=iter([AIMessage(content="a b")]))
        return {"messages": [model.invoke(s["messages"])]}

    def chat2(s):
        model = GenericFakeChatModel(messages=iter([AIMessage(content="c d")]))
        return {"messages": [model.invoke(s["messages"])]}

    def direct(s):
        return {"messages": [AIMessage("direct", id="d1")]}

    g = StateGraph(MessagesState)
    g.add_node("chat", chat)
    g.add_node("chat2", chat2)
    g.add_node("direct", direct)
    g.add_edge(START, "chat")
    g.add_edge("chat", "chat2")
    g.add_edge("chat2", "direct")
    return g.compile()


MSG_ROWS = [
    ("AIMessageChunk", "a", "chat", 1),
    ("AIMessageChunk", " ", "chat", 1),
    ("AIMessageChunk", "b", "chat", 1),
    ("AIMessageChunk", "c", "chat2", 2),
    ("AIMessageChunk", " ", "chat2", 2),
    ("AIMessageChunk", "d", "chat2", 2),
    # a message a node returns without streaming it is emitted whole, once
    ("AIMessage", "direct", "direct", 3),
]


def _rows(chunks):
    return [
        (type(m).__name__, m.content, meta["langgraph_node"], meta["langgraph_step"])
        for m, meta in chunks
    ]


def test_stream_messages(backend):
    chunks = list(
        _chat_app(backend).stream(
            {"messages": [HumanMessage("hi", id="h1")]}, stream_mode="messages"
        )
    )
    # the input HumanMessage is not streamed
    assert _rows(chunks) == MSG_ROWS
    for _msg, meta in chunks[:6]:
        assert {
            "langgraph_step",
            "langgraph_node",
            "langgraph_triggers",
            "langgraph_path",
            "langgraph_checkpoint_ns",
            "checkpoint_ns",
        } <= set(meta)
        assert meta["checkpoint_ns"] == meta["langgraph_checkpoint_ns"]
    first_meta = chunks[0][1]
    assert first_meta["langgraph_triggers"] == ("branch:to:chat",)
    assert first_meta["langgraph_path"] == ("__pregel_pull", "chat")
    assert normalize(first_meta["langgraph_checkpoint_ns"]) == "chat:<uuid>"
    # a message returned by a node (no model callback) gets only the graph's metadata
    assert normalize(chunks[6][1]) == {
        "ls_integration": "langgraph",
        "langgraph_step": 3,
        "langgraph_node": "direct",
        "langgraph_triggers": ("branch:to:direct",),
        "langgraph_path": ("__pregel_pull", "direct"),
        "langgraph_checkpoint_ns": "direct:<uuid>",
    }
    # the chunks of one model call share one message id
    assert len({m.id for m, _ in chunks[:3]}) == 1
    assert chunks[6][0].id == "d1"


def test_stream_messages_final_state(backend):
    out = _chat_app(backend).invoke({"messages": [HumanMessage("hi", id="h1")]})
    assert [(type(m).__name__, m.content) for m in out["messages"]] == [
        ("HumanMessage", "hi"),
        ("AIMessage", "a b"),
        ("AIMessage", "c d"),
        ("AIMessage", "direct"),
    ]


def test_stream_messages_v2(backend):
    chunks = list(
        _chat_app(backend).stream(
            {"messages": [HumanMessage("hi", id="h1")]}, stream_mode="messages", version="v2"
        )
    )
    assert {(c["type"], c["ns"]) for c in chunks} == {("messages", ())}
    assert all(isinstance(c["data"], tuple) and len(c["data"]) == 2 for c in chunks)
    assert _rows(c["data"] for c in chunks) == MSG_ROWS


async def test_astream_messages(backend):
    app = _chat_app(backend)
    chunks = [
        c
        async for c in app.astream(
            {"messages": [HumanMessage("hi", id="h1")]}, stream_mode="messages"
        )
    ]
    assert _rows(chunks) == MSG_ROWS
