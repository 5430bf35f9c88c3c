"""Right-click menus on the rows of the studio's lists (issue 27): a right-click, as the window
system sends it, on a checkpoint, a thread, a trace line, a problem, a saved test, a channel,
an event, a server's thread or checkpoint, a palette entry or a recent file chooses that row and
opens a menu of what can be done with it; its entries do it."""

from __future__ import annotations

import json
import shutil

import pytest
import shiboken6
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QDockWidget, QMenu

from graphspec.templates import TEMPLATES_DIR
from tests.studio.conftest import settle
from tests.studio.test_editor_gestures import pick
from tests.studio.test_remote_dock import attach
from tests.studio.test_remote_dock_hostile import ASSISTANT, THREAD, _json, fake, lists  # noqa: F401
from tests.studio.test_remote_dock_hostile import idle as remote_idle
from tests.studio.test_run_steps import click, idle, open_template, run_template

pytestmark = pytest.mark.gui


def front(win, dock_name: str) -> None:
    dock = win.findChild(QDockWidget, dock_name)
    dock.show()
    dock.raise_()
    QApplication.processEvents()


def right_click(qtbot, win, view: QAbstractItemView, index: QModelIndex) -> QMenu:
    """A right-click on the row's middle, through the window (the context menu event follows)."""
    view.scrollTo(index)
    QApplication.processEvents()
    local = view.viewport().mapTo(win, view.visualRect(index).center())
    QTest.mouseClick(
        win.windowHandle(), Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, local
    )
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu), f"no menu on {view.objectName()}"
    assert menu.objectName() == f"{view.objectName()}Menu"
    return menu


def entries(menu: QMenu) -> dict[str, bool]:
    return {a.objectName(): a.isEnabled() for a in menu.actions() if a.objectName()}


def choose(qtbot, menu: QMenu, name: str) -> None:
    assert entries(menu)[name], f"{name} is disabled"
    pick(qtbot, menu, name)
    qtbot.waitUntil(lambda: not shiboken6.isValid(menu) or not menu.isVisible(), timeout=2000)


def clipboard() -> str:
    return QGuiApplication.clipboard().text()


def ran(qtbot, win, template: str):
    """The window at 1600×1000 with a bundled template run: its run controller."""
    win.resize(1600, 1000)
    return run_template(qtbot, win, template)


def test_checkpoint_menu_replays_forks_compares_and_copies(qtbot, window):
    win = window
    runner = ran(qtbot, win, "router")
    history = runner.history
    front(win, "historyDock")
    ids = sorted(history.model.nodes)  # oldest first
    before = len(ids)
    first_step = ids[1]  # the loop's first checkpoint, not the tip
    index = history.model.index_of(first_step)

    menu = right_click(qtbot, win, history.tree, index)
    assert history.current().checkpoint_id == first_step, "the right-clicked row is chosen"
    assert set(entries(menu)) == {"checkpointReplayAction", "checkpointEditAction",
                                  "checkpointForkAction", "checkpointCompareAction",
                                  "checkpointCopyIdAction"}  # fmt: skip
    choose(qtbot, menu, "checkpointCopyIdAction")
    assert clipboard() == first_step

    menu = right_click(qtbot, win, history.tree, history.model.index_of(first_step))
    choose(qtbot, menu, "checkpointCompareAction")  # with the tip: the diff dock opens
    idle(qtbot, win)
    qtbot.waitUntil(lambda: win.findChild(QDockWidget, "diffDock").isVisible(), timeout=5000)
    assert runner.diff.tree.topLevelItemCount() > 0

    menu = right_click(qtbot, win, history.tree, history.model.index_of(first_step))
    choose(qtbot, menu, "checkpointReplayAction")
    idle(qtbot, win)
    qtbot.waitUntil(lambda: len(history.model.nodes) > before, timeout=5000)
    assert any(n.starts_branch for n in history.model.nodes.values()), "a replay branch"

    replayed = len(history.model.nodes)
    menu = right_click(qtbot, win, history.tree, history.model.index_of(first_step))
    choose(qtbot, menu, "checkpointEditAction")  # its state in a window of its own
    dialog = history.fork_dialog
    qtbot.waitUntil(dialog.isVisible)
    assert json.loads(dialog.editor.toPlainText()) == json.loads(history.editor.toPlainText())
    dialog.reject()  # Cancel: the dock's editor, as it was
    state = json.loads(history.editor.toPlainText())
    state["total"] = 1
    history.editor.setPlainText(json.dumps(state))
    menu = right_click(qtbot, win, history.tree, history.model.index_of(first_step))
    # the same row again: the edited text stays in the editor (the row did not change)
    assert json.loads(history.editor.toPlainText())["total"] == 1
    choose(qtbot, menu, "checkpointForkAction")
    idle(qtbot, win)
    qtbot.waitUntil(lambda: len(history.model.nodes) > replayed, timeout=5000)
    assert any(n.entry.source in ("fork", "update") for n in history.model.nodes.values())


