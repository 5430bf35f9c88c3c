"""The complete trace (issue 13.6-13.8): retries, Send payloads, the inner supersteps of a
subgraph and of an agent with its middleware hooks (stepped into from the trace), and what
passed along the canvas's edges."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.run.panels import ChannelsPanel, TracePanel
from tests.studio.test_run_steps import click, idle, open_template

pytestmark = pytest.mark.gui


def trace_text(win) -> str:
    return "\n".join(win.findChild(TracePanel, "tracePanel").texts())


def step_into_by_double_click(qtbot, win, name: str) -> tuple:
    """Double-click, in the trace, the planned task that ran an inner graph named `name`."""
    panel = win.findChild(TracePanel, "tracePanel")
    ns = next(ns for ns in panel.scopes() if ns[-1].split(":")[0] == name)
    row = panel.model.scope_row(ns)
    index = panel.model.show(row)
    panel.tree.scrollTo(index)
    rect = panel.tree.visualRect(index)
    assert rect.isValid(), "the task row is on screen"
    QTest.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.mouseDClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: panel.current_scope == ns, timeout=3000)
    return ns


def screenshot(win, name: str, close: tuple[str, ...] = ()) -> None:
    folder = os.environ.get("SUPERSTEP_SCREENSHOT_DIR")
    if folder:
        for dock in close:  # as the dock's close button does, to give the trace the height
            win.runner.docks.get(dock, win.dock(dock)).close()
        win.resize(1280, 720)
        QTest.qWait(100)  # the new size laid out first: docks are resized within it
        docks = win.runner.docks
        win.resizeDocks(
            [docks["traceDock"], docks["eventsDock"]], [860, 420], Qt.Orientation.Horizontal
        )
        win.resizeDocks(
            [docks["channelsDock"], docks["historyDock"]], [150, 150], Qt.Orientation.Vertical
        )
        win.resizeDocks(
            [docks["traceDock"]], [380], Qt.Orientation.Vertical
        )  # the trace is the subject
        QTest.qWait(200)
        assert win.grab().save(str(Path(folder) / name))


def test_failed_attempts_and_their_retries_are_in_the_trace(qtbot, window):
    open_template(qtbot, window, "flaky_retry")
    click(qtbot, window, "runButton")
    idle(qtbot, window)
    assert window.runner.state == "finished"
    text = trace_text(window)
    assert "call_service attempt 1 failed: ConnectionError" in text
    assert "call_service attempt 2 failed: ConnectionError" in text
    assert "retrying in" in text
    assert "call_service wrote" in text
    assert "Pending writes saved: 1 task(s), before the checkpoint" in text


def test_each_send_packet_shows_its_payload_and_the_edge_it_went_along(qtbot, window):
    win = window
    open_template(qtbot, win, "map_reduce")
    click(qtbot, win, "stepButton")  # step 0: the router out of START sends one packet per subject
    idle(qtbot, win)
    text = trace_text(win)
    assert 'Send → write_joke: {"subject": "cats"}' in text
    assert 'Send → write_joke: {"subject": "owls"}' in text
    assert win.runner.overlay.carried[("__start__", "write_joke")].count("Send ") == 3
    labels = [i for i in win.scene.items() if i.data(0) == "edge:__start__->write_joke"]
    assert labels and "Send" in labels[0].toolTip()  # the label's hover card holds every packet
    click(qtbot, win, "stepButton")  # step 1: three write_joke tasks, each woken by its packet
    idle(qtbot, win)
    text = trace_text(win)
    assert text.count('write_joke: Send packet: {"subject": ') == 3
    assert 'payload: {"subject": "dogs"}' in text
    assert "write_joke" in win.runner.overlay.wrote  # the channels it wrote pulse under the card
    assert [i for i in win.scene.items() if str(i.data(0)).startswith("wrote:write_joke:")]


def test_step_into_the_subgraph_template(qtbot, window):
    win = window
    runner = open_template(qtbot, win, "subgraph")
    for _ in range(2):  # __start__, then prepare
        click(qtbot, win, "stepButton")
        idle(qtbot, win)
    assert "text" in runner.overlay.carried[("prepare", "shout")]  # what passed along the edge
    assert [i for i in win.scene.items() if i.data(0) == "carried:prepare->shout"]
    click(qtbot, win, "stepButton")  # shout runs its inner graph: upper, then exclaim
    idle(qtbot, win)
    ns = step_into_by_double_click(qtbot, win, "shout")
    text = trace_text(win)
    assert text.startswith("Step -1 in shout")
    assert "Step 1 in shout: runs upper" in text and 'upper wrote: text = "HELLO"' in text
    assert "Step 2 in shout: runs exclaim" in text and 'exclaim wrote: text = "HELLO!"' in text
    assert "Checkpoint saved" in text  # the inner graph's checkpoints
    channels = win.findChild(ChannelsPanel, "channelsPanel")
    assert channels.row_text("text")[2] == '"HELLO!"'  # the inner graph's channels
    assert "Inside shout" in channels.caption.text()
    screenshot(win, "run-subgraph.png")
    panel = win.findChild(TracePanel, "tracePanel")
    panel.scope.activated.emit(0)  # back out to the whole run
    assert panel.current_scope is None and ns in panel.scopes()
    click(qtbot, win, "continueButton")
    idle(qtbot, win)
    assert runner.view.values["text"] == "HELLO!"


def test_step_into_an_agent_and_see_each_middleware_hook(qtbot, window):
    win = window
    runner = open_template(qtbot, win, "agent_limits_pii")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    assert runner.state == "finished", runner.last_failure
    step_into_by_double_click(qtbot, win, "assistant")
    text = trace_text(win)
    for hook in ("ModelCallLimitMiddleware.before_model", "PIIMiddleware[email].before_model",
                 "PIIMiddleware[email].after_model", "ModelCallLimitMiddleware.after_model"):  # fmt: skip
        assert f"runs {hook}" in text, hook
        assert f"{hook} wrote" in text or f"{hook} wrote (middleware hook)" in text
    assert "(middleware hook)" in text
    assert "saw: {" in text  # the state each hook was handed
    assert text.index("ModelCallLimitMiddleware.before_model") < text.index("runs model")
    panel = win.findChild(TracePanel, "tracePanel")
    hook = next(r for step in panel.model.scope_row(panel.current_scope).children for r in step.children
                if r.label.startswith("PIIMiddleware[email].before_model wrote"))  # fmt: skip
    panel.model.build(hook)
    panel.tree.expand(panel.model.index_of(hook))  # what the redaction changed
    screenshot(win, "run-middleware-hooks.png", close=("historyDock", "stateDock"))
