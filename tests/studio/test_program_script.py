"""The studio opens a script's graphs (built and run by its `if __name__ == "__main__":` block)
where the script left them: the graph drawn from itself, its own checkpointer's threads listed,
the thread it ran last shown with the script's checkpoints, and it steps new threads to
langgraph's result. A script that fails after its runs still opens, saying how it stopped."""

from __future__ import annotations

import pytest

from tests.cli.program_scripts import script_output_on_langgraph, write_script
from tests.studio.code_programs import open_program, step_to_end, stop_from_dialog

pytestmark = pytest.mark.gui


def test_a_scripts_graph_opens_on_the_thread_it_ran_last(qtbot, window, tmp_path):
    script = write_script(tmp_path / "prog")
    printed = script_output_on_langgraph(script)
    open_program(qtbot, window, script, "__main__")
    runner = window.runner
    code = window.document.code
    assert code is not None and code.name == "__main__" and code.saver is code.graph.checkpointer
    assert {n.id for n in window.document.spec.nodes} >= {"add_one"}
    qtbot.waitUntil(lambda: runner.view is not None and runner.view.thread_id == "second",
                    timeout=10000)  # fmt: skip
    assert runner.thread_selector.currentData() == "second"
    assert {"first", "second"} <= set(runner.threads)
    # the script's second run: its input checkpoint, START's, add_one's
    assert len(runner.view.history) == 3
    assert runner.view.values == printed[1]
    assert "__main__" in window.statusBar().currentMessage()
    # and new runs step as on langgraph (add_one: n + 1)
    step_to_end(qtbot, window, {"n": 10})
    assert runner.view.values == {"n": 11}


def test_the_second_graph_and_a_script_that_stopped(qtbot, window, tmp_path):
    script = write_script(
        tmp_path / "prog", stop="raise ValueError('the report could not be sent')"
    )
    open_program(qtbot, window, script, "__main__2")
    assert {n.id for n in window.document.spec.nodes} >= {"double"}
    message = window.statusBar().currentMessage()
    assert "stopped: ValueError: the report could not be sent" in message
    step_to_end(qtbot, window, {"n": 5})  # no checkpointer of its own: the studio's threads
    assert window.runner.view.values == {"n": 10}


def test_a_script_that_never_ends_is_stopped_from_a_dialog_and_opens(
    qtbot, window, tmp_path, monkeypatch
):
    # a script that serves (or loops) after its runs: File → Open would wait forever
    from PySide6.QtWidgets import QProgressDialog

    from studio.python_open import open_python

    monkeypatch.setattr("studio.main_block_wait.SHOW_AFTER", 0.2)
    script = write_script(tmp_path / "prog", stop="while True: __import__('time').sleep(0.02)")
    said = stop_from_dialog(qtbot, window)
    assert open_python(window, script, "__main__2", trusted=True), window.load_errors
    assert said and "Graphs it has run so far: 2" in said[-1]
    assert "count_script.py" in said[-1]
    dialog = window.findChild(QProgressDialog, "mainBlockProgress")
    assert dialog is None or not dialog.isVisible()
    assert "which stopped: it was still running and was stopped" in (
        window.statusBar().currentMessage()
    )
    step_to_end(qtbot, window, {"n": 5})
    assert window.runner.view.values == {"n": 10}


def test_a_script_that_only_draws_its_graph_opens_the_graph_it_made(qtbot, window, tmp_path):
    from tests.cli.test_program_script import DRAWING_SCRIPT

    script = tmp_path / "draw_script.py"
    script.write_text(DRAWING_SCRIPT.replace("SERVE", "pass"), encoding="utf-8")
    open_program(qtbot, window, script)
    assert {n.id for n in window.document.spec.nodes} >= {"add_one", "twice"}
    message = window.statusBar().currentMessage()
    assert 'made by its if __name__ == "__main__" block, which ran none' in message
    step_to_end(qtbot, window, {"n": 1})
    assert window.runner.view.values == {"n": 4}


def test_with_nobody_to_answer_a_block_that_never_ends_is_stopped_after_a_while(
    qtbot, window, tmp_path, monkeypatch
):
    # `superstep studio SCRIPT --quit` (or a screenshot) must not wait for ever on a server
    from studio.python_open import open_python

    monkeypatch.setattr("studio.main_block_wait.UNATTENDED_LIMIT", 0.3)
    script = write_script(tmp_path / "prog", stop="while True: __import__('time').sleep(0.02)")
    assert open_python(window, script, "__main__", trusted=True, ask=False), window.load_errors
    assert "it was still running and was stopped" in window.statusBar().currentMessage()
