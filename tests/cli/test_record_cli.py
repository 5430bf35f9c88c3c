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
def recorded(tmp_path, monkeypatch, capfd):
    """A spec run once with --record; the server is stopped afterwards."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("SUPERSTEP_STUDIO_HOME", str(tmp_path / "home"))  # its trust record
    with OpenAIServer() as server:
        server.reply(tool_calls=[("add", {"a": 2, "b": 3})])
        server.reply("The sum is 5.")
        doc = agent_spec(server.base_url)
        spec = tmp_path / "agent.json"
        spec.write_text(json.dumps(doc))
        db = str(tmp_path / "threads.db")
        code = main(["run", str(spec), "--trust", "--input", INPUT, "--db", db, "--record"])
        out, err = capfd.readouterr()
        assert (code, err) == (0, ""), err
        assert len(server.requests) == 2
    return spec, db, doc, json.loads(out.splitlines()[-1])


def _replay(capfd, spec, db, *extra):
    code = main(["replay", str(spec), "--thread", "main", "--db", db, "--trust", *extra])
    out, err = capfd.readouterr()
    return code, out.splitlines(), err


def test_a_recorded_run_replays_with_the_server_stopped(recorded, capfd):
    spec, db, _, final = recorded
    code, lines, err = _replay(capfd, spec, db)
    assert (code, err) == (0, "")
    assert lines[0] == ("replayed 'main' as 'main-replay-1': 3 call(s) from the recording, 0 live, "
                        "0 changed, 0 recorded call(s) unused")  # fmt: skip
    assert json.loads(lines[1])["messages"][-1]["content"] == final["messages"][-1]["content"]
    assert lines[-1] == "the same: every step's tasks, writes and state"
    code, lines, _ = _replay(capfd, spec, db)  # a second replay gets the next free name
    assert code == 0 and "as 'main-replay-2'" in lines[0]


def test_an_edited_tool_shows_in_the_run_diff(recorded, capfd):
    spec, db, doc, _ = recorded
    doc["agents"][0]["tools"][0]["code"] = "def add(a: int, b: int) -> int:\n    return a + b + 1\n"
    spec.write_text(json.dumps(doc))
    code, lines, _ = _replay(capfd, spec, db, "--serve", "models")  # the tool runs live
    assert code == 1
    assert "replay: the 2nd model call of node 'assistant|model' has another input than " \
           "recorded (changed:fail):" in lines  # fmt: skip
    assert '-   "content": "5",' in lines and '+   "content": "6",' in lines
    code, lines, _ = _replay(capfd, spec, db, "--serve", "models", "--on-change", "recorded")
    assert code == 0
    assert "path old: __start__ → assistant" in lines
    diff = lines[next(i for i, line in enumerate(lines) if line.startswith("run diff:")) :]
    changed = [line for line in diff if line.startswith("  ")]
    assert changed == [
        "  assistant wrote .messages[2].content: '5' → '6'",
        "  state .messages[2].content: '5' → '6'",
    ]


def test_replay_refuses_a_thread_without_a_recording(recorded, capfd):
    spec, db, _, _ = recorded
    code = main(["replay", str(spec), "--thread", "other", "--db", db, "--trust"])
    assert code == 2
    assert "thread 'other' of " in capfd.readouterr().err


def test_a_saved_test_passes_then_fails_with_a_readable_diff(recorded, tmp_path, capfd):
    spec, db, doc, _ = recorded
    folder = tmp_path / "saved"
    assert main(["save-test", str(spec), "--thread", "main", "--db", db, "--trust",
                 "-o", str(folder)]) == 0  # fmt: skip
    assert capfd.readouterr().out == f"wrote {folder / 'test_main.py'}\n"
    data = json.loads((folder / "test_main.recording.json").read_text())
    assert (data["spec"], data["serve"], len(data["calls"])) == ("../agent.json", ["model"], 3)
    assert [s["tasks"] for s in data["steps"]] == [["__start__"], ["assistant"]]
    assert "sk-test" not in (folder / "test_main.recording.json").read_text()

    assert main(["test", str(folder)]) == 1  # its tool is code nobody trusted yet
    assert "run `superstep test --trust`" in capfd.readouterr().out
    assert main(["test", "--trust", str(folder)]) == 0  # pytest runs it; the server is gone
    assert "1 passed" in capfd.readouterr().out

    doc["agents"][0]["tools"][0]["code"] = "def add(a: int, b: int) -> int:\n    return a + b + 1\n"
    spec.write_text(json.dumps(doc))
    assert main(["test", "--trust", str(folder)]) == 1
    out = capfd.readouterr().out
    assert "1 failed" in out
    assert "the 2nd model call of node 'assistant|model' has another input than recorded" in out
    assert "run diff: recorded (old) vs now (new)" in out
    assert "state .messages[2].content: '5' → '6'" in out


def test_a_saved_test_reads_its_recording_as_data(recorded, tmp_path, capfd):
    from studio.replay.saved_tests import run_saved

    spec, db, _, _ = recorded
    folder = tmp_path / "saved"
    main(["save-test", str(spec), "--thread", "main", "--db", db, "--trust", "-o", str(folder)])
    data_path = folder / "test_main.recording.json"
    data = json.loads(data_path.read_text())
    data["calls"][0]["output"] = {"lc": 1, "type": "constructor", "id": ["os", "system"],
                                  "kwargs": {"command": "touch pwned"}}  # fmt: skip
    data_path.write_text(json.dumps(data))
    result = run_saved(data_path, trusted=lambda spec: True)  # the spec's own code may run
    assert not result.passed and not (tmp_path / "pwned").exists()
    data_path.write_text("{not json")
    result = run_saved(data_path)
    assert result.lines == [f"{data_path}: JSONDecodeError: Expecting property name enclosed in "
                            "double quotes: line 1 column 2 (char 1)"]  # fmt: skip


def test_a_replay_and_a_saved_test_need_no_key(recorded, tmp_path, capfd, monkeypatch):
    from studio.replay.saved_tests import run_saved

    spec, db, _, _ = recorded
    folder = tmp_path / "saved"
    main(["save-test", str(spec), "--thread", "main", "--db", db, "--trust", "-o", str(folder)])
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setattr("graphspec.credentials.stored_key", lambda provider: None)
    assert run_saved(folder / "test_main.recording.json", trusted=lambda spec: True).passed
    code, lines, _ = _replay(capfd, spec, db)
    assert code == 0 and lines[-1] == "the same: every step's tasks, writes and state"
    code, _, err = _replay(capfd, spec, db, "--on-change", "live")  # may call the model: a key
    assert code == 2 and "no API key for model provider 'openai'" in err


def test_replay_and_saved_tests_run_without_qt():
    import subprocess
    import sys

    code = ("import sys, studio.replay.saved_tests, studio.replay.headless, engine.record; "
            "sys.exit('PySide6' in sys.modules)")  # fmt: skip
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_replay_from_a_checkpoint(recorded, capfd):
    from engine.checkpoint.sqlite import SqliteSaver

    spec, db, _, _ = recorded
    with SqliteSaver.from_conn_string(db) as saver:
        steps = {t.metadata["step"]: t.config["configurable"]["checkpoint_id"]
                 for t in saver.list({"configurable": {"thread_id": "main"}})}  # fmt: skip
    code, lines, err = _replay(capfd, spec, db, "--from", steps[0], "--as", "from-0")
    assert (code, err) == (0, "")
    assert lines[0].startswith("replayed 'main' as 'from-0': 3 call(s) from the recording")
    assert lines[-1] == "the same: every step's tasks, writes and state"
    code, _, err = _replay(capfd, spec, db, "--from", "no-such-id", "--as", "x")
    assert code == 2 and "thread 'main' has no checkpoint 'no-such-id'" in err
    code, _, err = _replay(capfd, spec, db, "--as", "from-0")
    assert code == 2 and "thread 'from-0' exists already: replay into a new thread" in err
