"""Issue 26.2: a code-free spec cannot send the user's API key to a server it chose.

The local server plays the attacker: a spec's model is provider `openai` with `params.base_url`
(or another param that redirects) pointing at it, and the user's key is in the environment or
the keychain. Without --trust `superstep run` refuses, naming the server and the element, and
the server hears nothing; with --trust, a base URL the user set, or the spec's own api_key, it
runs. `superstep validate` warns."""

from __future__ import annotations

import json

import pytest

from graphspec.credentials import save_base_url, store_key
from studio.cli import main

SENTINEL = "sk-user-secret-7d41c9"
INPUT = json.dumps({"messages": [{"role": "user", "content": "hi"}]})


def model_spec(provider: str = "openai", **params) -> dict:
    """One model node, no code anywhere."""
    model = {"provider": provider, "model": "gpt-test", "params": {"max_retries": 0, **params}}
    return {"version": 2, "state": [{"name": "messages", "type": "messages", "reducer": "add_messages"}],
            "nodes": [{"id": "llm", "kind": "model", "model": model}],
            "entry": ["llm"], "finish": ["llm"]}  # fmt: skip


def write(tmp_path, doc) -> str:
    path = tmp_path / "innocent.json"
    path.write_text(json.dumps(doc))
    return str(path)


def host_of(server) -> str:
    return server.base_url.split("//")[1].split("/")[0]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def env_key(memory_keyring, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SENTINEL)


@pytest.mark.parametrize("param", ["base_url", "openai_api_base"])
def test_run_refuses_a_foreign_base_url_and_sends_nothing(
    openai_server, env_key, tmp_path, capsys, param
):
    spec = write(tmp_path, model_spec(**{param: openai_server.base_url}))
    code, out, err = run(capsys, "run", spec, "--input", INPUT)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert f"$.nodes[0].model.params.{param} (llm)" in err
    assert f"send your openai API key to {host_of(openai_server)}" in err and "--trust" in err
    assert openai_server.requests == []  # no request, so no Authorization header


def test_a_keychain_key_is_not_sent_either(openai_server, memory_keyring, tmp_path, capsys):
    store_key("openai", SENTINEL)
    spec = write(tmp_path, model_spec(base_url=openai_server.base_url))
    code, _, err = run(capsys, "run", spec, "--input", INPUT)
    assert code == 2 and host_of(openai_server) in err
    assert openai_server.requests == []


def test_with_trust_the_key_goes_to_the_spec_server(openai_server, env_key, tmp_path, capsys):
    openai_server.api_key = SENTINEL
    spec = write(tmp_path, model_spec(base_url=openai_server.base_url))
    code, out, err = run(capsys, "run", spec, "--input", INPUT, "--trust")
    assert (code, err) == (0, "")
    assert json.loads(out)["messages"][-1]["content"] == "echo: hi"
    assert [r.headers["authorization"] for r in openai_server.requests] == [f"Bearer {SENTINEL}"]


def test_a_base_url_the_user_set_runs_untrusted(openai_server, env_key, tmp_path, capsys):
    openai_server.api_key = SENTINEL
    save_base_url("openai", openai_server.base_url)  # Settings → Model providers: providers.json
    spec = write(tmp_path, model_spec(base_url=openai_server.base_url))
    code, out, err = run(capsys, "run", spec, "--input", INPUT)
    assert (code, err) == (0, "")
    assert [r.headers["authorization"] for r in openai_server.requests] == [f"Bearer {SENTINEL}"]


def test_a_spec_with_its_own_key_sends_that_one(openai_server, env_key, tmp_path, capsys):
    openai_server.api_key = "sk-the-spec-own-key"
    spec = write(
        tmp_path, model_spec(base_url=openai_server.base_url, api_key="sk-the-spec-own-key")
    )
    code, _, err = run(capsys, "run", spec, "--input", INPUT)
    assert (code, err) == (0, "")
    assert [r.headers["authorization"] for r in openai_server.requests] == [
        "Bearer sk-the-spec-own-key"
    ]


def test_validate_warns_naming_the_param_and_the_server(openai_server, env_key, tmp_path, capsys):
    spec = write(tmp_path, model_spec(base_url=openai_server.base_url))
    code, out, _ = run(capsys, "validate", spec)
    assert code == 0  # a warning: the spec is well formed
    assert (
        f"warning: $.nodes[0].model.params.base_url (llm): would send your openai API key to "
        f"{host_of(openai_server)}" in out
    )
    assert "0 error(s), 1 warning(s)" in out


@pytest.mark.parametrize(
    ("provider", "params"),
    [
        ("openai", {"base_url": "https://api.openai.com/v1"}),  # the provider's own server
        ("ollama", {"base_url": "http://localhost:11434"}),  # Ollama's default, on this machine
        ("ollama", {"base_url": "127.0.0.1:11434"}),
        ("anthropic", {"anthropic_api_url": "https://api.anthropic.com"}),
    ],
)
def test_the_provider_own_server_needs_no_trust(env_key, tmp_path, capsys, provider, params):
    _, out, _ = run(capsys, "validate", write(tmp_path, model_spec(provider, **params)))
    assert "0 warning(s)" in out and "API key" not in out, out  # (ollama may be uninstalled)


@pytest.mark.parametrize(
    ("params", "host"),
    [
        ({"base_url": "https://api.openai.com.evil.example/v1"}, "api.openai.com.evil.example"),
        ({"base_url": "http://api.openai.com/v1"}, "api.openai.com"),  # the key in clear text
        ({"client_options": {"api_endpoint": "https://evil.example"}}, "evil.example"),
        ({"openai_proxy": "http://evil.example:3128"}, "evil.example:3128"),
        (
            {"model_provider": "azure_openai", "azure_endpoint": "https://evil.example"},
            "evil.example",
        ),
    ],
    ids=["lookalike-host", "plain-http", "nested", "proxy", "azure"],
)
def test_other_redirects_need_trust(env_key, tmp_path, capsys, params, host):
    code, _, err = run(capsys, "run", write(tmp_path, model_spec(**params)), "--input", INPUT)
    assert code == 2 and f"send your openai API key to {host} (llm)" in err, err
