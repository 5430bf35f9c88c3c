"""The programs' offline chat model: every real model call replaced by the next scripted reply.

A program built on a hosted model (a `ChatOpenAI`, a "provider:model" string) gets one of these
instead; the replies are the program's script, in call order (the last one repeats when the
script runs out, so an agent loop always ends); an exception in the script is raised, as a
failing provider would. `bind_tools` keeps the script, which already
says which tools to call; `with_structured_output(schema)` answers the next reply (a dict) as
the schema. A fresh model comes with each load of a program, so two runs get the same replies.
"""

from __future__ import annotations

import threading
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableLambda
from pydantic import PrivateAttr


class ScriptedChatModel(BaseChatModel):
    responses: list[Any]
    """AIMessages (or their text) for chat calls, dicts for structured-output calls, exceptions
    to raise."""

    _calls: int = PrivateAttr(default=0)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def next_reply(self) -> Any:
        with self._lock:
            reply = self.responses[min(self._calls, len(self.responses) - 1)]
            self._calls += 1
        return reply

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        reply = self.next_reply()
        if isinstance(reply, BaseException):
            raise reply
        message = AIMessage(content=reply) if isinstance(reply, str) else reply.model_copy()
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(self, tools, **kwargs) -> ScriptedChatModel:
        return self

    def with_structured_output(self, schema, **kwargs) -> RunnableLambda:
        def answer(_input: Any) -> Any:
            reply = self.next_reply()
            return schema.model_validate(reply) if hasattr(schema, "model_validate") else reply

        return RunnableLambda(answer)


def calls(*steps: tuple[str, dict[str, Any]], content: str = "") -> AIMessage:
    """An AI message calling the tools `steps` ((name, args) pairs), with ids call_<name>_<index>"""
    tool_calls = [{"name": n, "args": a, "id": f"call_{n}_{i}"} for i, (n, a) in enumerate(steps)]
    return AIMessage(content=content, tool_calls=tool_calls)
