"""The studio opens a LangGraph program (.py): it asks first, naming the file, and runs nothing
on Cancel; after Yes the graph is on the canvas and steps like any spec."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QInputDialog,
    QMessageBox,
    QPushButton,
    QWidget,
)

from tests.graphspec.test_corpus import CORPUS
from tests.studio.helpers import center
from tests.studio.helpers import click as click_at

pytestmark = pytest.mark.gui


def answer_prompt(qtbot, button: QMessageBox.StandardButton, seen: list[str]) -> None:
    """Click `button` on the trust prompt once it is up (it is modal: exec() waits for it)."""

    def press() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, press)
            return
        seen.append(f"{box.objectName()}: {box.text()}")
        qtbot.mouseClick(box.button(button), Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, press)


def click(qtbot, win, name: str) -> None:
    button = win.findChild(QPushButton, name)
    assert button is not None and button.isEnabled(), name
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def idle(qtbot, win) -> None:
    qtbot.waitUntil(lambda: not win.runner.session.busy, timeout=10000)


def test_cancel_on_the_prompt_runs_nothing(qtbot, window, tmp_path):
    marker = tmp_path / "ran.txt"
    program = tmp_path / "side_effect_gui.py"
    program.write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    seen: list[str] = []
    answer_prompt(qtbot, QMessageBox.StandardButton.Cancel, seen)
    assert not window.open_path(program)
    assert seen and "side_effect_gui.py" in seen[0] and seen[0].startswith("importTrustDialog")
    assert not marker.exists()


def test_open_a_python_module_after_the_prompt_and_step_it(qtbot, window):
    seen: list[str] = []
    answer_prompt(qtbot, QMessageBox.StandardButton.Yes, seen)
    assert window.open_path(CORPUS / "seq_steps.py")
    assert "seq_steps.py" in seen[0]
    spec = window.document.spec
    assert [n.id for n in spec.nodes] == ["step_1", "step_2", "step_3"]
    assert window.document.trusted  # the user agreed to run this code
    runner = window.runner
    runner.input_panel.editor.setPlainText(json.dumps({"value_1": "c"}))
    for _ in range(4):  # the input, then step_1, step_2 and step_3 one superstep each
        click(qtbot, window, "stepButton")
        idle(qtbot, window)
    trace = window.findChild(QWidget, "tracePanel")
    text = "\n".join(trace.texts())
    assert "Step 1: runs step_1" in text and "Step 3: runs step_3" in text
    assert "step_3 wrote: value_2 = 10" in text
    channels = window.findChild(QWidget, "channelsPanel")
    assert channels.row_text("value_1")[2].endswith('"a b"')


def test_the_module_reloads_when_its_file_changes_and_the_thread_stays(qtbot, window, tmp_path):
    program = tmp_path / "counter_live.py"
    source = (CORPUS / "seq_steps.py").read_text(encoding="utf-8")
    program.write_text(source, encoding="utf-8")
    seen: list[str] = []
    answer_prompt(qtbot, QMessageBox.StandardButton.Yes, seen)
    assert window.open_path(program)
    window.runner.input_panel.editor.setPlainText(json.dumps({"value_1": "c"}))
    click(qtbot, window, "runButton")
    idle(qtbot, window)
    channels = window.findChild(QWidget, "channelsPanel")
    assert "10" in channels.row_text("value_2")[2]
    thread, before = window.runner.thread_id, window.document.spec

    answer_prompt(qtbot, QMessageBox.StandardButton.Yes, seen)  # the changed code asks again
    program.write_text(source.replace('{"value_2": 10}', '{"value_2": 20}'), encoding="utf-8")
    qtbot.waitUntil(lambda: window.document.spec is not before, timeout=10000)
    assert "changed on disk" in seen[-1]
    assert window.runner.thread_id == thread and window.editor.stack.canUndo()
    click(qtbot, window, "runButton")  # the same thread, now with the new code
    idle(qtbot, window)
    assert "20" in channels.row_text("value_2")[2]


def test_several_graphs_ask_which_one_to_open(qtbot, window, tmp_path):
    program = tmp_path / "two_graphs_gui.py"
    program.write_text(
        textwrap.dedent("""
        from typing_extensions import TypedDict
        from langgraph.graph import START, StateGraph
        class S(TypedDict):
            x: int
        def one(state):
            return {"x": 1}
        def two(state):
            return {"x": 2}
        def build(fn):
            b = StateGraph(S)
            b.add_node(fn.__name__, fn)
            b.add_edge(START, fn.__name__)
            return b.compile()
        drafts = build(one)
        reviews = build(two)
    """),
        encoding="utf-8",
    )
    seen: list[str] = []
    answer_prompt(qtbot, QMessageBox.StandardButton.Yes, seen)

    def pick() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            QTimer.singleShot(20, pick)
            return
        seen.append(dialog.labelText())
        dialog.setTextValue("reviews")
        dialog.accept()

    QTimer.singleShot(0, pick)
    assert window.open_path(program)
    assert "two_graphs_gui.py holds several graphs" in seen[-1]
    assert [n.id for n in window.document.spec.nodes] == ["two"]


def test_one_save_written_in_two_parts_asks_once(qtbot, window, tmp_path):
    """An editor's save: the file truncated and written, then the rest (issue 27.7)."""
    program = tmp_path / "two_writes.py"
    source = (CORPUS / "seq_steps.py").read_text(encoding="utf-8")
    program.write_text(source, encoding="utf-8")
    answer_prompt(qtbot, QMessageBox.StandardButton.Yes, [])
    assert window.open_path(program)
    before = window.document.spec
    asked: list[str] = []

    def answer_each() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox) and box.objectName() == "importTrustDialog":
            asked.append(box.text())
            qtbot.mouseClick(box.button(QMessageBox.StandardButton.Yes), Qt.MouseButton.LeftButton)

    answers = QTimer(interval=20, timeout=answer_each)
    answers.start()
    new = source.replace('{"value_2": 10}', '{"value_2": 20}')
    with program.open("w", encoding="utf-8") as file:
        file.write(new[: len(new) // 2])
        file.flush()
        qtbot.wait(80)
        file.write(new[len(new) // 2 :])
    qtbot.waitUntil(lambda: window.document.spec is not before, timeout=10000)
    qtbot.wait(1000)  # a second prompt would have come by now
    answers.stop()
    assert len(asked) == 1 and "changed on disk" in asked[0]


def test_a_canvas_edit_says_the_module_keeps_its_code_and_save_starts_beside_it(qtbot, window,
                                                                                tmp_path,
                                                                                monkeypatch):  # fmt: skip
    folder = tmp_path / "project"
    folder.mkdir()
    program = folder / "steps_mod.py"
    source = (CORPUS / "seq_steps.py").read_text(encoding="utf-8")
    program.write_text(source, encoding="utf-8")
    answer_prompt(qtbot, QMessageBox.StandardButton.Yes, [])
    assert window.open_path(program) and window.document.code is None  # an editable spec
    banner = window.code_banner
    assert banner.isHidden()  # nothing to say before an edit
    window.activateWindow()  # back from the prompt: the keys reach the window's shortcuts
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    click_at(window.view, center(window.scene.nodes["step_3"]))
    QTest.keyClick(window.view, Qt.Key.Key_Delete)
    assert banner.isVisible()
    assert "steps_mod.py" in banner.label.text() and "not the module" in banner.label.text()
    offered: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda _parent, _caption, start, _filter: offered.append(start) or ("", ""))  # fmt: skip
    QTest.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert offered and Path(offered[0]).parent == folder
    assert program.read_text(encoding="utf-8") == source
