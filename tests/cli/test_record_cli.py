"""`superstep run --record` and `superstep replay`: an agent spec on the real langchain-openai
client against the local server, recorded, then replayed with the server stopped; an edited
tool shows in the run diff."""

from __future__ import annotations

import json

import pytest

from studio.cli import main
from tests.openai_server import OpenAIServer
from tests.providers.test_cli_providers import INPUT, agent_spec


@pytest.fixture
def recorded(tmp_path, monkeypatch, capsys):
    """A spec run once with --record; the server is stopped afterwards."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with OpenAIServer() as server:
        server.reply(tool_calls=[("add", {"a": 2, "b": 3})])
        server.reply("The sum is 5.")
        doc = agent_spec(server.base_url)
        spec = tmp_path / "agent.json"
        spec.write_text(json.dumps(doc))
        db = str(tmp_path / "threads.db")
        code = main(["run", str(spec), "--trust", "--input", INPUT, "--db", db, "--record"])
        out, err = capsys.readouterr()
        assert (code, err) == (0, ""), err
        assert len(server.requests) == 2
    return spec, db, doc, json.loads(out.splitlines()[-1])


def _replay(capsys, spec, db, *extra):
    code = main(["replay", str(spec), "--thread", "main", "--db", db, "--trust", *extra])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_a_recorded_run_replays_with_the_server_stopped(recorded, capsys):
    spec, db, _, final = recorded
    code, lines, err = _replay(capsys, spec, db)
    assert (code, err) == (0, "")
    assert lines[0] == ("replayed 'main' as 'main-replay-1': 3 call(s) from the recording, 0 live, "
                        "0 changed, 0 recorded call(s) unused")  # fmt: skip
    assert json.loads(lines[1])["messages"][-1]["content"] == final["messages"][-1]["content"]
    assert lines[-1] == "the same: every step's tasks, writes and state"
    code, lines, _ = _replay(capsys, spec, db)  # a second replay gets the next free name
    assert code == 0 and "as 'main-replay-2'" in lines[0]


def test_an_edited_tool_shows_in_the_run_diff(recorded, capsys):
    spec, db, doc, _ = recorded
    doc["agents"][0]["tools"][0]["code"] = "def add(a: int, b: int) -> int:\n    return a + b + 1\n"
    spec.write_text(json.dumps(doc))
    code, lines, _ = _replay(capsys, spec, db, "--serve", "models")  # the tool runs live
    assert code == 1
    assert "replay: the 2nd model call of node 'assistant|model' has another input than " \
           "recorded (changed:fail):" in lines  # fmt: skip
    assert '-   "content": "5",' in lines and '+   "content": "6",' in lines
    code, lines, _ = _replay(capsys, spec, db, "--serve", "models", "--on-change", "recorded")
    assert code == 0
    assert "path old: __start__ → assistant" in lines
    diff = lines[next(i for i, line in enumerate(lines) if line.startswith("run diff:")) :]
    changed = [line for line in diff if line.startswith("  ")]
    assert changed == [
        "  assistant wrote .messages[2].content: '5' → '6'",
        "  state .messages[2].content: '5' → '6'",
    ]


def test_replay_refuses_a_thread_without_a_recording(recorded, capsys):
    spec, db, _, _ = recorded
    code = main(["replay", str(spec), "--thread", "other", "--db", db, "--trust"])
    assert code == 2
    assert "thread 'other' of " in capsys.readouterr().err
