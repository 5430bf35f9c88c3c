"""ScriptedChatModel: a deterministic chat model for offline templates and tests.

It answers from a script: a list of replies used in order, and/or rules over the last message
(the first rule whose condition matches answers). A reply is a string, an AIMessage, a dict
(`{"content": ..., "tool_calls": [{"name": ..., "args": {...}}]}`) or a callable
`messages -> reply`. It streams its content word by word (so stream_mode="messages" shows
tokens), then the tool calls in a last chunk. `bind_tools` records the tools and returns itself.

    model = ScriptedChatModel(replies=[
        {"tool_calls": [{"name": "get_weather", "args": {"city": "Paris"}}]},
        "It is sunny in Paris.",
    ])
    model = ScriptedChatModel(rules=[("weather", {"tool_calls": [...]})], default="Hello!")
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.tool import tool_call_chunk
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import PrivateAttr

_TOKEN = re.compile(r"(\s+)")


class ScriptExhaustedError(RuntimeError):
    """The script has no reply left and no rule or default applies."""


def _text(message: BaseMessage | None) -> str:
    if message is None:
        return ""
    return message.text if isinstance(message.text, str) else str(message.content)


class ScriptedChatModel(BaseChatModel):
    """A chat model that replies from a script (in order) or from rules over the last message."""

    replies: list[Any] = []
    """Replies used one per call, in order."""
    rules: list[Any] = []
    """(condition, reply) pairs tried before the list: a condition is a substring or compiled regex
    of the last message's text, or a callable `last_message -> bool`."""
    default: Any = None
    """Reply when no rule matches and the list is used up; None raises ScriptExhaustedError."""
    model_name: str = "scripted"
    _index: int = PrivateAttr(default=0)
    _calls: int = PrivateAttr(default=0)
    _bound_tools: list = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-chat-model"

    @property
    def calls(self) -> int:
        """How many times the model answered."""
        return self._calls

    def reset(self) -> None:
        """Start the script again from its first reply."""
        self._index = 0
        self._calls = 0

    def bind_tools(
        self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any
    ) -> ScriptedChatModel:
        self._bound_tools = list(tools)
        return self

    # ------------------------------------------------------------------ choosing a reply
    def _matches(self, condition: Any, last: BaseMessage | None) -> bool:
        if isinstance(condition, str):
            return condition.lower() in _text(last).lower()
        if isinstance(condition, re.Pattern):
            return condition.search(_text(last)) is not None
        if callable(condition):
            return bool(condition(last))
        raise TypeError(f"Unsupported rule condition: {condition!r}")

    def _pick(self, messages: list[BaseMessage]) -> Any:
        last = messages[-1] if messages else None
        for condition, reply in self.rules:
            if self._matches(condition, last):
                return reply
        if self._index < len(self.replies):
            self._index += 1
            return self.replies[self._index - 1]
        if self.default is not None:
            return self.default
        raise ScriptExhaustedError(
            f"ScriptedChatModel has no reply for call {self._calls + 1} (script of {len(self.replies)} replies)"
        )

    def _reply(self, messages: list[BaseMessage]) -> AIMessage:
        reply = self._pick(messages)
        if callable(reply) and not isinstance(reply, BaseMessage):
            reply = reply(messages)
        self._calls += 1
        if isinstance(reply, AIMessage):
            return reply.model_copy()
        if isinstance(reply, str):
            return AIMessage(content=reply)
        if isinstance(reply, dict):
            calls = [
                {
                    "name": c["name"],
                    "args": c.get("args", {}),
                    "id": c.get("id") or f"call_{self._calls}_{i}",
                    "type": "tool_call",
                }
                for i, c in enumerate(reply.get("tool_calls", []))
            ]
            return AIMessage(content=reply.get("content", ""), tool_calls=calls)
        raise TypeError(f"Unsupported scripted reply: {reply!r}")

    # ------------------------------------------------------------------ BaseChatModel
    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._reply(messages))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        message = self._reply(messages)
        content = message.content if isinstance(message.content, str) else ""
        tokens = [t for t in _TOKEN.split(content) if t]
        for token in tokens:
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=token, id=message.id))
            if run_manager:
                run_manager.on_llm_new_token(token, chunk=chunk)
            yield chunk
        if message.tool_calls or not tokens:
            chunks = [
                tool_call_chunk(name=c["name"], args=_json(c["args"]), id=c["id"], index=i)
                for i, c in enumerate(message.tool_calls)
            ]
            last = ChatGenerationChunk(
                message=AIMessageChunk(content="", id=message.id, tool_call_chunks=chunks)
            )
            if run_manager:
                run_manager.on_llm_new_token("", chunk=last)
            yield last


def _json(args: dict) -> str:
    import json

    return json.dumps(args)


def rule(
    condition: str | re.Pattern | Callable[[BaseMessage | None], bool], reply: Any
) -> tuple[Any, Any]:
    """A (condition, reply) pair for `ScriptedChatModel(rules=[...])`."""
    return (condition, reply)


__all__ = ["ScriptExhaustedError", "ScriptedChatModel", "rule"]
