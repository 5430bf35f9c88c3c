"""A graph from code compiled with its own breakpoints (`interrupt_before=[...]`, as a tutorial
pauses before a review node) shows them where the studio's are shown, the run toolbar and the
node's card, and clearing one there clears it: the runs paused there while the toolbar said
"No breakpoints", and nothing could turn the pause off."""

from __future__ import annotations

import textwrap

import pytest

from graphspec.model import Breakpoints
from tests.studio.code_programs import open_program, step_to_end

pytestmark = pytest.mark.gui

REVIEWED = textwrap.dedent("""\
    from typing import TypedDict

    from langgraph.checkpoint.memory import MemorySaver
    from langgraph.graph import END, START, StateGraph


    class Draft(TypedDict):
        text: str
        approved: bool


    def build():
        builder = StateGraph(Draft)
        builder.add_node("write", lambda s: {"text": s["text"] + " draft"})
        builder.add_node("review", lambda s: {"approved": True})
        builder.add_edge(START, "write")
        builder.add_edge("write", "review")
        builder.add_edge("review", END)
        return builder.compile(checkpointer=MemorySaver(), interrupt_before=["review"])


    def main():
        graph = build()
        graph.invoke({"text": "memo", "approved": False}, {"configurable": {"thread_id": "r1"}})


    if __name__ == "__main__":
        main()
""")


def test_the_graphs_own_breakpoint_is_shown_and_can_be_cleared(qtbot, window, tmp_path):
    script = tmp_path / "reviewed.py"
    script.write_text(REVIEWED, encoding="utf-8")
    open_program(qtbot, window, script)
    spec, runner = window.document.spec, window.runner
    assert window.document.code is not None and spec.breakpoints.before == ["review"]
    assert window.breakpoints_button.text() == "Breakpoints: before review"
    start = {"text": "memo", "approved": False}
    step_to_end(qtbot, window, start, until="breakpoint")
    assert runner.state == "breakpoint" and runner.view.history[0].next == ("review",)
    assert runner.view.values == {"text": "memo draft", "approved": False}
    # cleared on the toolbar, the next run goes through the review node
    window.editor.set_breakpoints(Breakpoints(), "Clear breakpoint before review")
    assert window.breakpoints_button.text() == "No breakpoints"
    step_to_end(qtbot, window, start)
    assert runner.state == "finished"
    assert runner.view.values == {"text": "memo draft", "approved": True}


def test_every_node_breakpoint_is_shown_on_each_node_and_can_be_cleared(qtbot, window, tmp_path):
    """interrupt_before="*" pauses before every node: the toolbar said "No breakpoints"."""
    script = tmp_path / "reviewed_all.py"
    script.write_text(REVIEWED.replace('interrupt_before=["review"]', 'interrupt_before="*"'),
                      encoding="utf-8")  # fmt: skip
    open_program(qtbot, window, script)
    runner = window.runner
    assert window.document.spec.breakpoints.before == ["write", "review"]
    assert window.breakpoints_button.text() == "Breakpoints: before write, before review"
    start = {"text": "memo", "approved": False}
    step_to_end(qtbot, window, start, until="breakpoint")
    assert runner.state == "breakpoint" and runner.view.history[0].next == ("write",)
    # every one cleared, the next run goes through without a pause
    window.editor.set_breakpoints(Breakpoints(), "Clear breakpoints")
    assert window.breakpoints_button.text() == "No breakpoints"
    step_to_end(qtbot, window, start)
    assert runner.state == "finished"
    assert runner.view.values == {"text": "memo draft", "approved": True}
