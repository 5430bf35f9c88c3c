"""`superstep studio PROGRAM --steps N --context JSON` steps the program with that run context
(the Run input dock's Context field), as the command line's `run --context` runs it: a small
app's tool (tests/programs/gh_weather_puns) reads runtime.context.user_id, and without a way to
give it, the steps could only show the tool failing."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.checkpoint.sqlite import SqliteSaver

pytestmark = pytest.mark.gui

PROGRAMS = Path(__file__).parents[1] / "programs"


def tool_answers(home: Path, context: list[str], monkeypatch) -> list[str]:
    asked = {"messages": [{"role": "user", "content": "what is the weather outside?"}]}
    done = subprocess.run(
        [sys.executable, "-m", "studio.cli", "studio", str(PROGRAMS / "gh_weather_puns" / "main.py"),
         "--trust", "--steps", "3", "--input", json.dumps(asked), *context, "--quit"],
        cwd=home, capture_output=True, text=True, timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "SUPERSTEP_STUDIO_HOME": str(home),
             "PYTHONPATH": os.pathsep.join([str(PROGRAMS), os.environ.get("PYTHONPATH", "")])},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [db] = (home / "runs").glob("*.checkpoints.sqlite")
    # the saved structured response is the app's class: reading a checkpoint imports no code
    monkeypatch.syspath_prepend(str(PROGRAMS / "gh_weather_puns"))
    importlib.import_module("model.response")
    try:
        with SqliteSaver.from_conn_string(str(db)) as saver:
            newest = next(iter(saver.list({"configurable": {"thread_id": "run-1"}})))
    finally:  # the app's package goes with the test
        for name in [n for n in sys.modules if n == "model" or n.startswith("model.")]:
            del sys.modules[name]
    messages = newest.checkpoint["channel_values"]["messages"]
    return [m.content for m in messages if m.type == "tool"]


def test_the_steps_run_with_the_context_given(tmp_path, monkeypatch):
    given, none = tmp_path / "given", tmp_path / "none"
    given.mkdir(), none.mkdir()
    assert tool_answers(given, ["--context", '{"user_id": "1"}'], monkeypatch)[0] == "Florida"
    assert tool_answers(none, [], monkeypatch)[0].startswith("Tool error:")  # its middleware
