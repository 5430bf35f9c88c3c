"""Where a provider's API key and base URL come from when a spec's model runs.

The key: the provider's environment variable wins (OPENAI_API_KEY, ...); else the OS keychain
through `keyring` (service "superstep-studio", user = provider). A key is only ever handed to the
model object: never written into a spec, an export, a checkpoint or a log.
The base URL (OpenAI-compatible servers, Ollama on localhost) is not secret: the spec's
`params.base_url` wins, else the user's setting in providers.json under the config folder.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

SERVICE = "superstep-studio"

API_KEY_ENV: dict[str, str] = {
    "openai": "OPENAI_API_KEY",
    "azure_openai": "AZURE_OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "google_genai": "GOOGLE_API_KEY",
    "mistralai": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "xai": "XAI_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "together": "TOGETHER_API_KEY",
    "fireworks": "FIREWORKS_API_KEY",
    "cohere": "COHERE_API_KEY",
}
"""Providers that take an API key, and the variable their client reads it from."""

EXTRAS: dict[str, str] = {"openai": "openai", "azure_openai": "openai", "anthropic": "anthropic",
                          "ollama": "ollama", "google_genai": "google"}  # fmt: skip
"""Providers with an extra of ours: `pip install "superstep-studio[EXTRA]"`."""

SETTINGS_PROVIDERS = ("openai", "anthropic", "ollama", "google_genai")
"""The providers the studio's settings dialog lists first."""

DEFAULT_BASE_URLS = {"ollama": "http://localhost:11434"}


def api_key_env(provider: str) -> str | None:
    return API_KEY_ENV.get(provider)


def key_source(provider: str) -> str | None:
    """'environment' (its variable is set: it wins), 'keychain', or None."""
    env = api_key_env(provider)
    if env and os.environ.get(env):
        return "environment"
    return "keychain" if stored_key(provider) else None


def stored_key(provider: str) -> str | None:
    """The keychain's key for this provider; None if none, or no keychain works here."""
    try:
        import keyring

        return keyring.get_password(SERVICE, provider) or None
    except Exception:  # no backend (a headless Linux), a locked keychain...
        return None


def store_key(provider: str, key: str | None) -> None:
    """Save (or, with an empty key, delete) the provider's key in the keychain."""
    import keyring
    import keyring.errors

    if key:
        keyring.set_password(SERVICE, provider, key)
        return
    try:
        keyring.delete_password(SERVICE, provider)
    except keyring.errors.PasswordDeleteError:
        pass


def config_dir() -> Path:
    """SUPERSTEP_CONFIG_DIR, else the platform's per-user config folder."""
    if explicit := os.environ.get("SUPERSTEP_CONFIG_DIR"):
        return Path(explicit)
    if os.name == "nt":
        return Path(os.environ.get("APPDATA", Path.home())) / "superstep"
    return Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "superstep"


def _settings_file() -> Path:
    return config_dir() / "providers.json"


def load_settings() -> dict[str, dict[str, str]]:
    """provider -> {"base_url": ...}; a missing or broken file is no settings."""
    try:
        data = json.loads(_settings_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


def save_base_url(provider: str, base_url: str) -> None:
    settings = load_settings()
    entry = settings.setdefault(provider, {})
    if base_url:
        entry["base_url"] = base_url
    else:
        entry.pop("base_url", None)
    path = _settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def base_url(provider: str) -> str:
    return load_settings().get(provider, {}).get("base_url", "")


def model_params(provider: str, params: dict[str, Any]) -> dict[str, Any]:
    """The spec's params plus what the user set up: the base URL, and the keychain's key when
    the environment variable is not set (the client reads the variable itself)."""
    out = dict(params)
    if "base_url" not in out and (url := base_url(provider)):
        out["base_url"] = url
    env = api_key_env(provider)
    if env and not os.environ.get(env) and "api_key" not in out and (key := stored_key(provider)):
        out["api_key"] = key
    return out
