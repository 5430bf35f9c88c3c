"""Where a spec's chat model sends the user's API key.

The key saved for a provider (its environment variable or the keychain) goes with every request
its model makes. A spec's params can point the model at another server (`base_url` and the
like); the key would go there too. So a model pointed anywhere but its provider's own endpoint
(`DEFAULT_ENDPOINTS`) or a base URL the user set (Settings → Model providers, or the provider's
own variable, `BASE_URL_ENV`) needs trust, as code does (`graphspec.trust`). A spec that gives
its own `api_key` sends that key, not the user's: it may point anywhere.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from urllib.parse import urlsplit

from graphspec.credentials import DEFAULT_BASE_URLS, base_url
from graphspec.errors import Finding
from graphspec.model import AgentNode, GraphSpec, ModelNode, ModelSettings

REDIRECT_PARAMS = frozenset(
    "base_url openai_api_base api_base azure_endpoint anthropic_api_url endpoint api_url "
    "api_endpoint endpoint_url url host proxy".split()
)
"""Params LangChain's chat models take for the server they call (or go through)."""
REDIRECT_SUFFIXES = ("_base_url", "_api_base", "_api_url", "_endpoint", "_proxy")
"""...and the provider-prefixed ones (groq_api_base, xai_api_base, openai_proxy...). Dict params
(client_options, client_kwargs) are searched for the same names."""

DEFAULT_ENDPOINTS: dict[str, tuple[str, ...]] = {
    "openai": ("https://api.openai.com",),
    "anthropic": ("https://api.anthropic.com",),
    "ollama": (DEFAULT_BASE_URLS["ollama"],),
    "google_genai": ("https://generativelanguage.googleapis.com",),
    "mistralai": ("https://api.mistral.ai",),
    "groq": ("https://api.groq.com",),
    "deepseek": ("https://api.deepseek.com",),
    "xai": ("https://api.x.ai",),
    "openrouter": ("https://openrouter.ai",),
    "together": ("https://api.together.xyz",),
    "fireworks": ("https://api.fireworks.ai",),
    "cohere": ("https://api.cohere.com", "https://api.cohere.ai"),
    "perplexity": ("https://api.perplexity.ai",),
}
"""Each provider's own server: a spec may name it in base_url and still run untrusted."""

BASE_URL_ENV: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_BASE_URL",),
    "azure_openai": ("AZURE_OPENAI_ENDPOINT",),
    "anthropic": ("ANTHROPIC_BASE_URL",),
    "ollama": ("OLLAMA_HOST",),
}
"""The variables a provider's client reads its server from: set by the user, so trusted."""

LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
DEFAULT_PORTS = {"http": 80, "https": 443}


def is_redirect(name: str) -> bool:
    name = name.lower()
    return name in REDIRECT_PARAMS or name.endswith(REDIRECT_SUFFIXES)


def _origin(url: str) -> tuple[str, str, int | None] | None:
    """(scheme, host, port) of a URL; a bare `host:port` (as Ollama takes) is http. None when it
    does not parse: never allowed."""
    text = url.strip()
    parts = urlsplit(text if "://" in text else f"http://{text}")
    try:
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if not host:
        return None
    scheme = parts.scheme.lower()
    return scheme, "localhost" if host in LOOPBACK else host, port or DEFAULT_PORTS.get(scheme)


def shown_host(url: str) -> str:
    """The server a URL names, as the user should read it (`evil.example:8080`)."""
    text = url.strip()
    netloc = urlsplit(text if "://" in text else f"http://{text}").netloc.rpartition("@")[2]
    return netloc or text


def allowed_origins(provider: str) -> set[tuple[str, str, int | None]]:
    """The provider's own servers and the ones the user set for it."""
    urls = [*DEFAULT_ENDPOINTS.get(provider, ()), base_url(provider)]
    urls += [os.environ.get(env, "") for env in BASE_URL_ENV.get(provider, ())]
    return {origin for url in urls if url and (origin := _origin(url)) is not None}


def _url_params(params: dict, prefix: str = "") -> Iterator[tuple[str, str]]:
    for name, value in params.items():
        if isinstance(value, dict):
            yield from _url_params(value, f"{prefix}{name}.")
        elif isinstance(value, str) and value.strip() and is_redirect(name):
            yield f"{prefix}{name}", value


def foreign_endpoints(settings: ModelSettings) -> list[tuple[str, str]]:
    """(param, url) for each server the model would send the user's key to that is neither its
    provider's nor one the user set; none for a scripted model, one with its own api_key or a
    program's own (its factory is code, trusted as code)."""
    params = settings.params
    if settings.provider == "scripted" or settings.factory is not None or params.get("api_key"):
        return []
    chosen = params.get("model_provider")  # init_chat_model's own override of the provider
    provider = chosen if isinstance(chosen, str) and chosen else settings.provider
    urls = list(_url_params(params))
    allowed = allowed_origins(provider) if urls else set()
    return [(p, url) for p, url in urls if _origin(url) not in allowed]


def models(spec: GraphSpec, prefix: str = "$") -> Iterator[tuple[str, str, ModelSettings]]:
    """(element id, JSON path, settings) of every chat model in the spec itself."""
    for i, agent in enumerate(spec.agents):
        users = [n.id for n in spec.nodes if isinstance(n, AgentNode) and n.agent == agent.id]
        element, path = users[0] if users else agent.id, f"{prefix}.agents[{i}]"
        yield element, f"{path}.model", agent.model
        for k, sub in enumerate(agent.deep.subagents if agent.deep is not None else ()):
            if sub.model is not None:
                yield element, f"{path}.deep.subagents[{k}].model", sub.model
    for i, node in enumerate(spec.nodes):
        if isinstance(node, ModelNode):
            yield node.id, f"{prefix}.nodes[{i}].model", node.model


def endpoint_sites(spec: GraphSpec, prefix: str = "$") -> list[Finding]:
    """Each model param that would send the user's API key to a server of the spec's choosing."""
    return [
        Finding(
            f"{path}.params.{param}",
            f"send your {settings.provider} API key to {shown_host(url)}",
            element,
            code="model-endpoint",
        )  # fmt: skip
        for element, path, settings in models(spec, prefix)
        for param, url in foreign_endpoints(settings)
    ]


__all__ = [
    "BASE_URL_ENV",
    "DEFAULT_ENDPOINTS",
    "REDIRECT_PARAMS",
    "allowed_origins",
    "endpoint_sites",
    "foreign_endpoints",
    "is_redirect",
    "shown_host",
]
