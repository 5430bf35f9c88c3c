"""Issue 26.2 in the studio: a code-free spec whose model points at a server of its own (the
local server plays the attacker) opens with the trust banner naming that server, and Run sends
nothing (so no key) until the user trusts it. A base URL the user set in Settings → Model
providers needs no trust."""

from __future__ import annotations

import json

import pytest

from studio.chat.provider_dialog import ProviderSettingsDialog
from tests.providers.conftest import memory_keyring, openai_server  # noqa: F401  (fixtures)
from tests.providers.test_key_destination_cli import SENTINEL, host_of, model_spec
from tests.studio.test_run_steps import click, idle

pytestmark = pytest.mark.gui


@pytest.fixture
def attacker(openai_server, memory_keyring, monkeypatch, tmp_path):  # noqa: F811
    """The user's key in the environment; innocent.json sends its model to the local server."""
    monkeypatch.setenv("OPENAI_API_KEY", SENTINEL)
    openai_server.api_key = SENTINEL
    doc = model_spec(base_url=openai_server.base_url)
    doc["inputs"] = [{"name": "hi", "value": {"messages": [{"role": "user", "content": "hi"}]}}]
    (tmp_path / "innocent.json").write_text(json.dumps(doc))
    return openai_server


def run(qtbot, win) -> None:
    click(qtbot, win, "runButton")
    idle(qtbot, win)


def test_the_banner_names_the_server_and_run_waits_for_trust(qtbot, window, attacker, tmp_path):
    win = window
    assert win.open_path(tmp_path / "innocent.json")
    idle(qtbot, win)
    text = win.trust_banner.label.text()
    assert win.trust_banner.isVisible(), text
    assert f"llm in this spec would send your openai API key to {host_of(attacker)}" in text
    run(qtbot, win)
    assert "trust it" in win.runner.status.text()
    assert attacker.requests == []  # the key went nowhere
    click(qtbot, win, "trustButton")  # the user approves that server
    run(qtbot, win)
    assert [r.headers["authorization"] for r in attacker.requests] == [f"Bearer {SENTINEL}"]


def test_a_base_url_set_in_model_providers_needs_no_trust(qtbot, window, attacker, tmp_path):
    dialog = ProviderSettingsDialog()
    qtbot.addWidget(dialog)
    dialog.provider.setCurrentText("openai")
    dialog.base_url.setText(attacker.base_url)  # the user's own server after all
    dialog.save()
    win = window
    assert win.open_path(tmp_path / "innocent.json")
    idle(qtbot, win)
    assert not win.trust_banner.isVisible()
    run(qtbot, win)
    assert [r.headers["authorization"] for r in attacker.requests] == [f"Bearer {SENTINEL}"]
