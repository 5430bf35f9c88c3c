"""init_chat_model: a chat model from a "provider:model" string, when the provider package is installed.

Mirrors `langchain.chat_models.init_chat_model` for the common providers; "scripted" gives the
bundled offline ScriptedChatModel.
"""

from __future__ import annotations

import importlib
from typing import Any

_PROVIDERS: dict[str, tuple[str, str]] = {
    "anthropic": ("langchain_anthropic", "ChatAnthropic"),
    "azure_openai": ("langchain_openai", "AzureChatOpenAI"),
    "bedrock": ("langchain_aws", "ChatBedrock"),
    "bedrock_converse": ("langchain_aws", "ChatBedrockConverse"),
    "cohere": ("langchain_cohere", "ChatCohere"),
    "deepseek": ("langchain_deepseek", "ChatDeepSeek"),
    "fireworks": ("langchain_fireworks", "ChatFireworks"),
    "google_genai": ("langchain_google_genai", "ChatGoogleGenerativeAI"),
    "google_vertexai": ("langchain_google_vertexai", "ChatVertexAI"),
    "groq": ("langchain_groq", "ChatGroq"),
    "mistralai": ("langchain_mistralai", "ChatMistralAI"),
    "ollama": ("langchain_ollama", "ChatOllama"),
    "openai": ("langchain_openai", "ChatOpenAI"),
    "perplexity": ("langchain_perplexity", "ChatPerplexity"),
    "together": ("langchain_together", "ChatTogether"),
    "upstage": ("langchain_upstage", "ChatUpstage"),
    "xai": ("langchain_xai", "ChatXAI"),
    "scripted": ("engine.agents.scripted", "ScriptedChatModel"),
}

_PREFIXES = (
    (("gpt-", "o1", "o3", "chatgpt", "text-davinci"), "openai"),
    (("claude",), "anthropic"),
    (("command",), "cohere"),
    (("accounts/fireworks",), "fireworks"),
    (("gemini",), "google_vertexai"),
    (("amazon.", "anthropic.", "meta."), "bedrock"),
    (("mistral", "mixtral"), "mistralai"),
    (("deepseek",), "deepseek"),
    (("grok",), "xai"),
    (("sonar",), "perplexity"),
    (("solar",), "upstage"),
)


def infer_provider(model_name: str) -> str | None:
    """The provider a bare model name belongs to ("claude-..." -> "anthropic"), or None."""
    lower = model_name.lower()
    return next((p for prefixes, p in _PREFIXES if lower.startswith(prefixes)), None)


def _parse(model: str, provider: str | None) -> tuple[str, str]:
    if not provider and ":" in model and model.split(":", 1)[0] in _PROVIDERS:
        provider, model = model.split(":", 1)
    if not provider:
        provider = infer_provider(model)
    if not provider:
        raise ValueError(
            f"Unable to infer model provider for model={model!r}. Please specify 'model_provider' "
            f"directly.\n\nSupported providers: {', '.join(sorted(_PROVIDERS))}"
        )
    return model, provider.replace("-", "_").lower()


def init_chat_model(model: str, *, model_provider: str | None = None, **kwargs: Any) -> Any:
    """Instantiate the provider's chat model class for `model` (e.g. "openai:gpt-4o-mini")."""
    if not isinstance(model, str):
        raise TypeError(
            f"`model` must be a string (e.g., 'openai:gpt-5.5'), got {type(model).__name__}. If "
            "you've already constructed a chat model object, use it directly instead of passing it "
            "to init_chat_model()."
        )
    model, provider = _parse(model, model_provider)
    if provider not in _PROVIDERS:
        raise ValueError(
            f"Unsupported provider={provider!r}.\n\nSupported model providers are: {', '.join(_PROVIDERS)}"
        )
    module_name, class_name = _PROVIDERS[provider]
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        pkg = module_name.split(".", 1)[0].replace("_", "-")
        raise ImportError(
            f"Initializing {class_name} requires the {pkg} package. Please install it with `pip install {pkg}`"
        ) from e
    cls = getattr(module, class_name)
    if provider == "scripted":
        return cls(model_name=model, **kwargs)
    return cls(model=model, **kwargs)


__all__ = ["init_chat_model"]
