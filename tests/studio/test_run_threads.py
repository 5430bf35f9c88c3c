"""Stepping on every thread (a new one, the one the studio picks by itself), an honest toolbar in
each state, a paused run whose graph is edited, and the thread list (issue 13.1, 13.4)."""

from __future__ import annotations

import sqlite3

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QMessageBox, QPushButton

from studio.run.threads import book_path
from tests.studio.test_run_steps import click, idle, open_template

pytestmark = pytest.mark.gui


def saved_template(qtbot, win, tmp_path, name: str = "time_travel"):
    open_template(qtbot, win, name)
    path = tmp_path / f"{name}.json"
    assert win.save_as(path)
    return path


def enabled(win) -> dict[str, bool]:
    return {name: win.findChild(QPushButton, name).isEnabled()
            for name in ("runButton", "stepButton", "continueButton", "stopButton")}  # fmt: skip


def step_three(qtbot, win) -> list[str]:
    statuses = []
    for _ in range(3):
        click(qtbot, win, "stepButton")
        idle(qtbot, win)
        statuses.append(win.runner.status.text())
    return statuses


def thread_rows(db, thread_id: str) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("select json_extract(metadata, '$.source'), json_extract(metadata, '$.step') "
                            "from checkpoints where thread_id = ? and checkpoint_ns = '' order by checkpoint_id",
                            (thread_id,)).fetchall()  # fmt: skip


def assert_three_supersteps(win, db, thread_id: str, statuses: list[str]) -> None:
    runner = win.runner
    assert runner.thread_id == thread_id
    assert statuses == ["Step 0: ran __start__ — Step or Continue for more",
                        "Step 1: ran double — Step or Continue for more",
                        "Step 2: ran add_ten — Step or Continue for more"]  # fmt: skip
    trace = "\n".join(runner.trace.texts())
    assert (
        trace.count("runs __start__") == 1
        and "Step 1: runs double" in trace
        and "Step 2: runs add_ten" in trace
    )
    # one input checkpoint, then one per superstep: never a second input, never __start__ again
    assert thread_rows(db, thread_id) == [("input", -1), ("loop", 0), ("loop", 1), ("loop", 2)]
    assert runner.view.thread_id == thread_id and runner.view.values["value"] == 16
    assert runner.state == "paused" and enabled(win) == dict.fromkeys(enabled(win), True)


def test_three_steps_on_a_new_thread(qtbot, window, tmp_path):
    win = window
    path = saved_template(qtbot, win, tmp_path)
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    click(qtbot, win, "newThreadButton")
    assert win.runner.thread_id == "run-2" and win.runner.history.entries == []
    statuses = step_three(qtbot, win)
    assert_three_supersteps(
        win, path.with_name("time_travel.checkpoints.sqlite"), "run-2", statuses
    )
    assert thread_rows(path.with_name("time_travel.checkpoints.sqlite"), "main")[-1] == (
        "loop",
        3,
    )  # untouched


def test_three_steps_on_the_thread_the_studio_picks(qtbot, window, tmp_path):
    win = window
    path = saved_template(qtbot, win, tmp_path)
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    # as if another program (superstep run --db) had run it: no thread the studio ran last
    book_path(path.with_name("time_travel.checkpoints.sqlite")).unlink()
    assert win.open_path(path)  # "main" has a history: the studio starts on a fresh run-N
    idle(qtbot, win)
    assert win.runner.thread_id == "run-2"
    statuses = step_three(qtbot, win)
    assert_three_supersteps(
        win, path.with_name("time_travel.checkpoints.sqlite"), "run-2", statuses
    )


def test_the_toolbar_says_what_the_run_is_doing(qtbot, window):
    win = window
    runner = open_template(qtbot, win, "time_travel")
    assert runner.state == "idle"
    assert enabled(win) == {
        "runButton": True,
        "stepButton": True,
        "continueButton": False,
        "stopButton": False,
    }
    for _ in range(3):  # __start__, double, add_ten
        click(qtbot, win, "stepButton")
        idle(qtbot, win)
    assert runner.state == "paused" and enabled(win)["stopButton"]
    click(qtbot, win, "stepButton")  # square, the last superstep: the run is over now
    idle(qtbot, win)
    assert runner.state == "finished", runner.status.text()
    assert "for more" not in runner.status.text() and runner.status.text().startswith("Finished")
    assert enabled(win) == {
        "runButton": True,
        "stepButton": True,
        "continueButton": False,
        "stopButton": False,
    }
    assert runner.view.values["value"] == 256 and runner.overlay.running == set()


def test_interrupted_and_failed_runs_show_on_the_toolbar(qtbot, window):
    win = window
    runner = open_template(qtbot, win, "approval")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    assert runner.state == "interrupted"
    assert enabled(win) == {
        "runButton": True,
        "stepButton": False,
        "continueButton": True,
        "stopButton": False,
    }
    click(qtbot, win, "continueButton")  # shows the question again; runs nothing
    assert runner.interrupt_panel.isVisible() and not runner.session.running


