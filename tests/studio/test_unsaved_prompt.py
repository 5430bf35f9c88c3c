"""Whatever replaces the document asks to save unsaved edits first (issue 27.1): File → New
(Ctrl+N), File → Open (Ctrl+O), a template or a recent file on the start page, Recover in the
recovery banner. Don't save keeps the edits in the recovery banner, now and on the next start."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QPushButton

from graphspec.io import read_spec
from graphspec.templates import TEMPLATES_DIR
from tests.studio.helpers import center, click

pytestmark = pytest.mark.gui

LEFT = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier
Button = QMessageBox.StandardButton


def delete_node(qtbot, win, node_id: str) -> None:
    """Click the node, press Delete: an unsaved edit (the title gets its `*`)."""
    win.activateWindow()
    click(win.view, center(win.scene.nodes[node_id]))
    QTest.keyClick(win.view, Qt.Key.Key_Delete)
    assert node_id not in win.scene.nodes and win.windowTitle().count(" *") == 1


def answer(qtbot, win, button: Button) -> None:
    """The save prompt is up: click `button` on it."""
    qtbot.waitUntil(lambda: prompt(win) is not None, timeout=3000)
    box = prompt(win)
    assert "Save the changes" in box.text()
    qtbot.mouseClick(box.button(button), LEFT)


def prompt(win) -> QMessageBox | None:
    shown = [b for b in win.findChildren(QMessageBox, "savePrompt") if b.isVisible()]
    return shown[0] if shown else None


def nodes(win) -> list[str]:
    return [n.id for n in win.document.spec.nodes]


def saved_copy(win, tmp_path, name: str = "router"):
    path = tmp_path / f"{name}.json"
    path.write_bytes((TEMPLATES_DIR / f"{name}.json").read_bytes())
    assert win.open_path(path)
    return path


def test_ctrl_n_asks_cancel_keeps_the_edits_and_dont_save_keeps_them_recoverable(qtbot, window):
    win = window
    assert win.open_path(TEMPLATES_DIR / "router.json", bundled=True)
    delete_node(qtbot, win, "a")
    edited = win.document.spec
    QTest.keyClick(win.view, Qt.Key.Key_N, CTRL)
    answer(qtbot, win, Button.Cancel)
    assert win.document.spec is edited and win.unsaved()
    QTest.keyClick(win.view, Qt.Key.Key_N, CTRL)
    answer(qtbot, win, Button.Discard)
    assert nodes(win) == [] and not win.unsaved()  # the new graph
    banner = win.recovery_banner
    assert banner.isVisibleTo(win) and "you chose not to save" in banner.label.text()
    qtbot.mouseClick(win.findChild(QPushButton, "recoverButton"), LEFT)
    assert nodes(win) == [n.id for n in edited.nodes] and win.unsaved()
    assert not banner.isVisibleTo(win)


def test_ctrl_o_asks_and_save_writes_the_edits_before_opening(qtbot, window, tmp_path,
                                                              monkeypatch):  # fmt: skip
    win = window
    path = saved_copy(win, tmp_path)
    other = tmp_path / "approval.json"
    other.write_bytes((TEMPLATES_DIR / "approval.json").read_bytes())
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(other), ""))
    delete_node(qtbot, win, "a")
    QTest.keyClick(win.view, Qt.Key.Key_O, CTRL)
    answer(qtbot, win, Button.Save)
    assert "a" not in [n.id for n in read_spec(path).nodes]  # saved first
    assert win.document.path == other and not win.unsaved()
    assert not win.recovery_banner.isVisibleTo(win)  # saved: nothing to offer back


def test_a_template_or_a_recent_file_on_the_start_page_asks(qtbot, window, tmp_path):
    win = window
    path = saved_copy(win, tmp_path)
    delete_node(qtbot, win, "a")
    win.actions_by_name["start_page"].trigger()
    page = win.start_page
    item = page.template_item("approval")
    page.gallery.scrollToItem(item)
    qtbot.mouseClick(page.gallery.viewport(), LEFT, pos=page.gallery.visualItemRect(item).center())
    answer(qtbot, win, Button.Cancel)
    assert win.document.path == path and win.unsaved()
    recent = page.recent.item(0)
    assert recent.data(Qt.ItemDataRole.UserRole) == str(path.resolve())
    where = page.recent.visualItemRect(recent).center()
    qtbot.wait(QApplication.doubleClickInterval() + 50)  # a person's pace after the last click
    qtbot.mouseClick(page.recent.viewport(), LEFT, pos=where)  # a double-click: press, release,
    qtbot.mouseDClick(page.recent.viewport(), LEFT, pos=where)  # then QTest's second press
    answer(qtbot, win, Button.Discard)
    assert win.pages.currentWidget() is win.view and "a" in nodes(win)  # the file as saved
    assert "you chose not to save" in win.recovery_banner.label.text()


def test_recover_asks_before_replacing_unsaved_edits(qtbot, window, tmp_path):
    win = window
    saved_copy(win, tmp_path)
    delete_node(qtbot, win, "a")
    QTest.keyClick(win.view, Qt.Key.Key_N, CTRL)
    answer(qtbot, win, Button.Discard)
    win.editor.add_node("model", 100, 100)  # edits on the new graph
    qtbot.mouseClick(win.findChild(QPushButton, "recoverButton"), LEFT)
    answer(qtbot, win, Button.Cancel)
    assert nodes(win) == ["model"]
    qtbot.mouseClick(win.findChild(QPushButton, "recoverButton"), LEFT)
    answer(qtbot, win, Button.Discard)
    assert "a" not in nodes(win) and "b" in nodes(win)  # the router as edited
    assert [n.id for n in win.recoveries[0].spec.nodes] == ["model"]  # the new graph, kept


def test_a_document_replaced_without_a_prompt_keeps_its_edits(qtbot, window, tmp_path):
    """A script or a reload opening another graph over unsaved edits: they are set aside."""
    win = window
    saved_copy(win, tmp_path)
    delete_node(qtbot, win, "a")
    assert win.open_path(TEMPLATES_DIR / "approval.json", bundled=True)
    assert "left when another graph opened" in win.recovery_banner.label.text()
    assert "a" not in [n.id for n in win.recoveries[0].spec.nodes]
