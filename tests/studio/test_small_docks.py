"""What a small dock cuts off stays readable, and what is not an edit does not look like one
(issue 27.10): the trace elides in the middle with the whole text in its tooltips, a breakpoint
does not mark the graph modified (saved with it, and `superstep run` still pauses there), and
a subgraph's channels show their own types."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio import cli
from studio.run.panels import ChannelsPanel, TracePanel
from tests.studio.helpers import center, click
from tests.studio.test_run_steps import click as press
from tests.studio.test_run_steps import idle, open_template, run_template
from tests.studio.test_run_trace import step_into_by_double_click

pytestmark = pytest.mark.gui


def rows(model, parent=None):
    """Every row of the trace, built as the user expands them."""
    for row in model.top if parent is None else parent.children:
        model.build(row)
        yield row
        yield from rows(model, row)


def test_the_trace_elides_in_the_middle_and_its_tooltips_hold_the_whole_text(qtbot, window):
    win = window
    run_template(qtbot, win, "router")
    panel = win.findChild(TracePanel, "tracePanel")
    assert panel.tree.textElideMode() == Qt.TextElideMode.ElideMiddle
    woken = next(r for r in rows(panel.model) if r.detail.startswith("woken by branch:"))
    tip = woken.detail_item.toolTip()
    assert tip.startswith(woken.detail + "\n") and woken.tip in tip  # the whole text, not "…"
    assert woken.item.toolTip() == f"{woken.label}\n{tip}"


def test_a_breakpoint_is_kept_but_does_not_mark_the_graph_modified(qtbot, window, tmp_path, capsys):
    win = window
    path = tmp_path / "router.json"
    assert open_template(qtbot, win, "router") and win.save_as(path)
    assert win.open_path(path)
    click(win.view, center(win.scene.nodes["a"]))
    QTest.keyClick(win.view, Qt.Key.Key_F9)  # a breakpoint before a
    assert win.document.spec.breakpoints.before == ["a"]
    assert not win.unsaved() and "*" not in win.windowTitle()
    QTest.keyClick(win.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # still undone
    assert win.document.spec.breakpoints.before == []
    QTest.keyClick(win.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)  # fmt: skip
    assert win.document.spec.breakpoints.before == ["a"] and "*" not in win.windowTitle()
    # an edit after it marks the graph modified; saved, the breakpoint goes with it
    assert win.editor.set_node("a", label="first")
    assert win.unsaved() and win.windowTitle().startswith(f"{path.name} *")
    assert win.save() and not win.unsaved()
    press(qtbot, win, "runButton")  # the studio's run pauses there
    idle(qtbot, win)
    assert win.runner.view.next == ("a",)
    capsys.readouterr()
    assert cli.main(["run", str(path), "--input", '{"total": 1, "visited": []}']) == 0
    assert "paused before a (breakpoint)" in capsys.readouterr().out


def test_a_subgraphs_channels_show_their_types(qtbot, window):
    win = window
    open_template(qtbot, win, "subgraph")
    for _ in range(3):  # __start__, prepare, then shout runs its inner graph
        press(qtbot, win, "stepButton")
        idle(qtbot, win)
    step_into_by_double_click(qtbot, win, "shout")
    channels = win.findChild(ChannelsPanel, "channelsPanel")
    assert channels.row_text("text")[1] == "LastValue"
    kinds = {channels.table.item(r, 1).text() for r in range(channels.table.rowCount())}
    assert "inner" not in kinds and "—" not in kinds
