"""A new thread is new even before the studio has listed the threads its checkpoint database
holds (a worker lists them after the window opens): `superstep studio PROGRAM --steps N` on a
program run before, in the same studio home, took `run-1` again and ran on top of that old
thread's history (seen with tests/programs/gh_voyage_factory.py: one run of the command in two
continued the last one's thread). The studio's own thread book knows the threads it ran."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.studio.code_programs import open_program

pytestmark = pytest.mark.gui

PROGRAM = Path(__file__).parents[1] / "programs" / "gh_subgraph_function.py"


def test_a_new_thread_never_takes_a_thread_the_studio_ran_before(qtbot, home):
    from studio.main_window import MainWindow
    from studio.python_open import open_python

    first = MainWindow()
    qtbot.addWidget(first)
    open_program(qtbot, first, PROGRAM, "graph")
    runner = first.runner
    runner.new_thread()
    runner.input_panel.editor.setPlainText(json.dumps({"foo": "hello"}))
    runner.run()
    qtbot.waitUntil(lambda: runner.state == "finished", timeout=20000)
    ran = runner.thread_id
    first.close()

    again = MainWindow()  # the next session, on the same studio home
    qtbot.addWidget(again)
    assert open_python(again, PROGRAM, "graph", trusted=True), again.load_errors
    again.runner.new_thread()  # at once: its database's threads are not listed yet
    assert again.runner.thread_id != ran
    qtbot.waitUntil(lambda: not again.runner.session.busy, timeout=10000)
