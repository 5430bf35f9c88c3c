"""The checkpoint history as a fork tree, two checkpoints compared, and the screenshot of both
(issue 13.5). Regenerate docs/checkpoint-tree.png with
`SUPERSTEP_SCREENSHOT_DIR=docs python -m pytest tests/studio/test_run_tree.py`."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from studio.run.diff import structural
from tests.studio.test_run_screenshot import save_grab
from tests.studio.test_run_steps import click, idle, run_template

pytestmark = pytest.mark.gui


def entry_at(history, step: int, branch: int = 1):
    return next(
        n.entry for n in history.model.nodes.values() if n.entry.step == step and n.branch == branch
    )


def click_row(qtbot, history, checkpoint_id: str, ctrl: bool = False) -> None:
    index = history.model.index_of(checkpoint_id)
    history.tree.scrollTo(index)
    modifier = Qt.KeyboardModifier.ControlModifier if ctrl else Qt.KeyboardModifier.NoModifier
    qtbot.mouseClick(history.tree.viewport(), Qt.MouseButton.LeftButton, modifier,
                     history.tree.visualRect(index).center())  # fmt: skip


def fork_at(qtbot, win, checkpoint_id: str, value: int) -> None:
    history = win.runner.history
    click_row(qtbot, history, checkpoint_id)
    idle(qtbot, win)
    state = json.loads(history.editor.toPlainText())
    state["value"] = value
    history.editor.setPlainText(json.dumps(state))
    click(qtbot, win, "forkButton")
    idle(qtbot, win)


def fork_twice(qtbot, win):
    runner = run_template(qtbot, win, "time_travel")  # 3 -> 6 -> 16 -> 256
    history = runner.history
    runner.docks["historyDock"].raise_()
    qtbot.waitUntil(history.tree.isVisible)
    fork_at(qtbot, win, entry_at(history, 1).checkpoint_id, 100)  # before add_ten: (100+10)**2
    fork_at(
        qtbot, win, entry_at(history, 2).checkpoint_id, 7
    )  # before square, on the first run: 49
    return runner


def test_two_forks_from_different_checkpoints_branch_off_each(qtbot, window):
    runner = fork_twice(qtbot, window)
    assert runner.view.values["value"] == 49
    assert runner.history.model.texts() == [
        "-1 input -> __start__ [1]",
        "0 loop -> double [1]",
        "1 loop -> add_ten [1]",
        "  2 update -> add_ten [2]",
        "  3 loop -> square [2]",
        "  4 loop -> (end) [2]",
        "2 loop -> square [1]",
        "  3 update -> square [3]",
        "  4 loop -> (end) [3] tip",
        "3 loop -> (end) [1]",
    ]
    tree = runner.history.tree
    model = runner.history.model
    assert (
        tree.objectName() == "checkpointTree" and model.rowCount() == 5
    )  # the first run is the trunk
    fork1 = model.index(2, 0)
    assert model.rowCount(fork1) == 3 and model.index(0, 1, fork1).data() == "↳ update"
    tip = model.index_of(model.tip)
    assert tip.data().startswith("★") and tip.parent().row() == 3  # marked, under step 2


def test_pick_two_checkpoints_and_see_the_diff(qtbot, window):
    runner = fork_twice(qtbot, window)
    history = runner.history
    first_tip = entry_at(history, 3)  # 256
    second_tip = entry_at(history, 4, branch=3)  # 49
    click_row(qtbot, history, first_tip.checkpoint_id)
    idle(qtbot, window)
    assert json.loads(history.editor.toPlainText())["value"] == 256
    click_row(qtbot, history, second_tip.checkpoint_id, ctrl=True)
    idle(qtbot, window)
    # the editor shows only the checkpoint clicked last, and says which
    assert json.loads(history.editor.toPlainText())["value"] == 49
    assert (
        "step 4" in history.caption.text()
        and second_tip.checkpoint_id[-8:] in history.caption.text()
    )
    assert runner.channels.row_text("value")[2] == "7 → 49"  # the channels follow it too
    assert second_tip.checkpoint_id[-8:] in runner.channels.caption.text()
    diff = runner.diff
    assert diff.tree.objectName() == "checkpointDiff" and runner.docks["diffDock"].isVisible()
    lines = diff.texts()
    text = "\n".join(lines)
    assert "Channels changed" in lines[0]
    assert "  value  (v5 → v6) | 256 | 49" in lines  # value and version, old → new
    assert '    [2] changed | "square -> 256" | "square -> 49"' in lines  # a structural list diff
    assert "Next nodes | (end) | (end)" in text
    assert "Pending writes | 0 | 0" in text
    assert (
        diff.diff.old_id == first_tip.checkpoint_id and diff.diff.new_id == second_tip.checkpoint_id
    )
    # the diff of a fork point and its parent: only what the fork edited
    click_row(qtbot, history, entry_at(history, 1).checkpoint_id)
    click_row(qtbot, history, entry_at(history, 2, branch=2).checkpoint_id, ctrl=True)
    idle(qtbot, window)
    changed = [c.channel for c in diff.diff.channels]
    assert "value" in changed and "log" not in changed
    assert diff.diff.old_next == ("add_ten",) and diff.diff.new_next == ("add_ten",)


def test_structural_diff_of_dicts_lists_and_messages():
    from langchain_core.messages import AIMessage, HumanMessage

    parts = structural({"a": 1, "b": [1, 2], "c": {"d": 1}}, {"a": 2, "b": [1, 3, 4], "e": None})
    assert [(p.path, p.kind) for p in parts] == [(".a", "changed"), (".b[1]", "changed"), (".b[2]", "added"),
                                                 (".c", "removed"), (".e", "added")]  # fmt: skip
    old = [HumanMessage("hi", id="1").model_dump()]
    new = [HumanMessage("hi!", id="1").model_dump(), AIMessage("hello", id="2").model_dump()]
    parts = structural(old, new)
    assert [(p.path, p.kind) for p in parts] == [
        ("[0]", "changed"),
        ("[1]", "added"),
    ]  # by message id
    assert structural(5, 5) == [] and structural(1, "1")[0].kind == "changed"


def test_screenshot_of_the_tree_with_a_diff(qtbot, window, tmp_path):
    win = window
    win.resize(1280, 720)
    runner = fork_twice(qtbot, win)
    history = runner.history
    click_row(qtbot, history, entry_at(history, 3).checkpoint_id)
    click_row(qtbot, history, entry_at(history, 4, branch=3).checkpoint_id, ctrl=True)
    idle(qtbot, win)
    # at 1280x720 every dock is at its smallest: the Debug workspace, then the tree given the
    # right column and the diff the bottom row, as a user reading a diff would
    win.choose_workspace("debug")
    for name in ("channelsDock", "inspectorDock", "deepAgentDock", "chatDock", "problemsDock",
                 "eventsDock", "testsDock"):  # fmt: skip
        win.dock(name).hide()
    runner.docks["diffDock"].raise_()  # the workspace put the trace in front of it
    qtbot.wait(50)
    win.resizeDocks([runner.docks["traceDock"]], [300], Qt.Orientation.Vertical)
    history.tree.scrollToTop()
    win.view.fit()
    qtbot.waitUntil(lambda: not win.validator.busy, timeout=5000)
    image = save_grab(win, "checkpoint-tree.png", tmp_path)
    assert image.width() >= 1280 and image.height() >= 720
