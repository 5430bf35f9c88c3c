"""Settings → Model providers: the key saved in the keychain (an in-memory keyring backend,
never the real one), the base URL in the config folder, Test connection against the local
OpenAI-compatible server with a clear result either way, the environment variable said to win."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from graphspec import credentials
from studio.chat.provider_dialog import ProviderSettingsDialog
from tests.providers.conftest import memory_keyring, openai_server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.gui


def _dialog(qtbot):
    dialog = ProviderSettingsDialog()
    qtbot.addWidget(dialog)
    dialog.provider.setCurrentText("openai")
    return dialog


def _test(qtbot, dialog) -> str:
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.result.text() not in ("", "Testing…"), timeout=15000)
    return dialog.result.text()


def test_save_then_test_connection(qtbot, openai_server, memory_keyring):  # noqa: F811
    openai_server.api_key = "sk-dialog-7788"
    dialog = _dialog(qtbot)
    dialog.key.setText("sk-dialog-7788")
    dialog.base_url.setText(openai_server.base_url)
    dialog.model.setText("gpt-test")
    dialog.save()
    assert credentials.stored_key("openai") == "sk-dialog-7788"
    assert credentials.base_url("openai") == openai_server.base_url
    assert "sk-dialog" not in (credentials.config_dir() / "providers.json").read_text()
    assert "saved in the OS keychain" in dialog.key_note.text()
    dialog.model.setText("gpt-test")
    assert _test(qtbot, dialog).startswith("✓ Connected: gpt-test answered")


@pytest.mark.parametrize(("change", "said"), [
    ({"key": "sk-bad-0000"}, "✗ the provider rejected the API key (401)"),
    ({"model": "gpt-missing"}, "✗ model not found (404)"),
    ({"base_url": "http://127.0.0.1:9/v1"}, "✗ cannot reach the model server"),
])  # fmt: skip
def test_test_connection_says_what_went_wrong(qtbot, openai_server, memory_keyring, change, said):  # noqa: F811
    dialog = _dialog(qtbot)
    dialog.key.setText(change.get("key", "sk-test"))
    dialog.base_url.setText(change.get("base_url", openai_server.base_url))
    dialog.model.setText(change.get("model", "gpt-test"))
    assert _test(qtbot, dialog).startswith(said)


def test_the_environment_variable_is_said_to_win(qtbot, memory_keyring, monkeypatch):  # noqa: F811
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    dialog = _dialog(qtbot)
    assert "OPENAI_API_KEY is set in the environment" in dialog.key_note.text()
    dialog.provider.setCurrentText("ollama")
    assert (
        not dialog.key.isEnabled() and dialog.base_url.placeholderText() == "http://localhost:11434"
    )
