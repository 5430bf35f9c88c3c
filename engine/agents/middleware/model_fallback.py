"""ModelFallbackMiddleware: when the model call fails, try the fallback models in order."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.tools import BaseTool

from engine.agents.chat_models import init_chat_model
from engine.agents.middleware.types import AgentMiddleware, ModelRequest
from engine.errors import GraphBubbleUp

# Provider-specific prompt-cache settings an outer caching middleware may have put on the
# request; a fallback model of another provider would reject them, so they are dropped from
# the fallback attempts (the primary attempt is sent as it is).
_ANTHROPIC = frozenset({"anthropic-chat", "anthropic-bedrock-chat", "anthropic-chat-vertexai"})
_FIREWORKS = "fireworks-chat"
_PROMPT_CACHE_KEY_TYPES = frozenset({_FIREWORKS, "openai-chat", "azure-openai-chat"})
_AFFINITY_HEADER = "x-session-affinity"  # Fireworks' prompt-cache routing header


def _without(mapping: dict[str, Any], key: str) -> dict[str, Any]:
    """`mapping` without `key`; the same object when it has none (unchanged parts keep their
    identity, so an untouched request is passed on as it is)."""
    return {k: v for k, v in mapping.items() if k != key} if key in mapping else mapping


def _uncached_block(block: Any) -> Any:
    """A content block without Anthropic `cache_control`, also inside its extras/metadata."""
    if not isinstance(block, dict):
        return block
    out = _without(block, "cache_control")
    for nested in ("extras", "metadata"):
        inner = out.get(nested)
        if isinstance(inner, dict) and "cache_control" in inner:
            out = {**out, nested: _without(inner, "cache_control")}
    return out


def _uncached_content(message: Any) -> Any:
    if message is None or not isinstance(message.content, list):
        return message
    blocks = [_uncached_block(b) for b in message.content]
    if all(a is b for a, b in zip(blocks, message.content, strict=True)):
        return message
    return message.model_copy(update={"content": blocks})


def _uncached_tool(tool: Any) -> Any:
    """A tool without `cache_control` (in a dict tool or in extras; emptied extras become None)."""
    if isinstance(tool, BaseTool):
        extras = tool.extras or {}
        if "cache_control" not in extras:
            return tool
        return tool.model_copy(update={"extras": _without(extras, "cache_control") or None})
    out = _without(tool, "cache_control")
    extras = out.get("extras")
    if isinstance(extras, dict) and "cache_control" in extras:
        out = {**out, "extras": _without(extras, "cache_control") or None}
    return out


def _settings_for(settings: dict[str, Any], llm_type: Any) -> dict[str, Any]:
    if llm_type not in _ANTHROPIC:
        settings = _without(settings, "cache_control")
    if llm_type not in _PROMPT_CACHE_KEY_TYPES:
        settings = _without(settings, "prompt_cache_key")
    headers = settings.get("extra_headers")
    if llm_type != _FIREWORKS and isinstance(headers, Mapping):
        kept = {
            k: v
            for k, v in headers.items()
            if not (isinstance(k, str) and k.lower() == _AFFINITY_HEADER)
        }
        if len(kept) != len(headers):
            settings = (
                {**settings, "extra_headers": kept} if kept else _without(settings, "extra_headers")
            )
    return settings


def _kept_or(new: list, old: list) -> list:
    return old if all(a is b for a, b in zip(new, old, strict=True)) else new


def _for_fallback(request: ModelRequest, model: Any) -> ModelRequest:
    """The request for the fallback `model`, without the cache settings it does not accept."""
    llm_type = getattr(model, "_llm_type", None)
    changes: dict[str, Any] = {}
    settings = _settings_for(request.model_settings, llm_type)
    if settings is not request.model_settings:
        changes["model_settings"] = settings
    if llm_type not in _ANTHROPIC:
        system = _uncached_content(request.system_message)
        messages = _kept_or([_uncached_content(m) for m in request.messages], request.messages)
        tools = _kept_or([_uncached_tool(t) for t in request.tools], request.tools)
        for key, new, old in (
            ("system_message", system, request.system_message),
            ("messages", messages, request.messages),
            ("tools", tools, request.tools),
        ):
            if new is not old:
                changes[key] = new
    return request.override(model=model, **changes)


class ModelFallbackMiddleware(AgentMiddleware):
    """Calls the primary model, then each fallback on error; raises the last error if all fail."""

    def __init__(self, first_model: Any, *additional_models: Any) -> None:
        super().__init__()
        self.models = [
            init_chat_model(m) if isinstance(m, str) else m
            for m in (first_model, *additional_models)
        ]

    def _requests(self, request: ModelRequest) -> list[ModelRequest]:
        return [request, *(_for_fallback(request, m) for m in self.models)]

    def wrap_model_call(self, request: ModelRequest, handler: Callable) -> Any:
        error: Exception | None = None
        for attempt in self._requests(request):
            try:
                return handler(attempt)
            except GraphBubbleUp:
                raise
            except Exception as e:
                error = e
        raise error

    async def awrap_model_call(self, request: ModelRequest, handler: Callable) -> Any:
        error: Exception | None = None
        for attempt in self._requests(request):
            try:
                return await handler(attempt)
            except GraphBubbleUp:
                raise
            except Exception as e:
                error = e
        raise error


__all__ = ["ModelFallbackMiddleware"]
