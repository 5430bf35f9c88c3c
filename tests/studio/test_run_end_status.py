"""Stepping a graph: the step after which nothing is next ends the run, and the status line says
it ended (it used to ask for another Step, the checkpoint's next already the end)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from tests.studio.code_programs import open_program

pytestmark = pytest.mark.gui

PROGRAM = """\
from typing_extensions import TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    text: str


sub = StateGraph(State)
sub.add_node("shout", lambda state: {"text": state["text"].upper()})
sub.add_edge(START, "shout")
sub.add_edge("shout", END)

main = StateGraph(State)
main.add_node("sub", sub.compile())
main.add_edge(START, "sub")
main.add_edge("sub", END)
"""


def step(qtbot, window, tmp_path, clicks: int, durability: str = "async") -> list[str]:
    """Open the program, step a new thread `clicks` times; the status line after each."""
    path = tmp_path / "09_subgraph.py"
    path.write_text(PROGRAM, encoding="utf-8")
    open_program(qtbot, window, path, "main")
    runner = window.runner
    runner.new_thread()
    runner.durability.setCurrentText(durability)
    runner.input_panel.editor.setPlainText(json.dumps({"text": "owl"}))
    texts = []
    for _ in range(clicks):
        qtbot.mouseClick(runner.step_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not runner.session.busy, timeout=20000)
        texts.append(runner.status.text())
    return texts


def test_the_step_that_leaves_nothing_next_says_the_run_finished(qtbot, window, tmp_path):
    texts = step(
        qtbot, window, tmp_path, 2
    )  # __start__, then sub: its checkpoint's next is the end
    runner = window.runner
    assert "Step or Continue for more" in texts[0]  # sub is next
    assert runner.view.history[0].next == ()
    assert runner.view.values == {"text": "OWL"}
    assert runner.state == "finished", texts
    assert "Step or Continue" not in texts[1]
    assert texts[1] == f"Finished: 3 checkpoints on thread {runner.thread_id}"
    assert not runner.continue_button.isEnabled()


def test_with_durability_exit_a_step_is_one_step(qtbot, window, tmp_path):
    """Nothing is saved before the run's end: the thread's checkpoint says nothing of what is next,
    so the step ends where it ran, as with any durability."""
    [text] = step(qtbot, window, tmp_path, 1, durability="exit")
    assert text == "Step 0: ran __start__ — Step or Continue for more"
    assert window.runner.state == "paused"
