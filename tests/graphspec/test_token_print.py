"""`superstep run --stream messages` prints tokens as they arrive (TokenPrinter)."""

import io

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from engine.graph import START, MessagesState, StateGraph
from graphspec.token_print import TokenPrinter


class _Out(io.StringIO):
    """Records what was on screen at each flush."""

    def __init__(self):
        super().__init__()
        self.flushes: list[str] = []

    def flush(self):
        self.flushes.append(self.getvalue())


def test_tokens_print_one_by_one_and_whole_messages_get_a_line():
    def chat(s):
        return {
            "messages": [
                GenericFakeChatModel(messages=iter([AIMessage("one two")])).invoke(s["messages"])
            ]
        }

    def tool(s):
        return {"messages": [ToolMessage("42", tool_call_id="c1")]}

    g = StateGraph(MessagesState)
    g.add_node("chat", chat)
    g.add_node("tool", tool)
    g.add_edge(START, "chat")
    g.add_edge("chat", "tool")
    out = _Out()
    printer = TokenPrinter(out)
    for message, meta in g.compile().stream(
        {"messages": [HumanMessage("hi")]}, stream_mode="messages"
    ):
        printer.part(message, meta)
    printer.close()
    assert out.getvalue() == "[chat] one two\n[tool] tool: 42\n"
    # the answer grew on screen token by token
    assert "[chat] one" in out.flushes and "[chat] one " in out.flushes