def test_thread_and_trace_and_channel_and_event_menus(qtbot, window):
    win = window
    runner = ran(qtbot, win, "router")

    front(win, "threadsDock")
    threads = runner.thread_list
    menu = right_click(qtbot, win, threads.list, threads.model.index(0, 0))
    assert set(entries(menu)) == {"threadShowAction", "threadRenameAction",
                                  "threadDeleteAction", "threadCopyIdAction"}  # fmt: skip
    choose(qtbot, menu, "threadCopyIdAction")
    assert clipboard() == "main"
    menu = right_click(qtbot, win, threads.list, threads.model.index(0, 0))
    choose(qtbot, menu, "threadRenameAction")
    assert threads.list.state() == QAbstractItemView.State.EditingState
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    menu = right_click(qtbot, win, threads.list, threads.model.index(0, 0))
    choose(qtbot, menu, "threadDeleteAction")
    qtbot.waitUntil(lambda: threads.confirm_box is not None and threads.confirm_box.isVisible())
    threads.confirm_box.reject()  # asked first; kept

    front(win, "traceDock")
    trace = runner.trace
    step = next(
        trace.model.qt.index(r, 0)
        for r in range(trace.model.qt.rowCount())
        if trace.model.qt.index(r, 0).data().startswith("Step 1")
    )
    menu = right_click(qtbot, win, trace.tree, step)
    assert not entries(menu)["traceStepIntoAction"], "router's steps run no inner graph"
    choose(qtbot, menu, "traceCopyAction")
    assert clipboard().startswith("Step 1: runs a")
    menu = right_click(qtbot, win, trace.tree, step)
    choose(qtbot, menu, "traceExpandAction")
    assert trace.tree.isExpanded(step)

    front(win, "channelsDock")
    table = runner.channels.table
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == "visited")
    menu = right_click(qtbot, win, table, table.model().index(row, 2))
    choose(qtbot, menu, "channelCopyValueAction")
    assert json.loads(clipboard()) == ["a", "b"]

    front(win, "eventsDock")
    events = runner.events
    menu = right_click(qtbot, win, events.list, events.list.model().index(0, 0))
    choose(qtbot, menu, "eventsCopyAction")
    assert clipboard() == events.list.model().index(0, 0).data()
    menu = right_click(qtbot, win, events.list, events.list.model().index(0, 0))
    choose(qtbot, menu, "eventsClearAction")
    assert events.list.model().rowCount() == 0


def test_a_subgraph_task_steps_into_its_inner_graph(qtbot, window):
    win = window
    runner = ran(qtbot, win, "subgraph")
    trace = runner.trace
    front(win, "traceDock")
    ns = next(iter(trace.model.scopes))
    row = trace.model.scope_row(ns)
    index = trace.model.show(row)  # built down to it, as opening its step by hand does
    parent = index.parent()
    while parent.isValid():
        trace.tree.expand(parent)
        parent = parent.parent()
    menu = right_click(qtbot, win, trace.tree, index)
    choose(qtbot, menu, "traceStepIntoAction")
    assert trace.current_scope == ns
    menu = right_click(qtbot, win, trace.tree, trace.model.qt.index(0, 0, trace.tree.rootIndex()))
    choose(qtbot, menu, "traceWholeRunAction")
    assert trace.current_scope is None


def test_palette_and_problem_menus(qtbot, window):
    win = window
    win.resize(1600, 1000)
    open_template(qtbot, win, "router")
    front(win, "paletteDock")
    palette = win.palette
    entry = palette.item_for("node:function")
    menu = right_click(qtbot, win, palette, palette.indexFromItem(entry))
    before = set(win.scene.nodes)
    choose(qtbot, menu, "paletteAddAction")
    [added] = set(win.scene.nodes) - before  # a node nothing reaches: a problem
    settle(qtbot, win)
    front(win, "problemsDock")
    problems = win.problems
    rows = [problems.topLevelItem(i) for i in range(problems.topLevelItemCount())]
    item = next(i for i in rows if i.data(0, Qt.ItemDataRole.UserRole) == added)
    win.scene.clearSelection()
    menu = right_click(qtbot, win, problems, problems.indexFromItem(item))
    choose(qtbot, menu, "problemShowAction")
    assert win.selected() == [added]
    menu = right_click(qtbot, win, problems, problems.indexFromItem(item))
    choose(qtbot, menu, "problemCopyAction")
    assert added in clipboard()


