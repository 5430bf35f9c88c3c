"""The studio opening hostile files (NaN positions, FIFOs, devices) and pasting hostile JSON:
a clear message, never a crash or a hang."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from studio.editor import CLIPBOARD_KIND
from tests.studio.test_run_steps import click, idle

pytestmark = pytest.mark.gui
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

NAN_SPEC = '{"version": 2, "nodes": [{"id": "a", "kind": "set_state", "position": {"x": NaN, "y": Infinity}}]}'


def test_nan_positions_are_refused_with_file_and_path(window, tmp_path):
    path = tmp_path / "nan.json"
    path.write_text(NAN_SPEC)
    assert not window.open_path(path)
    assert window.load_errors == ["$.nodes[0].position.x: is NaN: numbers must be finite",
                                  "$.nodes[0].position.y: is infinite: numbers must be finite"]  # fmt: skip
    assert "nan.json" in window.load_error_box.text()
    assert window.pages.currentWidget() is window.start_page  # nothing was opened


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_opening_a_fifo_device_or_folder_says_so(window, tmp_path, kind):
    path = tmp_path / "graph.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    assert not window.open_path(path)
    assert "not a regular file" in window.load_errors[0]


def test_a_subgraph_fifo_opens_the_parent_and_refuses_to_run(qtbot, window, tmp_path):
    os.mkfifo(tmp_path / "child.json")
    parent = {"version": 2, "nodes": [{"id": "s", "kind": "subgraph", "subgraph": "inner"}],
              "subgraphs": [{"id": "inner", "file": "child.json"}], "entry": ["s"], "finish": ["s"]}  # fmt: skip
    (tmp_path / "parent.json").write_text(json.dumps(parent))
    assert window.open_path(tmp_path / "parent.json")
    idle(qtbot, window)
    click(qtbot, window, "runButton")
    idle(qtbot, window)
    assert "not a regular file" in window.runner.status.text()


def test_the_studio_process_exits_when_given_a_fifo(tmp_path):
    os.mkfifo(tmp_path / "pipe.json")
    env = {**os.environ, "PYTHONPATH": ROOT, "QT_QPA_PLATFORM": "offscreen",
           "SUPERSTEP_STUDIO_HOME": str(tmp_path / "home")}  # fmt: skip
    result = subprocess.run([sys.executable, "-m", "studio.cli", "studio", str(tmp_path / "pipe.json"), "--quit"],
                            capture_output=True, text=True, timeout=60, env=env)  # fmt: skip
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "position", ['{"x": NaN, "y": 0}', '{"x": 1e999, "y": 0}', '{"x": 0, "y": -Infinity}']
)
def test_pasting_non_finite_positions_adds_nothing(qtbot, window, position):
    window.new_graph()
    node = (
        '{"id": "a", "kind": "set_state", "position": ' + position + "}"
    )  # not JSON: json.dumps refuses NaN
    QApplication.clipboard().setText(
        '{"kind": "' + CLIPBOARD_KIND + '", "spec": {"nodes": [' + node + "]}}"
    )
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert window.document.spec.nodes == [] and window.scene.nodes == {}
    assert "finite" in window.statusBar().currentMessage()
