"""Chat model providers: which package each needs, and a one-line error when it is missing.

`init_chat_model` raises an ImportError (or a ValueError for an unknown name) with a long text;
a spec names the provider, so the message names the package to install instead.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from graphspec.errors import SpecError

PROVIDER_PACKAGES: dict[str, str] = {
    "anthropic": "langchain-anthropic",
    "anthropic_bedrock": "langchain-aws",
    "azure_ai": "langchain-azure-ai",
    "azure_openai": "langchain-openai",
    "baseten": "langchain-baseten",
    "bedrock": "langchain-aws",
    "bedrock_converse": "langchain-aws",
    "bedrock_mantle_anthropic": "langchain-aws",
    "bedrock_mantle_openai": "langchain-aws",
    "cohere": "langchain-cohere",
    "deepseek": "langchain-deepseek",
    "fireworks": "langchain-fireworks",
    "google_anthropic_vertex": "langchain-google-vertexai",
    "google_genai": "langchain-google-genai",
    "google_vertexai": "langchain-google-vertexai",
    "groq": "langchain-groq",
    "huggingface": "langchain-huggingface",
    "ibm": "langchain-ibm",
    "langsmith": "langchain-openai",
    "litellm": "langchain-litellm",
    "meta": "langchain-meta",
    "mistralai": "langchain-mistralai",
    "nvidia": "langchain-nvidia-ai-endpoints",
    "ollama": "langchain-ollama",
    "openai": "langchain-openai",
    "openrouter": "langchain-openrouter",
    "perplexity": "langchain-perplexity",
    "together": "langchain-together",
    "upstage": "langchain-upstage",
    "xai": "langchain-xai",
}
"""Provider name -> the pip package holding its chat model (as langchain's init_chat_model)."""


def installed(package: str) -> bool:
    """Whether the pip package (by its import name) can be imported here."""
    try:
        return importlib.util.find_spec(package.replace("-", "_")) is not None
    except (ImportError, ValueError):
        return False


def missing_packages(provider: str) -> list[str]:
    """The pip packages a provider still needs here (langchain for init_chat_model, its own)."""
    package = PROVIDER_PACKAGES.get(provider)
    return [p for p in (package, "langchain") if p and not installed(p)]


def install_hint(provider: str, missing: list[str]) -> str:
    """One line saying exactly what to install: our extra when there is one, else the packages."""
    from graphspec.credentials import EXTRAS

    packages = " ".join(missing)
    if extra := EXTRAS.get(provider):
        how = f'pip install "superstep-studio[{extra}]" (or: pip install {packages})'
    else:
        how = f"pip install {packages}"
    return f"model provider {provider!r} needs {' and '.join(missing)}: {how}"


_KEYLESS: ContextVar[bool] = ContextVar("superstep_keyless_models", default=False)
KEYLESS_KEY = "sk-replay-without-a-key"
"""The key a model gets when built for a replay with no key at hand: a call that does reach
the provider (nothing recorded for it) fails there as an invalid key, saying so."""


@contextmanager
def keyless_models() -> Iterator[None]:
    """Models built inside need no API key (a replay serves their calls from a recording)."""
    token = _KEYLESS.set(True)
    try:
        yield
    finally:
        _KEYLESS.reset(token)


def init_provider_model(provider: str, model: str, params: dict[str, Any], *,
                        element_id: str | None = None, path: str | None = None) -> Any:  # fmt: skip
    """`init_chat_model(f"{provider}:{model}", **params)`, or a SpecError in one line."""

    def fail(message: str) -> SpecError:
        return SpecError(message, element_id=element_id, path=path)

    package = PROVIDER_PACKAGES.get(provider)
    if package is None:
        known = ", ".join(["scripted", *PROVIDER_PACKAGES])
        raise fail(f"unknown model provider {provider!r} (known: {known})")
    if missing := missing_packages(provider):
        raise fail(install_hint(provider, missing))
    from langchain.chat_models import init_chat_model

    from graphspec.credentials import api_key_env, model_params

    params = model_params(provider, params)
    env = api_key_env(provider)
    if env and "api_key" not in params and not os.environ.get(env) and _KEYLESS.get():
        params["api_key"] = KEYLESS_KEY
    if env and "api_key" not in params and not os.environ.get(env):
        raise fail(
            f"no API key for model provider {provider!r}: set {env}, or save one in the "
            "studio's Settings → Model providers (kept in the OS keychain)"
        )
    try:
        return init_chat_model(f"{provider}:{model}", **params)
    except ImportError as exc:  # a dependency of the package itself
        raise fail(f"model provider {provider!r}: {exc}") from None
    except Exception as exc:  # bad params, a missing API key...
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise fail(f"cannot create the {provider} model: {type(exc).__name__}: {first}") from None