def test_state_key_menu_moves_and_removes_keys(qtbot, window):
    win = window
    win.resize(1600, 1000)
    open_template(qtbot, win, "router")
    front(win, "stateDock")
    table = win.state_panel.table
    names = [k.name for k in win.document.spec.state]
    menu = right_click(qtbot, win, table, table.model().index(0, 0))
    assert not entries(menu)["stateKeyUpAction"], "the first key has nothing above it"
    choose(qtbot, menu, "stateKeyDownAction")
    assert [k.name for k in win.document.spec.state] == [names[1], names[0], *names[2:]]
    menu = right_click(qtbot, win, table, table.model().index(0, 0))
    choose(qtbot, menu, "stateRemoveKeyAction")
    assert [k.name for k in win.document.spec.state] == [names[0], *names[2:]]
    win.editor.stack.undo()  # one undo step each, as the buttons
    assert [k.name for k in win.document.spec.state][:2] == [names[1], names[0]]


def test_saved_test_menu_runs_that_test(qtbot, window, tmp_path):
    win = window
    win.resize(1600, 1000)
    spec = tmp_path / "router.json"
    shutil.copy(TEMPLATES_DIR / "router.json", spec)
    assert win.open_path(spec)
    idle(qtbot, win)
    win.replay_dock.record_box.setChecked(True)
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    front(win, "testsDock")
    click(qtbot, win, "saveTest")
    panel = win.replay_dock.panel
    qtbot.waitUntil(lambda: panel.list.topLevelItemCount() == 1, timeout=5000)
    item = panel.list.topLevelItem(0)
    name = item.text(0)
    assert item.text(1) == "not run"
    menu = right_click(qtbot, win, panel.list, panel.list.indexFromItem(item))
    with qtbot.waitSignal(panel.finished, timeout=20000):
        choose(qtbot, menu, "testRunOneAction")
    assert panel.list.topLevelItem(0).text(1) == "passed"
    menu = right_click(qtbot, win, panel.list, panel.list.indexFromItem(panel.list.topLevelItem(0)))
    choose(qtbot, menu, "testCopyPathAction")
    assert clipboard() == str(tmp_path / "tests" / f"{name}.py")


def test_server_thread_and_checkpoint_menus(qtbot, window, fake):  # noqa: F811
    routes = lists([ASSISTANT], [THREAD])
    routes["/history"] = _json([{"checkpoint": {"checkpoint_id": "cp-1"}, "next": ["b"],
                                 "values": {"total": 1}}])  # fmt: skip
    routes["/state"] = _json({"checkpoint": {"checkpoint_id": "cp-2"}})
    _, url = fake(routes)
    win = window
    win.resize(1600, 1000)
    panel = attach(qtbot, win, url)
    menu = right_click(qtbot, win, panel.threads, panel.threads.model().index(0, 0))
    assert panel.thread_id() == THREAD["thread_id"], "the right-clicked thread is chosen"
    assert set(entries(menu)) == {"remoteThreadRunAction", "remoteThreadHistoryAction",
                                  "remoteNewThreadAction", "remoteRefreshAction",
                                  "remoteCopyThreadAction"}  # fmt: skip
    choose(qtbot, menu, "remoteCopyThreadAction")
    assert clipboard() == THREAD["thread_id"]
    remote_idle(qtbot, panel)
    assert panel.history.topLevelItemCount() == 1
    index = panel.history.indexFromItem(panel.history.topLevelItem(0))
    menu = right_click(qtbot, win, panel.history, index)
    choose(qtbot, menu, "remoteCopyCheckpointAction")
    assert clipboard() == "cp-1"
    menu = right_click(qtbot, win, panel.history, index)
    choose(qtbot, menu, "remoteCheckpointForkAction")
    remote_idle(qtbot, panel)
    assert "Forked from checkpoint cp-1" in panel.status.text(), panel.status.text()
    menu = right_click(qtbot, win, panel.assistants, panel.assistants.model().index(0, 0))
    choose(qtbot, menu, "remoteCopyAssistantAction")
    assert clipboard() == ASSISTANT["assistant_id"]


def test_recent_file_menu_opens_it(qtbot, window, tmp_path):
    win = window
    spec = tmp_path / "mine.json"
    shutil.copy(TEMPLATES_DIR / "router.json", spec)
    assert win.open_path(spec)
    idle(qtbot, win)
    win.show_start()
    recent = win.start_page.recent
    assert recent.item(0).data(Qt.ItemDataRole.UserRole) == str(spec)
    win.document.path = None  # so that the open below is seen
    menu = right_click(qtbot, win, recent, recent.indexFromItem(recent.item(0)))
    choose(qtbot, menu, "openPathAction")
    qtbot.waitUntil(lambda: win.pages.currentWidget() is win.view, timeout=5000)
    assert str(win.document.path) == str(spec)
