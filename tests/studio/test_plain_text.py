"""Spec text (ids, labels, file names, findings, run errors) is shown as written, never rendered
as HTML; and autosave on a full disk keeps the previous autosave and says so."""

from __future__ import annotations

import json
import os

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTreeWidget

from tests.full_disk import tiny_disk
from tests.studio.test_run_steps import click, idle

pytestmark = pytest.mark.gui
HTML = "<b>bold</b><img src='x.png'>"
PLAIN = Qt.TextFormat.PlainText


def test_a_load_error_quoting_html_is_plain(window, tmp_path):
    path = tmp_path / "<i>odd.json"
    path.write_text(json.dumps({"version": 2, "nodes": [{"id": HTML, "kind": "set_state"}]}))
    assert not window.open_path(path)
    box = window.load_error_box
    assert box.textFormat() == PLAIN and "<i>odd.json" in box.text()
    info = box.findChild(QLabel, "qt_msgbox_informativelabel")
    assert info.textFormat() == PLAIN and HTML in info.text()


def test_banner_status_problems_and_marks_show_text_as_written(qtbot, window, tmp_path):
    code = "def boom(state):\n    return {}\n"
    child = {
        "version": 2,
        "nodes": [{"id": "c", "kind": "set_state"}],
        "entry": ["c"],
        "finish": ["c"],
    }
    (tmp_path / "<i>c.json").write_text(json.dumps(child))
    doc = {"version": 2, "state": [{"name": "x"}],
           "nodes": [{"id": "boom", "kind": "function", "code": code, "function": "boom", "label": HTML,
                      "destinations": ["<u>nowhere</u>"]},
                     {"id": "s", "kind": "subgraph", "subgraph": "inner"}],
           "subgraphs": [{"id": "inner", "file": "<i>c.json"}],
           "entry": ["boom"], "finish": ["boom"],
           "edges": [{"id": "e", "sources": ["boom"], "target": "<u>nowhere</u>"}]}  # fmt: skip
    (tmp_path / "g.json").write_text(json.dumps(doc))
    win = window
    assert win.open_path(tmp_path / "g.json")
    qtbot.waitUntil(lambda: not win.validator.busy, timeout=5000)
    assert win.trust_banner.label.textFormat() == PLAIN
    problems = win.findChild(QTreeWidget, "problemsPanel")
    tips = [problems.topLevelItem(i).toolTip(2) for i in range(problems.topLevelItemCount())]
    quoting = [t for t in tips if "nowhere" in t]
    assert quoting and all("&lt;u&gt;nowhere&lt;/u&gt;" in t for t in quoting)
    marked = [i.toolTip() for i in win.scene.items() if "nowhere" in i.toolTip()]
    assert marked and all("&lt;u&gt;nowhere&lt;/u&gt;" in t for t in marked)
    click(qtbot, win, "trustButton")
    click(qtbot, win, "runButton")  # the compile error quotes the destination
    idle(qtbot, win)
    status = win.runner.status
    assert status.textFormat() == PLAIN and "'<u>nowhere</u>'" in status.text()
    if folder := os.environ.get("SUPERSTEP_SCREENSHOT_DIR"):
        win.grab().save(os.path.join(folder, "plain-text-status.png"))
    win.scene.select_ids(["boom"])
    title = win.inspector.findChild(QLabel, "inspectorTitle")
    assert title is not None and title.textFormat() == PLAIN


# ------------------------------------------------------------------ autosave on a full disk


@pytest.fixture
def disk(home, monkeypatch):
    with tiny_disk(home / "autosave", monkeypatch) as tiny:
        yield tiny


def test_autosave_on_a_full_disk_keeps_the_previous_one_and_says_so(qtbot, disk):
    from studio.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    win.new_graph()
    win.editor.add_node("set_state", 0, 0)
    qtbot.waitUntil(win.autosave.file.exists, timeout=3000)
    before = win.autosave.file.read_text()
    disk.fill()
    win.editor.add_node("interrupt", 0, 200)
    qtbot.waitUntil(lambda: "Autosave failed" in win.statusBar().currentMessage(), timeout=3000)
    message = win.statusBar().currentMessage()
    assert "the disk is full" in message and "previous autosave is kept" in message
    assert win.autosave.file.read_text() == before  # the previous autosave, whole
    assert not [f for f in disk.files() if f.endswith(".tmp")]
    win.close()
