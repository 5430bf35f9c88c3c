"""ModelFallbackMiddleware: when the model call fails, try the fallback models in order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.agents.chat_models import init_chat_model
from engine.agents.middleware.types import AgentMiddleware, ModelRequest
from engine.errors import GraphBubbleUp

_ANTHROPIC = frozenset({"anthropic-chat", "anthropic-bedrock-chat", "anthropic-chat-vertexai"})


def _for_fallback(request: ModelRequest, model: Any) -> ModelRequest:
    """The request for `model`: provider-specific prompt-cache settings it would reject are dropped.

    (LangChain also strips cache_control from message and tool content blocks; we strip only
    model settings.)
    """
    llm_type = getattr(model, "_llm_type", None)
    settings = dict(request.model_settings)
    if llm_type not in _ANTHROPIC:
        settings.pop("cache_control", None)
    if llm_type not in {"fireworks-chat", "openai-chat", "azure-openai-chat"}:
        settings.pop("prompt_cache_key", None)
    if settings != request.model_settings:
        request = request.override(model_settings=settings)
    return request.override(model=model)


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
