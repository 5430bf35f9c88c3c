"""LLMToolEmulator: for testing an agent, chosen tools (all by default) are not run; a model
writes what each call would plausibly return."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, ToolMessage

from engine._constants import TAG_NOSTREAM
from engine.agents.chat_models import init_chat_model
from engine.agents.middleware.internal_call_transformer import internal_call_metadata
from engine.agents.middleware.types import AgentMiddleware
from engine.prebuilt.tool_node import ToolCallRequest

_DEFAULT_EMULATOR_MODEL = "anthropic:claude-sonnet-4-5-20250929"


class LLMToolEmulator(AgentMiddleware):
    """Answers the calls of `tools` (names or tools; None: every tool, []: none) with `model`'s
    reply to a prompt naming the tool, its description and arguments."""

    def __init__(self, *, tools: list | None = None, model: str | BaseChatModel | None = None):
        super().__init__()
        self.emulate_all = tools is None
        self.tools_to_emulate: set[str] = {t if isinstance(t, str) else t.name for t in tools or ()}
        if model is None:
            warnings.warn(
                f"LLMToolEmulator's default model ({_DEFAULT_EMULATOR_MODEL!r}) is deprecated "
                "and will be removed in a future release. Pass `model` explicitly instead.",
                DeprecationWarning,
                stacklevel=2,
            )
            try:
                model = init_chat_model(_DEFAULT_EMULATOR_MODEL, temperature=1)
            except ImportError as exc:
                raise ImportError(
                    "LLMToolEmulator's default model requires `langchain-anthropic` to be "
                    "installed. Install it with `pip install langchain-anthropic`, or pass "
                    "`model=...` explicitly to use a different provider."
                ) from exc
        elif not isinstance(model, BaseChatModel):
            model = init_chat_model(model, temperature=1)
        self.model = model

    def _emulates(self, request: ToolCallRequest) -> bool:
        return self.emulate_all or request.tool_call["name"] in self.tools_to_emulate

    @staticmethod
    def _prompt(request: ToolCallRequest) -> list[HumanMessage]:
        call = request.tool_call
        description = request.tool.description if request.tool else "No description available"
        return [
            HumanMessage(
                "You are emulating a tool call for testing purposes.\n\n"
                f"Tool: {call['name']}\nDescription: {description}\nArguments: {call['args']}\n\n"
                "Generate a realistic response that this tool would return given these "
                "arguments.\nReturn ONLY the tool's output, no explanation or preamble. "
                "Introduce variation into your responses."
            )
        ]

    @staticmethod
    def _config() -> dict[str, Any]:
        metadata = {"lc_source": "tool_emulation", **internal_call_metadata()}
        return {"metadata": metadata, "tags": [TAG_NOSTREAM]}

    @staticmethod
    def _answer(request: ToolCallRequest, reply: Any) -> ToolMessage:
        call = request.tool_call
        return ToolMessage(content=reply.content, tool_call_id=call["id"], name=call["name"])

    def wrap_tool_call(self, request: ToolCallRequest, handler: Callable) -> Any:
        if not self._emulates(request):
            return handler(request)
        return self._answer(request, self.model.invoke(self._prompt(request), self._config()))

    async def awrap_tool_call(self, request: ToolCallRequest, handler: Callable) -> Any:
        if not self._emulates(request):
            return await handler(request)
        reply = await self.model.ainvoke(self._prompt(request), self._config())
        return self._answer(request, reply)


__all__ = ["LLMToolEmulator"]
