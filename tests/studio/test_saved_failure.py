"""A thread whose last run failed is shown as failed, wherever the run happened: a tutorial
script's `main()` ran its graph into an exception (and caught it) before the studio opened it,
so the thread the studio shows first stopped at that node. The studio said "Paused before check:
Continue runs on", as if a breakpoint had stopped it; it names the node and the error, marks the
node on the canvas and lets Continue run it again."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.studio.code_programs import open_program

pytestmark = pytest.mark.gui

SCRIPT = """\
from typing import TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph


class State(TypedDict):
    n: int


def inc(state):
    return {"n": state["n"] + 1}


def check(state):
    if state["n"] > 2:
        raise RuntimeError(f"n went too far: {state['n']}")
    return {}


def main():
    builder = StateGraph(State)
    builder.add_node("inc", inc)
    builder.add_node("check", check)
    builder.add_edge(START, "inc")
    builder.add_edge("inc", "check")
    graph = builder.compile(checkpointer=InMemorySaver())
    graph.invoke({"n": 0}, {"configurable": {"thread_id": "fine"}})
    try:
        graph.invoke({"n": 5}, {"configurable": {"thread_id": "demo"}})
    except RuntimeError as exc:
        print("failed:", exc)


if __name__ == "__main__":
    main()
"""


def test_a_thread_the_program_ran_into_an_error_opens_failed_at_its_node(qtbot, window, tmp_path):
    script = tmp_path / "tutorial.py"
    script.write_text(SCRIPT, encoding="utf-8")
    open_program(qtbot, window, script, "__main__")
    runner = window.runner
    qtbot.waitUntil(lambda: runner.view is not None and runner.view.thread_id == "demo",
                    timeout=10000)  # fmt: skip
    assert runner.state == "failed"
    assert runner.status.text() == (
        "The last run on thread demo failed in check: RuntimeError('n went too far: 6') — "
        "Continue runs it again"
    )
    assert runner.overlay.errors == {"check": "RuntimeError('n went too far: 6')"}
    assert runner.continue_button.isEnabled()
    # the thread that ran fine shows no error, and the failed one shows it again
    runner.choose_thread("fine")
    qtbot.waitUntil(lambda: runner.view.thread_id == "fine" and not runner.session.busy)
    assert runner.state == "finished" and runner.overlay.errors == {}
    runner.choose_thread("demo")
    qtbot.waitUntil(lambda: runner.view.thread_id == "demo" and not runner.session.busy)
    assert runner.state == "failed" and runner.overlay.errors
    qtbot.mouseClick(runner.continue_button, Qt.MouseButton.LeftButton)  # runs check again
    qtbot.waitUntil(lambda: not runner.session.busy, timeout=20000)
    assert runner.state == "failed" and runner.last_failure.element_id == "check"
    assert "n went too far: 6" in runner.last_failure.message
