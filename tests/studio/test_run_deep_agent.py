"""The deep_agent template run step by step in the studio: the Deep agent dock shows the agent's
virtual filesystem as a tree with contents and per-step diffs, and its to-dos as a checklist
(docs/run-deep-agent.png: `SUPERSTEP_SCREENSHOT_DIR=docs python -m pytest
tests/studio/test_run_deep_agent.py`)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from studio.run.deep_agent_panel import DeepAgentPanel
from studio.run.panels import TracePanel
from studio.run.trace_model import ns_label
from tests.studio.test_run_screenshot import save_grab
from tests.studio.test_run_steps import click, idle, open_template

pytestmark = pytest.mark.gui
pytest.importorskip("deepagents")


def _choose(qtbot, panel: DeepAgentPanel, text: str) -> None:
    """Pick the first snapshot whose label mentions `text`, as a user picks it in the list."""
    labels = [panel.chooser.itemText(i) for i in range(panel.chooser.count())]
    index = next(i for i, label in enumerate(labels) if text in label)
    panel.chooser.setCurrentIndex(index)
    qtbot.waitUntil(lambda: panel.current is panel.history.snapshots[index])


def test_files_and_todos_follow_the_deep_agent_step_by_step(qtbot, window, tmp_path):
    win = window
    win.resize(1280, 720)
    runner = open_template(qtbot, win, "deep_agent")
    panel = win.findChild(DeepAgentPanel, "deepAgentPanel")
    assert panel is not None and panel.chooser.count() == 0
    click(qtbot, win, "stepButton")  # step 0: the input
    idle(qtbot, win)
    assert panel.chooser.count() == 0
    click(qtbot, win, "stepButton")  # step 1: the deep agent runs, supersteps of its own inside
    idle(qtbot, win, timeout=30000)
    dock = win.findChild(QDockWidget, "deepAgentDock")
    assert dock.isVisible() and not dock.visibleRegion().isEmpty()  # brought forward
    assert panel.file_paths() == ["/notes/moon.md", "/report.md"]
    # the latest snapshot of the agent (not its parent's copy of the to-dos): all done
    assert panel.chooser.currentText() == "writer, step 13: /report.md, to-dos"
    states = panel.todo_states()
    assert [s for _, s in states] == [Qt.CheckState.Checked, Qt.CheckState.Checked]

    # back to the step the researcher's notes reached the agent: only they exist, all new
    _choose(qtbot, panel, "writer, step 7: /notes/moon.md")
    assert panel.file_paths() == ["/notes/moon.md"]
    assert "384,400 km" in panel.view.toPlainText()
    assert "+- 384,400 km from Earth" in panel.diff.toPlainText()
    assert panel.todo_states()[0] == ("Research the Moon  (in progress)",
                                      Qt.CheckState.PartiallyChecked)  # fmt: skip

    # the report's step: it is new and marked, the notes are unchanged
    _choose(qtbot, panel, "writer, step 13: /report.md, to-dos")
    item = panel.tree.currentItem()
    assert item.data(0, Qt.ItemDataRole.UserRole) == "/report.md" and item.text(1) == "●"
    assert panel.view.toPlainText().startswith("# The Moon")
    notes = panel.tree.findItems("moon.md", Qt.MatchFlag.MatchRecursive)[0]
    panel.tree.setCurrentItem(notes)
    assert panel.diff.toPlainText() == "(unchanged by this step)"

    # the subagent ran under its own namespace: step into it, its supersteps and channels
    trace_panel = win.findChild(TracePanel, "tracePanel")
    inner = [ns for ns in trace_panel.scopes() if ns_label(ns) == "writer › tools"]
    assert inner, trace_panel.scopes()
    trace_panel.step_into(inner[0])
    text = "\n".join(trace_panel.texts())
    assert "runs model" in text and "write_file" in text
    assert '"/notes/moon.md"' in runner.channels.row_text("files")[2]  # its files, as it left them
    trace_panel.step_into(None)

    assert not runner.paused  # the agent's step was the last: nothing next, the run ended
    _choose(qtbot, panel, "writer, step 13")
    panel.tree.setCurrentItem(panel.tree.findItems("report.md", Qt.MatchFlag.MatchRecursive)[0])
    assert panel.diff.toPlainText().startswith("--- /report.md before")
    image = save_grab(win, "run-deep-agent.png", tmp_path)
    assert image.width() >= 1280 and image.height() >= 720
