"""The local OpenAI-compatible server, one per test; and a keyring that is never the real one."""

from __future__ import annotations

import pytest

from tests.openai_server import OpenAIServer


@pytest.fixture
def openai_server():
    with OpenAIServer() as server:
        yield server


class MemoryKeyring:
    """A keyring backend kept in memory: tests never touch the real OS keychain."""

    priority = 1

    def __init__(self):
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.passwords.get((service, username))

    def set_password(self, service, username, password):
        self.passwords[(service, username)] = password

    def delete_password(self, service, username):
        import keyring.errors

        if self.passwords.pop((service, username), None) is None:
            raise keyring.errors.PasswordDeleteError(username)


@pytest.fixture
def memory_keyring(monkeypatch, tmp_path):
    """An in-memory keychain, an empty config folder and no provider key in the environment."""
    import keyring
    from keyring.backend import KeyringBackend

    backend_cls = type("MemoryKeyringBackend", (MemoryKeyring, KeyringBackend), {})
    backend = backend_cls()
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    monkeypatch.setenv("SUPERSTEP_CONFIG_DIR", str(tmp_path / "config"))
    for env in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(env, raising=False)
    yield backend
    keyring.set_keyring(previous)
