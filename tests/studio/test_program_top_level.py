"""The studio opens the graphs a program's top-level code ran (no `if __name__ == "__main__":`
guard: `asyncio.run(main())` at the end of the file) where the program left them, saying they
were run by its top-level code; top-level code that never ends is stopped, from the dialog or,
with nobody to answer, after a while."""

from __future__ import annotations

import pytest

from tests.cli.program_scripts import (
    TOP_LEVEL_ASYNC,
    TOP_LEVEL_SYNC,
    script_output_on_langgraph,
    write_top_level,
)
from tests.studio.code_programs import open_program, step_to_end, stop_from_dialog

pytestmark = pytest.mark.gui

FOREVER = "while True: __import__('time').sleep(0.02)"


def test_the_graph_an_async_main_ran_at_top_level_opens_on_its_thread(qtbot, window, tmp_path):
    script = write_top_level(tmp_path, TOP_LEVEL_ASYNC, "top_async.py")
    printed = script_output_on_langgraph(script)
    open_program(qtbot, window, script)
    runner = window.runner
    code = window.document.code
    assert code is not None and code.name == "__main__" and code.saver is code.graph.checkpointer
    assert {n.id for n in window.document.spec.nodes} >= {"add_one"}
    qtbot.waitUntil(lambda: runner.view is not None and runner.view.thread_id == "top-1",
                    timeout=10000)  # fmt: skip
    assert runner.view.values == printed
    assert "run by its top-level code" in window.statusBar().currentMessage()
    step_to_end(qtbot, window, {"n": 10})
    assert runner.view.values == {"n": 11}


def test_the_second_graph_a_sync_main_ran_at_top_level(qtbot, window, tmp_path):
    script = write_top_level(tmp_path, TOP_LEVEL_SYNC, "top_sync.py")
    open_program(qtbot, window, script, "__main__2")
    assert {n.id for n in window.document.spec.nodes} >= {"negate"}
    assert "run by its top-level code" in window.statusBar().currentMessage()
    step_to_end(qtbot, window, {"n": 5})
    assert window.runner.view.values == {"n": -5}


def test_top_level_code_that_never_ends_is_stopped_from_the_dialog_and_opens(
    qtbot, window, tmp_path, monkeypatch
):
    from studio.python_open import open_python

    monkeypatch.setattr("studio.main_block_wait.SHOW_AFTER", 0.2)
    script = write_top_level(tmp_path, TOP_LEVEL_SYNC, "top_sync.py", stop=FOREVER)
    said = stop_from_dialog(qtbot, window)
    assert open_python(window, script, "__main__", trusted=True), window.load_errors
    assert said and "Running top_sync.py's top-level code" in said[-1]
    assert "Graphs it has run so far: 2" in said[-1]
    assert "run by its top-level code, which stopped: it was still running and was stopped" in (
        window.statusBar().currentMessage()
    )
    step_to_end(qtbot, window, {"n": 5})
    assert window.runner.view.values == {"n": 15}


def test_with_nobody_to_answer_top_level_code_that_never_ends_is_stopped_after_a_while(
    qtbot, window, tmp_path, monkeypatch
):
    # `superstep studio SCRIPT --quit` (or a screenshot) must not wait for ever
    from studio.python_open import open_python

    monkeypatch.setattr("studio.main_block_wait.UNATTENDED_LIMIT", 0.3)
    script = write_top_level(tmp_path, TOP_LEVEL_SYNC, "top_sync.py", stop=FOREVER)
    assert open_python(window, script, "__main__", trusted=True, ask=False), window.load_errors
    assert "it was still running and was stopped" in window.statusBar().currentMessage()


def test_top_level_code_that_only_makes_its_graph_opens_the_graph_it_made(qtbot, window, tmp_path):
    drawing = TOP_LEVEL_SYNC.replace("\nmain()\n", "\nprint(build(triple).get_graph())\n")
    script = write_top_level(tmp_path, drawing, "draw_top.py")
    open_program(qtbot, window, script)
    assert {n.id for n in window.document.spec.nodes} >= {"triple"}
    assert "made by its top-level code, which ran none" in window.statusBar().currentMessage()


def test_a_module_graph_its_top_level_code_ran_opens_on_that_thread(qtbot, window, tmp_path):
    # a tutorial's `graph = builder.compile(checkpointer=...)` then `graph.invoke(...)`, no
    # guard: the studio took `graph` as a fresh graph, and its first step from {} raised
    from tests.cli.test_module_graph_run_on_import import REVIEW

    script = tmp_path / "review_at_import.py"
    script.write_text(REVIEW, encoding="utf-8")
    open_program(qtbot, window, script)
    runner, code = window.runner, window.document.code
    assert code is not None and code.saver is code.graph.checkpointer
    qtbot.waitUntil(lambda: runner.view is not None and runner.view.thread_id == "doc_001",
                    timeout=10000)  # fmt: skip
    assert runner.view.values == {"title": "Q4 report", "stage": "read Q4 report"}
    assert "run by its top-level code" in window.statusBar().currentMessage()
    assert runner.input_panel.script_chosen  # a new run starts from the code's own input
