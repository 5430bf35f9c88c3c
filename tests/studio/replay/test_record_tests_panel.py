"""The Tests dock (pytest-qt, offscreen): a thread recorded against the local OpenAI server is
saved as a test; Run all passes with the server stopped, and after a tool edit the test fails,
showing the changed model call and the run diff. Screenshots go to $SUPERSTEP_SCREENSHOT_DIR (docs/ to regenerate them)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from engine.checkpoint.sqlite import SqliteSaver
from graphspec import commands
from studio.cli import main
from studio.replay.tests_panel import TestsPanel
from tests.openai_server import OpenAIServer
from tests.providers.test_cli_providers import INPUT, agent_spec
from tests.studio.test_run_screenshot import save_grab

pytestmark = pytest.mark.gui
EDITED_TOOL = "def add(a: int, b: int) -> int:\n    return a + b + 1\n"


@pytest.fixture
def saved(tmp_path, monkeypatch, qtbot):
    """A recorded agent thread, saved as a test through the panel; the server is stopped."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    spec = tmp_path / "agent.json"
    db = str(tmp_path / "threads.db")
    with OpenAIServer() as server:
        server.reply(tool_calls=[("add", {"a": 2, "b": 3})])
        server.reply("The sum is 5.")
        doc = agent_spec(server.base_url)
        spec.write_text(json.dumps(doc))
        assert main(["run", str(spec), "--trust", "--input", INPUT, "--db", db, "--record"]) == 0
    panel = TestsPanel(tmp_path / "tests", trusted=lambda spec_path: True)  # its tool's code
    qtbot.addWidget(panel)
    panel.resize(900, 700)
    panel.show()
    loaded, path = commands.load(str(spec))
    with SqliteSaver.from_conn_string(db) as saver:
        graph = commands.compile_for_run(loaded, path, trusted=True, checkpointer=saver)
        test = panel.save_thread(graph, spec, "main")
    assert test == tmp_path / "tests" / "test_main.py"
    return panel, spec, doc


def _run(qtbot, panel):
    with qtbot.waitSignal(panel.finished, timeout=20000) as signal:
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    return signal.args[0]


def _results(panel):
    return [(panel.list.topLevelItem(i).text(0), panel.list.topLevelItem(i).text(1))
            for i in range(panel.list.topLevelItemCount())]  # fmt: skip


def test_a_saved_test_passes_then_fails_with_the_diff(saved, qtbot, tmp_path):
    panel, spec, doc = saved
    assert _results(panel) == [("test_main", "not run")]
    assert panel.caption.text().startswith("1 saved test(s) in ")
    [result] = _run(qtbot, panel)
    assert result.passed, result.lines
    assert (
        _results(panel) == [("test_main", "passed")]
        and panel.caption.text() == "1 passed, 0 failed"
    )
    assert panel.failure.toPlainText() == "passed"
    assert panel.diff.caption.text() == "recorded (old) → now (new): the same in every step"

    doc["agents"][0]["tools"][0]["code"] = EDITED_TOOL  # a behaviour-changing edit
    spec.write_text(json.dumps(doc))
    [result] = _run(qtbot, panel)
    assert not result.passed
    assert (
        _results(panel) == [("test_main", "FAILED")]
        and panel.caption.text() == "0 passed, 1 failed"
    )
    failure = panel.failure.toPlainText()
    assert failure.startswith("replay: the 2nd model call of node 'assistant|model' has another")
    assert '-   "content": "5",' in failure and '+   "content": "6",' in failure
    texts = panel.diff.texts()
    assert panel.diff.caption.text() == "recorded (old) → now (new): 1 step(s) differ"
    assert "Step 1 | assistant | assistant" in texts
    assert '  state .messages[2].content | "5" | "6"' in texts
    assert '  assistant wrote .messages[2].content | "5" | "6"' in texts
    assert not save_grab(panel, "record_tests_panel.png", tmp_path).isNull()


def test_a_folder_without_tests_says_how_to_get_one(qtbot, tmp_path):
    panel = TestsPanel(tmp_path)
    qtbot.addWidget(panel)
    assert (
        panel.caption.text() == f"No saved tests in {tmp_path}: save a recorded thread as a test."
    )
    assert not panel.run_button.isEnabled()


def test_a_broken_recording_fails_with_its_name(saved, qtbot, tmp_path):
    panel, _, _ = saved
    (tmp_path / "tests" / "test_main.recording.json").write_text("[]")
    [result] = _run(qtbot, panel)
    assert _results(panel) == [("test_main", "FAILED")]
    assert "test_main.recording.json: it is not a saved test's data" in panel.failure.toPlainText()


def test_the_run_diff_panel_shows_a_new_path_step_by_step(server, saver, qtbot, tmp_path):
    from engine.record import replay_thread
    from studio.replay.run_diff import diff_threads
    from studio.replay.run_diff_panel import RunDiffPanel
    from tests.studio.replay.test_record_diff import build, recorded

    graph = recorded(server, saver)
    edited = build(server, saver, shout=True, check=True)  # a node added, a node's code changed
    assert replay_thread(edited, "t", "r").error is None
    panel = RunDiffPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 420)
    panel.show()
    panel.show_diff(diff_threads(graph, "t", "r", new_graph=edited))
    assert panel.caption.text() == "'t' (old) → 'r' (new): 2 step(s) differ"
    assert panel.texts() == [
        "Path | __start__ → ask → format | __start__ → ask → check → format",
        "Step 0 | __start__ | __start__",
        "Step 1 | ask | ask",
        "Step 2 | format | check",
        '  format wrote | {"answer": "five", "notes": ["formatted"]} | ',
        '  check wrote |  | {"notes": ["checked"]}',
        '  state .answer | "five" | ',
        '  state .notes[0] | "formatted" | "checked"',
        "Step 3 | (no such step) | format",
        "Final state |  | ",
        '  .answer | "five" | "FIVE"',
        '  .notes[0] | "formatted" | "checked"',
        '  .notes[1] |  | "formatted"',
    ]
    assert not save_grab(panel, "record_run_diff.png", tmp_path).isNull()
