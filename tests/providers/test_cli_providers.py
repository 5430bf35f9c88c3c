"""`superstep run` on a spec whose agent uses provider `openai` with a base URL: the real
langchain-openai client against the local server, the key from the keychain or the environment,
tokens printed as they arrive, each provider error as one line with exit 1, and the key in
none of the spec, the export, the checkpoints, the output or the log."""

from __future__ import annotations

import json
import logging

import pytest

from graphspec.credentials import store_key
from studio.cli import main
from tests.openai_server import refused_url

KEY = "sk-keychain-9f3e2a7b1c"
INPUT = json.dumps({"messages": [{"role": "user", "content": "2+3?"}]})


def agent_spec(base_url: str, **params) -> dict:
    model = {"provider": "openai", "model": params.pop("model", "gpt-test"),
             "params": {"base_url": base_url, "max_retries": 0, **params}}  # fmt: skip
    tool = {"name": "add", "description": "Add two numbers.", "function": "add",
            "code": "def add(a: int, b: int) -> int:\n    return a + b\n"}  # fmt: skip
    return {"version": 2, "state": [{"name": "messages", "type": "messages", "reducer": "add_messages"}],
            "agents": [{"id": "assistant", "model": model, "tools": [tool]}],
            "nodes": [{"id": "assistant", "kind": "agent", "agent": "assistant"}],
            "entry": ["assistant"], "finish": ["assistant"]}  # fmt: skip


def _write(tmp_path, doc) -> str:
    path = tmp_path / "agent.json"
    path.write_text(json.dumps(doc))
    return str(path)


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_key_from_the_keychain_and_tokens_printed(openai_server, memory_keyring, tmp_path, capsys):
    openai_server.api_key = KEY
    store_key("openai", KEY)
    openai_server.reply(tool_calls=[("add", {"a": 2, "b": 3})])
    openai_server.reply("The sum is 5.")
    spec = _write(tmp_path, agent_spec(openai_server.base_url))
    code, out, err = _run(capsys, "run", spec, "--trust", "--input", INPUT, "--stream", "messages")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:3] == [
        '[model] → add {"a": 2, "b": 3}',
        "[tools] tool: 5",
        "[model] The sum is 5.",
    ]
    assert json.loads(lines[3])["messages"][-1]["content"] == "The sum is 5."  # the final state
    assert {r.headers["authorization"] for r in openai_server.requests} == {f"Bearer {KEY}"}
    assert all(r.body["stream"] for r in openai_server.requests)  # streamed, token by token


def test_the_environment_wins_over_the_keychain(
    openai_server, memory_keyring, tmp_path, capsys, monkeypatch
):
    openai_server.api_key = "sk-from-env-5566"
    store_key("openai", KEY)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env-5566")
    code, out, _ = _run(
        capsys,
        "run",
        _write(tmp_path, agent_spec(openai_server.base_url)),
        "--trust",
        "--input",
        INPUT,
    )
    assert code == 0 and json.loads(out)["messages"][-1]["content"] == "echo: 2+3?"


def test_no_key_anywhere_says_where_to_put_one(openai_server, memory_keyring, tmp_path, capsys):
    code, _, err = _run(
        capsys,
        "run",
        _write(tmp_path, agent_spec(openai_server.base_url)),
        "--trust",
        "--input",
        INPUT,
    )
    assert code == 2 and len(err.splitlines()) == 1
    assert "no API key for model provider 'openai': set OPENAI_API_KEY" in err


@pytest.mark.parametrize(
    ("setup", "said"),
    [
        (
            lambda s: {"api_key": "sk-wrong-key-0000"},
            "the provider rejected the API key (401): Incorrect API key provided",
        ),
        (
            lambda s: {"model": "gpt-missing"},
            "model not found (404): The model `gpt-missing` does not exist",
        ),
        (lambda s: s.fail(429) or {}, "rate limited by the provider (429)"),
        (lambda s: s.reply("late", delay=1.0) or {"timeout": 0.2}, "the model request timed out"),
        (lambda s: {"base_url": refused_url()}, "cannot reach the model server"),
    ],
    ids=["401", "404-model", "429", "timeout", "connection-refused"],
)
def test_provider_errors_are_one_line_naming_the_node(
    openai_server, memory_keyring, tmp_path, capsys, monkeypatch, setup, said
):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    params = setup(openai_server)
    doc = agent_spec(params.pop("base_url", openai_server.base_url), **params)
    code, _, err = _run(capsys, "run", _write(tmp_path, doc), "--trust", "--input", INPUT)
    assert code == 1 and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "node 'assistant': " + said in err


def test_the_key_is_in_no_spec_export_checkpoint_output_or_log(
    openai_server, memory_keyring, tmp_path, capsys, caplog
):
    openai_server.api_key = KEY
    store_key("openai", KEY)
    caplog.set_level(logging.DEBUG)
    spec = _write(tmp_path, agent_spec(openai_server.base_url))
    db = tmp_path / "threads.db"
    openai_server.reply(tool_calls=[("add", {"a": 2, "b": 3})])
    code, run_out, run_err = _run(capsys, "run", spec, "--trust", "--input", INPUT, "--db", str(db),
                                  "--stream", "updates,values,messages,debug")  # fmt: skip
    assert code == 0, run_err
    assert any(r.headers["authorization"] == f"Bearer {KEY}" for r in openai_server.requests)
    exported = tmp_path / "agent.py"
    assert _run(capsys, "export", spec, "--to", "langgraph", "-o", str(exported))[0] == 0
    places = {
        "spec": (tmp_path / "agent.json").read_bytes(),
        "export": exported.read_bytes(),
        "checkpoints": b"".join(p.read_bytes() for p in tmp_path.glob("threads.db*")),
        "output": (run_out + run_err).encode(),
        "log": "\n".join(r.getMessage() for r in caplog.records).encode(),
        "config": b"".join(p.read_bytes() for p in (tmp_path / "config").rglob("*") if p.is_file()),
    }
    assert places["checkpoints"] and places["output"]
    assert [name for name, data in places.items() if KEY.encode() in data] == []
