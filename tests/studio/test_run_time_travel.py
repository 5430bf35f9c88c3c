"""Interrupts answered from the panel, errors marked on the node that raised, trust, compile
errors, replay and fork from the checkpoint history."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QPushButton

from graphspec.io import read_spec
from graphspec.templates import TEMPLATES_DIR
from studio.run.panels import HistoryPanel, InterruptPanel, TracePanel
from tests.studio.test_run_steps import click, idle, open_template, run_template

pytestmark = pytest.mark.gui

BOOM = "def boom(state):\n    detail = 'no luck'\n    raise ValueError(f'boom: {detail}')\n"


def test_interrupt_panel_answers_and_resumes(qtbot, window):
    win = window
    runner = open_template(qtbot, win, "approval")
    panel = win.findChild(InterruptPanel, "interruptPanel")
    assert panel.isHidden()
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    qtbot.waitUntil(panel.isVisible)
    payload = json.loads(panel.findChild(QPlainTextEdit, "interruptPayload").toPlainText())
    assert payload == {"prompt": "Publish this draft?", "payload": "A post about owls"}
    assert "ask is waiting" in panel.title.text()
    answer = panel.findChild(QLineEdit, "interruptAnswer")
    answer.clear()
    qtbot.keyClicks(answer, "false")
    click(qtbot, win, "resumeButton")
    idle(qtbot, win)
    assert runner.view.values["status"] == "rejected" and runner.view.values["approved"] is False
    assert not runner.view.interrupts and panel.isHidden()
    assert "reject" in "\n".join(win.findChild(TracePanel, "tracePanel").texts())


def test_a_bad_answer_is_refused_in_the_panel(qtbot, window):
    win = window
    run_template(qtbot, win, "approval")
    panel = win.runner.interrupt_panel
    panel.answer.setText("not json")
    click(qtbot, win, "resumeButton")
    assert panel.isVisible() and "not JSON" in panel.error.text()


def open_variant(qtbot, win, tmp_path, template: str, change) -> None:
    """Save a changed copy of a template beside the test and open it (untrusted, like any file)."""
    data = read_spec(TEMPLATES_DIR / f"{template}.json").model_dump(mode="json")
    change(data)
    path = tmp_path / f"{template}-variant.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert win.open_path(path)
    idle(qtbot, win)


def _boom(data: dict) -> None:
    data["nodes"][1] = {"id": "b", "position": {"x": 100, "y": 250}, "kind": "function",
                        "code": BOOM, "function": "boom"}  # fmt: skip


def test_untrusted_code_is_refused_then_an_error_marks_its_node(qtbot, window, tmp_path):
    win = window
    open_variant(qtbot, win, tmp_path, "router", _boom)
    runner = win.runner
    click(qtbot, win, "runButton")
    assert not runner.session.busy and "trust it" in runner.status.text()
    assert win.trust_banner.isVisible()
    click(qtbot, win, "trustButton")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    failure = runner.last_failure
    assert failure is not None and failure.element_id == "b"
    assert "ValueError: boom: no luck" in failure.message
    view = win.findChild(QPlainTextEdit, "tracebackView")
    assert view.isVisible()
    assert "raise ValueError(f'boom: {detail}')" in view.toPlainText()  # the user's own line
    assert runner.overlay.errors == {"b": "ValueError: boom: no luck"}
    assert [i for i in win.scene.items() if i.data(0) == "run:b"]
    assert "b raised" in "\n".join(win.findChild(TracePanel, "tracePanel").texts())
    assert runner.view is not None and runner.view.next == ("b",)  # the history shows step 1
    click(qtbot, win, "runButton")  # the app carries on: another run works the same way
    idle(qtbot, win)
    assert runner.last_failure.element_id == "b"


def test_a_compile_error_names_the_element(qtbot, window, tmp_path):
    win = window
    open_variant(
        qtbot,
        win,
        tmp_path,
        "router",
        lambda data: data["conditional_edges"][0].update(path_map=["b", "nowhere"]),
    )
    click(qtbot, win, "stepButton")
    idle(qtbot, win)
    failure = win.runner.last_failure
    assert failure is not None and failure.message.startswith("Cannot compile")
    assert failure.element_id == "route" and "nowhere" in failure.message


def test_fork_from_history_starts_a_new_branch(qtbot, window):
    win = window
    runner = run_template(qtbot, win, "time_travel")
    history = win.findChild(HistoryPanel, "historyPanel")
    assert len(history.model.nodes) == 5
    entry = next(e for e in history.entries if e.step == 1)  # value 6, next add_ten
    history.select(entry.checkpoint_id)
    assert entry.next == ("add_ten",)
    state = json.loads(history.editor.toPlainText())
    assert state["value"] == 6  # the editor shows the chosen checkpoint
    state["value"] = 100
    history.editor.setPlainText(json.dumps(state))
    click(qtbot, win, "forkButton")
    idle(qtbot, win)
    assert runner.view.values["value"] == 12100  # (100 + 10) ** 2
    assert runner.view.values["log"][-1] == "square -> 12100"
    ids = [e.checkpoint_id for e in runner.view.history]
    assert len(ids) == 8 and entry.checkpoint_id in ids  # the old branch stays
    fork_point = next(e for e in runner.view.history if e.source == "update")
    assert fork_point.parent_id == entry.checkpoint_id  # branches off the chosen checkpoint
    # the first run stays the trunk; the fork nests under the checkpoint it branched off
    assert history.model.texts() == [
        "-1 input -> __start__ [1]",
        "0 loop -> double [1]",
        "1 loop -> add_ten [1]",
        "  2 update -> add_ten [2]",
        "  3 loop -> square [2]",
        "  4 loop -> (end) [2] tip",
        "2 loop -> square [1]",
        "3 loop -> (end) [1]",
    ]


def test_replay_reruns_from_a_past_checkpoint(qtbot, window):
    win = window
    runner = run_template(qtbot, win, "time_travel")
    history = win.findChild(HistoryPanel, "historyPanel")
    history.select(next(e.checkpoint_id for e in history.entries if e.step == 2))  # next square
    qtbot.mouseClick(history.findChild(QPushButton, "replayButton"), Qt.MouseButton.LeftButton)
    idle(qtbot, win)
    assert runner.view.values["value"] == 256
    assert len(runner.view.history) > 5
    text = "\n".join(win.findChild(TracePanel, "tracePanel").texts())
    assert "fork checkpoint" in text and "runs square" in text and "runs add_ten" not in text


def test_fork_without_edits_says_so(qtbot, window):
    win = window
    run_template(qtbot, win, "time_travel")
    history = win.runner.history
    history.select(history.entries[1].checkpoint_id)
    click(qtbot, win, "forkButton")
    assert not win.runner.session.running and "Nothing edited" in history.status.text()


def _two_questions(data: dict) -> None:
    ask = next(n for n in data["nodes"] if n["id"] == "ask")
    second = {**ask, "id": "ask_editor", "prompt": "Editor, publish?", "resume_key": "status"}
    second["position"] = {"x": 400, "y": 200}
    data["nodes"] = [ask, second]
    data["edges"], data["conditional_edges"] = [], []
    data["entry"], data["finish"] = ["ask", "ask_editor"], ["ask", "ask_editor"]
    data["inputs"] = [{"name": "draft", "value": {"draft": "owls"}}]


def test_parallel_interrupts_are_answered_by_id(qtbot, window, tmp_path):
    win = window
    open_variant(qtbot, win, tmp_path, "approval", _two_questions)
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    panel = win.runner.interrupt_panel
    assert panel.isVisible() and len(panel.pending) == 2 and panel.chooser.isVisibleTo(panel)
    panel.chooser.setCurrentIndex([p[0] for p in panel.pending].index("ask_editor"))
    assert "Editor, publish?" in panel.payload.toPlainText()
    panel.answer.setText('"edited"')
    click(qtbot, win, "resumeButton")
    idle(qtbot, win)
    assert [p[0] for p in panel.pending] == ["ask"] and panel.isVisible()  # one still waits
    assert not panel.chooser.isVisibleTo(panel)
    panel.answer.setText("true")
    click(qtbot, win, "resumeButton")
    idle(qtbot, win)
    values = win.runner.view.values
    assert (
        values["status"] == "edited"
        and values["approved"] is True
        and not win.runner.view.interrupts
    )


def test_stop_pauses_after_the_superstep_and_continue_finishes(qtbot, window):
    import threading

    win = window
    runner = open_template(qtbot, win, "time_travel")
    gate = threading.Event()
    runner.session.submit(gate.wait)  # hold the worker so Stop lands before the first step
    click(qtbot, win, "runButton")
    click(qtbot, win, "stopButton")
    gate.set()
    idle(qtbot, win)
    assert runner.paused and "Stopped after the current superstep" in runner.status.text()
    assert len(runner.view.history) == 2  # the input checkpoint and step 0
    click(qtbot, win, "continueButton")
    idle(qtbot, win)
    assert not runner.paused and runner.view.values["value"] == 256


def test_a_tool_call_review_is_approved_with_one_click(qtbot, window):
    pytest.importorskip("engine.agents")
    win = window
    runner = run_template(qtbot, win, "agent_hitl")
    panel = runner.interrupt_panel
    assert panel.isVisible() and "send_email" in panel.payload.toPlainText()
    assert json.loads(panel.answer.text()) == {
        "decisions": [{"type": "approve"}]
    }  # the saved resume
    assert panel.quick["reject"].isVisibleTo(panel)
    click(qtbot, win, "approveAllButton")
    idle(qtbot, win)
    assert not runner.view.interrupts and runner.last_failure is None
    assert len(runner.view.values["messages"]) > 2
