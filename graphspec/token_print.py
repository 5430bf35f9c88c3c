"""`superstep run --stream messages`: the chat model's tokens printed as they arrive.

Tokens (AIMessageChunk) are written as plain text, flushed one by one, so the answer appears
token by token; a whole message a node returns (a tool's result, an unstreamed answer) gets a
line of its own, labelled with its node. Other stream modes stay JSON lines.
"""

from __future__ import annotations

from typing import Any, TextIO


class TokenPrinter:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.mid_line = False
        self.last_id: str | None = None

    def part(self, message: Any, metadata: dict) -> None:
        from langchain_core.messages import AIMessageChunk

        node = metadata.get("langgraph_node", "?")
        if isinstance(message, AIMessageChunk):
            if message.id != self.last_id:  # a new model call starts on a new line
                self._end_line()
                self.out.write(f"[{node}] ")
                self.last_id = message.id
            self.out.write(content_text(message.content))
            for call in getattr(message, "tool_call_chunks", None) or ():
                # a tool call streams too: its name once, then its arguments as they come
                self.out.write(f"→ {call['name']} " if call.get("name") else "")
                self.out.write(call.get("args") or "")
            self.mid_line = True
        else:
            self._end_line()
            kind = type(message).__name__.removesuffix("Message").lower() or "message"
            self.out.write(f"[{node}] {kind}: {content_text(message.content)}\n")
            self.last_id = None
        self.out.flush()

    def close(self) -> None:
        self._end_line()
        self.out.flush()

    def _end_line(self) -> None:
        if self.mid_line:
            self.out.write("\n")
            self.mid_line = False


def content_text(content: Any) -> str:
    """A message's content as text: a string, or the text of its content blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            b if isinstance(b, str) else str(b.get("text", "")) if isinstance(b, dict) else ""
            for b in content
        )
    return str(content)
