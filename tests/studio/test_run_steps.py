"""Running a template from the run toolbar: step by step, to the end, history on disk."""

from __future__ import annotations

import json
import sqlite3

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDockWidget, QLabel, QPushButton

from graphspec.templates import TEMPLATES_DIR
from studio.run.panels import ChannelsPanel, HistoryPanel, TracePanel

pytestmark = pytest.mark.gui


def open_template(qtbot, win, name: str):
    assert win.open_path(TEMPLATES_DIR / f"{name}.json", bundled=True)
    idle(qtbot, win)
    return win.runner


def run_template(qtbot, win, name: str):
    """Open a bundled template and run it to the end (or its first interrupt)."""
    runner = open_template(qtbot, win, name)
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    return runner


def idle(qtbot, win, timeout: int = 10000) -> None:
    qtbot.waitUntil(lambda: not win.runner.session.busy, timeout=timeout)


def click(qtbot, win, name: str) -> None:
    button = win.findChild(QPushButton, name)
    assert button is not None and button.isEnabled(), name
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_toolbar_and_docks_have_stable_names(window):
    for name in ("runButton", "stepButton", "continueButton", "stopButton", "newThreadButton"):
        assert window.findChild(QPushButton, name) is not None, name
    assert window.findChild(QComboBox, "threadSelector") is not None
    for name in ("channelsDock", "traceDock", "historyDock", "eventsDock", "runInputDock"):
        assert window.findChild(QDockWidget, name) is not None, name


def test_step_by_step_shows_plan_writes_barrier_and_channels(qtbot, window):
    win = window
    runner = open_template(qtbot, win, "router")
    assert json.loads(runner.input_panel.editor.toPlainText()) == {"total": 10, "visited": []}
    trace_panel = win.findChild(TracePanel, "tracePanel")
    channels = win.findChild(ChannelsPanel, "channelsPanel")

    click(qtbot, win, "stepButton")  # step 0: __start__ writes the input
    idle(qtbot, win)
    assert runner.paused
    assert channels.row_text("total")[2] == "— → 10"
    click(qtbot, win, "stepButton")  # step 1: a runs, woken by branch:to:a
    idle(qtbot, win)
    text = "\n".join(trace_panel.texts())
    assert "Step 1: runs a" in text
    assert "a: woken by branch:to:a @ v" in text
    assert 'a wrote: total = 20, visited = ["a"]' in text
    assert "Barrier: " in text and "total: 10 → 20" in text
    assert channels.row_text("total")[2] == "10 → 20"
    assert "→" in channels.row_text("total")[3]  # the version ticked
    assert channels.row_text("visited")[1] == "reducer: add"
    assert "total" in channels.changed and "branch:to:b" in channels.changed  # the router's write
    assert runner.overlay.running == {"a"}
    frame = [i for i in win.scene.items() if i.data(0) == "run:a"]
    assert frame, "the running node glows on the canvas"

    click(qtbot, win, "stepButton")  # step 2: b (total > 5), the last one
    idle(qtbot, win)
    assert "Step 2: runs b" in "\n".join(trace_panel.texts())
    assert not runner.paused  # nothing is next: the run ended with b's step
    assert runner.view.values == {"total": 21, "visited": ["a", "b"]}
    assert runner.overlay.running == set()


def test_run_to_end_keeps_history_in_sqlite_beside_the_spec(qtbot, window, tmp_path):
    win = window
    open_template(qtbot, win, "time_travel")
    spec_path = tmp_path / "travel.json"
    assert win.save_as(spec_path)
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    runner = win.runner
    assert runner.view.values["value"] == 256
    history = win.findChild(HistoryPanel, "historyPanel")
    # input, __start__ step 0, three nodes: one branch, oldest first, the tip marked
    assert history.model.texts() == [
        "-1 input -> __start__ [1]",
        "0 loop -> double [1]",
        "1 loop -> add_ten [1]",
        "2 loop -> square [1]",
        "3 loop -> (end) [1] tip",
    ]
    db = tmp_path / "travel.checkpoints.sqlite"
    assert db.exists()
    with sqlite3.connect(db) as conn:
        assert conn.execute("select count(*) from checkpoints").fetchone()[0] == 5
    events = win.runner.events.lines()
    assert any(line.startswith("updates") and "square" in line for line in events)


def test_history_survives_a_restart(qtbot, home, tmp_path):
    from studio.main_window import MainWindow

    spec_path = tmp_path / "travel.json"
    for round_ in range(2):
        win = MainWindow()
        qtbot.addWidget(win)
        win.show()
        if round_ == 0:
            open_template(qtbot, win, "time_travel")
            win.save_as(spec_path)
            click(qtbot, win, "runButton")
            idle(qtbot, win)
        else:
            win.open_path(spec_path)
            idle(qtbot, win)
            assert "main" in win.runner.threads
            win.runner.thread_selector.setCurrentText("main")
            win.runner.show_thread()
            idle(qtbot, win)
            assert len(win.findChild(HistoryPanel, "historyPanel").model.nodes) == 5
        win.close()


def test_the_run_is_off_the_gui_thread_and_stop_pauses_it(qtbot, window):
    win = window
    runner = open_template(qtbot, win, "counter_loop")
    seen = []
    runner.session.busy_changed.connect(seen.append)
    click(qtbot, win, "runButton")
    assert runner.session.busy or seen  # returned at once; the worker runs the supersteps
    assert win.findChild(QPushButton, "stopButton").isEnabled() or not runner.session.busy
    idle(qtbot, win)
    assert seen[0] is True and seen[-1] is False


def test_the_channels_say_which_step_they_are_after_when_a_step_stops_at_an_interrupt(
    qtbot, window
):
    """A step that stops at an interrupt applies no barrier: the channels are still as after
    the step before, and their caption says so (it named the interrupted step)."""
    win = window
    open_template(qtbot, win, "approval")
    caption = win.findChild(QLabel, "channelsCaption")
    trace = win.findChild(TracePanel, "tracePanel")
    for _ in range(5):
        click(qtbot, win, "stepButton")
        idle(qtbot, win)
        if "interrupt " in "\n".join(trace.texts()):
            break
    steps = [t for t in trace.texts() if t.startswith("Step ") and ": runs ask" in t]
    assert steps, trace.texts()
    interrupted = int(steps[-1].split(":")[0].split()[1])
    assert f"after step {interrupted - 1};" in caption.text(), caption.text()