def test_pause_edit_restart_from_the_last_checkpoint(qtbot, window):
    win = window
    runner = open_template(qtbot, win, "time_travel")
    for _ in range(2):  # the input, then double: value 6, add_ten next
        click(qtbot, win, "stepButton")
        idle(qtbot, win)
    banner = win.findChild(type(runner.restart_banner), "restartBanner")
    win.editor.move({"add_ten": (260.0, 220.0)})  # layout is not a change to the run
    assert banner.isHidden() and runner.state == "paused"
    assert win.editor.set_node(
        "add_ten", values={"value": "value + 100", "log": "[f'add_ten -> {value + 100}']"}
    )
    assert banner.isVisible() and runner.state == "stale"
    assert (
        not enabled(win)["stepButton"] and not enabled(win)["continueButton"]
    )  # not with the old graph
    click(qtbot, win, "restartLastButton")
    idle(qtbot, win)
    assert banner.isHidden() and runner.state == "paused", runner.status.text()
    click(qtbot, win, "stepButton")
    idle(qtbot, win)
    assert runner.view.values["value"] == 106  # the edited add_ten ran
    click(qtbot, win, "continueButton")
    idle(qtbot, win)
    assert runner.state == "finished" and runner.view.values["value"] == 106**2
    steps = [e.step for e in sorted(runner.view.history, key=lambda e: e.checkpoint_id)]
    assert steps == [-1, 0, 1, 2, 3]  # carried on from the last checkpoint: no second input


def test_pause_edit_restart_from_the_start(qtbot, window):
    win = window
    runner = open_template(qtbot, win, "time_travel")
    for _ in range(3):
        click(qtbot, win, "stepButton")
        idle(qtbot, win)
    assert win.editor.set_node(
        "double", values={"value": "value * 3", "log": "[f'double -> {value * 3}']"}
    )
    click(qtbot, win, "restartStartButton")
    idle(qtbot, win)
    click(qtbot, win, "continueButton")
    idle(qtbot, win)
    assert runner.state == "finished" and runner.view.values["value"] == (3 * 3 + 10) ** 2
    # the first attempt stays as branch 1; the restart branches off the input checkpoint
    texts = runner.history.model.texts()
    assert texts[0] == "-1 input -> __start__ [1]"
    assert texts[1].startswith("  0 fork -> ") or texts[1].startswith("  ") and "[2]" in texts[1], (
        texts
    )
    assert texts[-1] == "2 loop -> square [1]" and sum(t.endswith("tip") for t in texts) == 1


def test_the_thread_list_names_renames_and_deletes(qtbot, window, tmp_path):
    win = window
    path = saved_template(qtbot, win, tmp_path)
    runner = win.runner
    runner.input_panel.editor.setPlainText('{"value": 5}')
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    click(qtbot, win, "newThreadButton")
    runner.input_panel.editor.setPlainText('{"value": 1}')
    click(qtbot, win, "stepButton")
    idle(qtbot, win)
    panel = runner.thread_list
    runner.docks["threadsDock"].raise_()  # its tab, as a click on it would
    qtbot.waitUntil(panel.list.isVisible)
    model = panel.model
    rows = {
        model.item(r, 0).text(): [model.item(r, c).text() for c in range(4)]
        for r in range(model.rowCount())
    }
    assert set(rows) == {"main", "run-2"}
    assert rows["main"][2:] == ["3", "finished"] and rows["run-2"][2:] == ["0", "paused"]
    assert rows["main"][1][:4].isdigit()  # created, a date
    # pick main in the list: its history, and the input last run on it
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton,
                     pos=panel.list.visualRect(model.index(panel.ids.index("main"), 0)).center())  # fmt: skip
    idle(qtbot, win)
    assert runner.thread_id == "main" and runner.view.values["value"] == 400  # (5*2+10)**2
    assert '"value": 5' in runner.input_panel.editor.toPlainText()
    # rename it: the name shows, the checkpoints keep their thread id
    click(qtbot, panel, "renameThreadButton")
    editor = panel.list.viewport().findChild(QLineEdit)
    assert editor is not None and editor.text() == "main"
    editor.selectAll()
    qtbot.keyClicks(editor, "baseline")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: model.item(panel.ids.index("main"), 0).text() == "baseline"
    )  # committed queued
    assert runner.thread_selector.currentText() == "baseline" and runner.thread_id == "main"
    # delete run-2 after confirming
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton,
                     pos=panel.list.visualRect(model.index(panel.ids.index("run-2"), 0)).center())  # fmt: skip
    idle(qtbot, win)
    click(qtbot, panel, "deleteThreadButton")
    box = panel.confirm_box
    assert box is not None and "run-2" in box.text()
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Yes), Qt.MouseButton.LeftButton)
    idle(qtbot, win)
    assert thread_rows(path.with_name("time_travel.checkpoints.sqlite"), "run-2") == []
    assert panel.ids == ["main"] and runner.thread_id == "main"
    # names survive a reopen
    assert win.open_path(path)
    idle(qtbot, win)
    assert runner.thread_selector.findData("main") >= 0
    assert runner.thread_selector.itemText(runner.thread_selector.findData("main")) == "baseline"
