"""A graph a program's script ran with no checkpointer opens with the script's own input in the
Run input dock, and the first Step runs from it, the live objects: a tutorial's main() invoked
its graph with langchain messages, and the studio's run started from `{}` ("No messages found
in state"). JSON shows as JSON; anything else as Python, read-only, until another replaces it."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from tests.cli.program_scripts import write_message_script, write_script
from tests.studio.code_programs import open_program

pytestmark = pytest.mark.gui


def _step_to_end(qtbot, runner, limit: int = 10) -> None:
    for _ in range(limit):
        qtbot.mouseClick(runner.step_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not runner.session.busy, timeout=20000)
        assert runner.state != "failed", runner.last_failure and runner.last_failure.traceback
        if runner.state == "finished":
            return
    raise AssertionError(f"not finished: {runner.state}")


def test_the_first_step_runs_from_the_scripts_own_messages(qtbot, window, tmp_path):
    script = write_message_script(tmp_path / "prog")
    open_program(qtbot, window, script, "__main__")
    runner, panel = window.runner, window.runner.input_panel
    # the dock shows it as Python (a HumanMessage is no JSON), read-only, and says whose it is
    assert panel.script_chosen and panel.chooser.currentText() == "the script's input"
    assert panel.editor.isReadOnly()
    assert "HumanMessage(content='what is a superstep?'" in panel.editor.toPlainText()
    assert panel.script_note.isVisible() and panel.type_another.isVisible()
    assert panel.script_note.text() == (
        "The script's own input (Python objects), of its first of 2 runs"
    )
    assert "this is its first run's input" in panel.script_note.toolTip()
    _step_to_end(qtbot, runner)
    assert runner.view.values["answer"] == "you asked: what is a superstep?"
    # the objects stay in memory: the thread book (JSON on disk) keeps no input for the run
    assert runner.book.threads[runner.thread_id].input is None
    assert "superstep?" not in runner.book.path.read_text(encoding="utf-8")
    # Type another: the same input as JSON, editable; a dict is no message to the node
    runner.new_thread()
    qtbot.mouseClick(panel.type_another, Qt.MouseButton.LeftButton)
    assert not panel.script_chosen and not panel.editor.isReadOnly()
    assert not panel.script_note.isVisible()
    typed = json.loads(panel.editor.toPlainText())
    assert typed["messages"][0]["content"] == "what is a superstep?"
    _step_to_end(qtbot, runner)
    assert runner.view.values["answer"] == "No messages found in state"
    # choosing it again brings the script's input back, and the Run button runs from it too
    panel.chooser.setCurrentIndex(1)
    panel.chooser.setCurrentIndex(0)
    assert panel.script_chosen and panel.editor.isReadOnly()
    runner.new_thread()
    qtbot.mouseClick(runner.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: runner.state == "finished" and runner.view is not None
                    and runner.view.thread_id == runner.thread_id, timeout=20000)  # fmt: skip
    assert runner.view.values["answer"] == "you asked: what is a superstep?"


def test_a_json_input_shows_as_json_and_typing_over_it_replaces_it(qtbot, window, tmp_path):
    script = write_script(tmp_path / "prog")  # __main__2 doubles the {"n": 3} it was given
    open_program(qtbot, window, script, "__main__2")
    runner, panel = window.runner, window.runner.input_panel
    assert panel.script_chosen and not panel.editor.isReadOnly()
    assert json.loads(panel.editor.toPlainText()) == {"n": 3}
    assert panel.script_note.text() == "The script's own input"
    assert not panel.type_another.isVisible()
    _step_to_end(qtbot, runner)
    assert runner.view.values == {"n": 6}
    runner.new_thread()
    panel.editor.setPlainText('{"n": 20}')
    assert not panel.script_chosen and not panel.script_note.isVisible()
    _step_to_end(qtbot, runner)
    assert runner.view.values == {"n": 40}


def test_a_step_runs_with_the_scripts_config_keys_and_run_context(qtbot, window, tmp_path):
    # the node reads config["configurable"]["user_id"] and runtime.context: KeyError before
    from tests.cli.test_script_config import write_greeter

    open_program(qtbot, window, write_greeter(tmp_path / "prog"))
    runner = window.runner
    runner.new_thread()
    _step_to_end(qtbot, runner)
    assert runner.view.values["text"] == "en: hello Ada (u-7)"
    runner.new_thread()  # the Context field replaces the script's context
    runner.input_panel.context_editor.setText('{"code": "fr"}')
    _step_to_end(qtbot, runner)
    assert runner.view.values["text"] == "fr: hello Ada (u-7)"
