"""ProviderToolSearchMiddleware: let the provider search deferred tools instead of sending
every tool schema on every turn.

Selected tools are marked `extras["defer_loading"] = True` and the provider's own tool-search
tool is appended; the provider then loads a deferred tool's schema only when the model asks for
it. Only providers with server-side tool search qualify (Anthropic, OpenAI).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from langchain_core.tools import BaseTool

from engine.agents.chat_models import infer_provider
from engine.agents.middleware.types import AgentMiddleware, ModelRequest, ModelResponse

ToolIdentifier = str | BaseTool
"""A tool's name, or the tool itself."""

# The tool each provider expects in the request to search deferred tools (names are versioned
# by the providers).
SEARCH_TOOL_BY_PROVIDER: dict[str, dict[str, str]] = {
    "anthropic": {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"},
    "openai": {"type": "tool_search"},
}
_CLASS_PROVIDERS = {
    "ChatAnthropic": "anthropic",
    "AnthropicChat": "anthropic",
    "ChatOpenAI": "openai",
    "OpenAIChat": "openai",
}


def _normal(provider: str) -> str:
    return provider.replace("-", "_").lower()


def _provider_in(params: Mapping[str, Any]) -> str | None:
    """The provider named by model settings: `model_provider`, else a "provider:model" or bare
    model name."""
    if isinstance(params.get("model_provider"), str):
        return _normal(params["model_provider"])
    name = params.get("model")
    if not isinstance(name, str):
        return None
    prefix, colon, _ = name.partition(":")
    if colon:
        return _normal(prefix)
    inferred = infer_provider(name)
    return _normal(inferred) if inferred else None


def model_provider(model: Any, runtime: Any = None) -> str | None:
    """Which provider serves `model`, or None when nothing says.

    Looked up in order: a configurable model's settings for this run (its defaults overlaid
    with the run's `configurable`), its defaults, the LangSmith `ls_provider`, the class name."""
    defaults = getattr(model, "_default_config", None)
    defaults = defaults if isinstance(defaults, dict) else None
    params_for = getattr(model, "_model_params", None)
    if callable(params_for):
        config = getattr(runtime, "config", None)
        params = params_for(config if isinstance(config, Mapping) else None)
        if isinstance(params, dict) and (found := _provider_in({**(defaults or {}), **params})):
            return found
    if defaults and (found := _provider_in(defaults)):
        return found
    ls_params = getattr(model, "_get_ls_params", None)
    if callable(ls_params):
        provider = (ls_params() or {}).get("ls_provider")
        if isinstance(provider, str):
            return _normal(provider)
    return _CLASS_PROVIDERS.get(type(model).__name__)


def _deferred(tool: Any, names: set[str]) -> bool:
    """Only BaseTool instances can be deferred (a dict tool has no extras to carry the flag)."""
    if not isinstance(tool, BaseTool):
        return False
    extras = tool.extras if isinstance(tool.extras, dict) else {}
    return extras.get("defer_loading") is True or tool.name in names


class ProviderToolSearchMiddleware(AgentMiddleware):
    """Defer the tools in `searchable_tools` (and those already flagged `defer_loading`)
    behind the provider's server-side tool search.

    With nothing to defer the request passes unchanged, whatever the provider; otherwise an
    unknown or unsupported provider is a ValueError at the model call."""

    def __init__(self, *, searchable_tools: list[ToolIdentifier] | None = None) -> None:
        super().__init__()
        self.searchable_tool_names = {
            t if isinstance(t, str) else t.name for t in (searchable_tools or ())
        }

    def _with_search(self, request: ModelRequest) -> ModelRequest:
        tools = request.tools
        bound = {t.name for t in tools if isinstance(t, BaseTool)}
        if unbound := sorted(self.searchable_tool_names - bound):
            raise ValueError(
                "ProviderToolSearchMiddleware: searchable_tools references tool(s) not bound to "
                f"the model: {', '.join(unbound)}"
            )
        if not any(_deferred(t, self.searchable_tool_names) for t in tools):
            return request
        supported = ", ".join(sorted(SEARCH_TOOL_BY_PROVIDER))
        provider = model_provider(request.model, request.runtime)
        if provider is None:
            raise ValueError(
                "ProviderToolSearchMiddleware could not determine the provider for model "
                f"{type(request.model).__name__!r}; server-side tool search supports: {supported}"
            )
        if provider not in SEARCH_TOOL_BY_PROVIDER:
            raise ValueError(
                "ProviderToolSearchMiddleware requires a provider with server-side tool search, "
                f"but got {provider!r}; supported providers: {supported}"
            )
        marked = [
            t.model_copy(update={"extras": {**(t.extras or {}), "defer_loading": True}})
            if _deferred(t, self.searchable_tool_names)
            else t
            for t in tools
        ]
        return request.override(tools=[*marked, dict(SEARCH_TOOL_BY_PROVIDER[provider])])

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        return handler(self._with_search(request))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        return await handler(self._with_search(request))
