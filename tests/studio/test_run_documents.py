"""Nothing of one document's runs stays when another opens, and a run cut short by closing the
window is found again on reopening (issue 27.9): the chat, the run status, the thread selector,
results still on their way, the thread book's status and the thread picked on opening."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog

from graphspec import expression_limits
from graphspec.templates import TEMPLATES_DIR
from studio.run.threads import book_path
from tests.graphspec.helpers import setter, write_spec
from tests.studio.test_run_steps import click, idle, run_template
from tests.studio.test_run_stop import LOOP
from tests.studio.test_run_threads import saved_template

pytestmark = pytest.mark.gui

CTRL = Qt.KeyboardModifier.ControlModifier


def open_with_ctrl_o(win, monkeypatch, path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    QTest.keyClick(win, Qt.Key.Key_O, CTRL)


def selector(runner) -> list[str]:
    return [runner.thread_selector.itemData(i) for i in range(runner.thread_selector.count())]


def test_opening_another_graph_leaves_nothing_of_the_last_ones_runs(qtbot, window, monkeypatch):
    win = window
    runner = run_template(qtbot, win, "react_agent")
    click(qtbot, win, "newThreadButton")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    chat = win.chat_panel
    assert selector(runner) == ["main", "run-2"] and chat.messages and chat.rows.count()
    assert runner.status.text().startswith("Finished")
    open_with_ctrl_o(win, monkeypatch, TEMPLATES_DIR / "router.json")
    # at once, before the new graph's database is even listed
    assert chat.messages == [] and chat.rows.count() == 0
    assert runner.status.text() == "Ready to run"
    assert selector(runner) == ["main"] and runner.thread_id == "main"
    idle(qtbot, win)
    assert selector(runner) == ["main"] and chat.rows.count() == 0


def test_results_of_a_run_cut_short_by_opening_another_graph_are_not_shown(qtbot, window,
                                                                            tmp_path,
                                                                            monkeypatch):  # fmt: skip
    monkeypatch.setattr(expression_limits, "MAX_STEPS", 10**12)  # it runs until stopped
    spin = write_spec(tmp_path, state=[{"name": "text"}], nodes=[setter("spin", text=LOOP)],
                      entry=["spin"], finish=["spin"])  # fmt: skip
    win = window
    assert win.open_path(spin)
    runner = win.runner
    click(qtbot, win, "newThreadButton")  # run-1: a thread router's database does not have
    click(qtbot, win, "runButton")
    qtbot.waitUntil(lambda: runner.session.running, timeout=5000)
    open_with_ctrl_o(win, monkeypatch, TEMPLATES_DIR / "router.json")
    idle(qtbot, win)  # opening stopped the run
    assert runner.last_failure is None and runner.trace.error_view.isHidden()
    assert runner.overlay.errors == {} and runner.state == "idle"
    assert selector(runner) == ["main"] and runner.status.text() == "Ready to run"
    book = json.loads(book_path(spin.with_name("spec.checkpoints.sqlite")).read_text())
    assert book["run-1"]["status"] == "stopped"  # the run the window left ended there


def test_closing_during_a_run_then_reopening_shows_that_thread(qtbot, window, tmp_path):
    win = window
    path = saved_template(qtbot, win, tmp_path)  # time_travel
    for _ in range(2):  # the input, then double: paused before add_ten
        click(qtbot, win, "stepButton")
        idle(qtbot, win)
    assert win.runner.live == "main"
    win.close()
    book = json.loads(book_path(path.with_name("time_travel.checkpoints.sqlite")).read_text())
    assert book["main"]["status"] == "stopped"  # not "paused": no session holds that run now
    again, runner = reopened(qtbot, path)
    assert runner.thread_id == "main" and runner.view is not None and runner.view.history
    assert runner.state == "breakpoint" and runner.view.next == ("add_ten",)
    rows = runner.thread_list.model
    assert rows.item(runner.thread_list.ids.index("main"), 3).text() != "paused"
    click(qtbot, again, "continueButton")  # it carries on where it stopped
    idle(qtbot, again)
    assert runner.state == "finished" and runner.view.values["value"] == 256


def reopened(qtbot, path):
    """The spec opened in a new window, as the next session would: the window and its runs."""
    from studio.main_window import MainWindow

    again = MainWindow()
    qtbot.addWidget(again)
    again.show()
    assert again.open_path(path)
    idle(qtbot, again)
    return again, again.runner


def test_a_paused_status_left_by_a_killed_session_is_not_shown(qtbot, window, tmp_path):
    win = window
    path = saved_template(qtbot, win, tmp_path)
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    click(qtbot, win, "newThreadButton")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    win.close()
    book = book_path(path.with_name("time_travel.checkpoints.sqlite"))
    data = json.loads(book.read_text())
    data["main"]["status"] = "paused"  # what a session killed mid-run leaves
    book.write_text(json.dumps(data))
    again, runner = reopened(qtbot, path)
    assert runner.thread_id == "run-2"  # the thread run last
    panel = runner.thread_list
    status = panel.model.item(panel.ids.index("main"), 3).text()
    assert status not in ("", "paused"), status  # the database's own word for it
