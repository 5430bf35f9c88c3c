"""ContextEditingMiddleware: once the model's input grows past a token threshold, older tool
results are replaced by a placeholder (Anthropic's `clear_tool_uses` edit, for any chat model).
The edit applies to what the model is sent; the state keeps the full history."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately

from engine.agents.middleware.types import AgentMiddleware, ModelRequest

DEFAULT_TOOL_PLACEHOLDER = "[cleared]"

TokenCounter = Callable[[Sequence[BaseMessage]], int]


class ContextEdit(Protocol):
    """An editing strategy: changes the message list in place."""

    def apply(self, messages: list[AnyMessage], *, count_tokens: TokenCounter) -> None: ...


def _cleared(message: BaseMessage) -> bool:
    return bool(message.response_metadata.get("context_editing", {}).get("cleared"))


@dataclass(slots=True)
class ClearToolUsesEdit(ContextEdit):
    """Above `trigger` tokens, replace tool results by `placeholder`, oldest first, keeping the
    `keep` most recent and those of `exclude_tools`; stop once `clear_at_least` tokens are
    reclaimed (0: clear all candidates)."""

    trigger: int = 100_000
    clear_at_least: int = 0
    keep: int = 3
    clear_tool_inputs: bool = False
    """Also empty the arguments of the tool call whose result was cleared."""
    exclude_tools: Sequence[str] = ()
    placeholder: str = DEFAULT_TOOL_PLACEHOLDER

    def apply(self, messages: list[AnyMessage], *, count_tokens: TokenCounter) -> None:
        tokens = count_tokens(messages)
        if tokens <= self.trigger:
            return
        results = [i for i, m in enumerate(messages) if isinstance(m, ToolMessage)]
        candidates = results[: len(results) - self.keep] if self.keep < len(results) else []
        excluded = set(self.exclude_tools)
        for idx in candidates:
            result = messages[idx]
            if _cleared(result):
                continue
            found = _calling_message(messages, idx)
            if found is None:
                continue
            ai_idx, call = found
            if (result.name or call["name"]) in excluded:
                continue
            messages[idx] = result.model_copy(
                update={
                    "artifact": None,
                    "content": self.placeholder,
                    "response_metadata": {
                        **result.response_metadata,
                        "context_editing": {"cleared": True, "strategy": "clear_tool_uses"},
                    },
                }
            )
            if self.clear_tool_inputs:
                messages[ai_idx] = _without_call_input(messages[ai_idx], result.tool_call_id)
            if self.clear_at_least > 0 and tokens - count_tokens(messages) >= self.clear_at_least:
                break


def _calling_message(messages: list[AnyMessage], idx: int) -> tuple[int, dict] | None:
    """The nearest AI message before `idx`, with its call answered by the result at `idx`;
    None when that message did not make the call."""
    for ai_idx in range(idx - 1, -1, -1):
        message = messages[ai_idx]
        if isinstance(message, AIMessage):
            call_id = messages[idx].tool_call_id
            call = next((c for c in message.tool_calls if c.get("id") == call_id), None)
            return None if call is None else (ai_idx, call)
    return None


def _without_call_input(message: AIMessage, call_id: str) -> AIMessage:
    calls = [{**c, "args": {}} if c.get("id") == call_id else dict(c) for c in message.tool_calls]
    metadata = dict(message.response_metadata)
    if any(c.get("id") == call_id for c in message.tool_calls):
        entry = dict(metadata.get("context_editing", {}))
        entry["cleared_tool_inputs"] = sorted({*entry.get("cleared_tool_inputs", []), call_id})
        metadata["context_editing"] = entry
    return message.model_copy(update={"tool_calls": calls, "response_metadata": metadata})


class ContextEditingMiddleware(AgentMiddleware):
    """Applies `edits` (default: one ClearToolUsesEdit) to each model call's messages, counting
    tokens with `token_counter`, else approximately or by the model (`token_count_method`)."""

    def __init__(
        self,
        *,
        edits: Iterable[ContextEdit] | None = None,
        token_count_method: Literal["approximate", "model"] = "approximate",  # noqa: S107
        token_counter: TokenCounter | None = None,
    ) -> None:
        super().__init__()
        self.edits = list(edits or (ClearToolUsesEdit(),))
        self.token_count_method = token_count_method
        self.token_counter = token_counter

    def _counter(self, request: ModelRequest) -> TokenCounter:
        if self.token_counter is not None:
            return self.token_counter
        if self.token_count_method == "approximate":  # noqa: S105
            return count_tokens_approximately
        system = [request.system_message] if request.system_message else []

        def count_with_model(messages: Sequence[BaseMessage]) -> int:
            return request.model.get_num_tokens_from_messages(
                system + list(messages), request.tools
            )

        return count_with_model

    def _edited(self, request: ModelRequest) -> ModelRequest:
        count_tokens = self._counter(request)
        messages = deepcopy(list(request.messages))
        for edit in self.edits:
            edit.apply(messages, count_tokens=count_tokens)
        return request.override(messages=messages)

    def wrap_model_call(self, request: ModelRequest, handler: Callable) -> Any:
        return handler(self._edited(request) if request.messages else request)

    async def awrap_model_call(self, request: ModelRequest, handler: Callable) -> Any:
        return await handler(self._edited(request) if request.messages else request)


__all__ = ["ClearToolUsesEdit", "ContextEditingMiddleware"]
