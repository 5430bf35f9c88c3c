"""Trust in the studio covers everything that can run: subgraph files (changed on disk after
trusting), pasted code. Each attack's code would write a marker file: nothing may appear."""

from __future__ import annotations

import json
import os

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from studio.editor import CLIPBOARD_KIND
from tests.studio.test_run_steps import click, idle

pytestmark = pytest.mark.gui


def writer(marker, fn: str = "work") -> str:
    return f"def {fn}(state):\n    open({str(marker)!r}, 'w').write('ran')\n    return {{'x': 1}}\n"


def function_node(node_id: str, code: str, x: float = 0) -> dict:
    return {"id": node_id, "kind": "function", "code": code, "function": node_id,
            "position": {"x": x, "y": 0}}  # fmt: skip


def write_child(folder, marker) -> None:
    child = {"version": 2, "state": [{"name": "x"}], "nodes": [function_node("work", writer(marker))],
             "entry": ["work"], "finish": ["work"]}  # fmt: skip
    (folder / "child.json").write_text(json.dumps(child))


@pytest.fixture
def family(tmp_path):
    """parent.json (its own harmless code) runs sub, a subgraph read from child.json."""
    parent = {
        "version": 2, "state": [{"name": "x"}],
        "nodes": [function_node("own", "def own(state):\n    return {'x': 0}\n"),
                  {"id": "sub", "kind": "subgraph", "subgraph": "inner", "position": {"x": 0, "y": 150}}],
        "subgraphs": [{"id": "inner", "file": "child.json"}],
        "entry": ["own"], "edges": [{"id": "e1", "sources": ["own"], "target": "sub"}], "finish": ["sub"],
    }  # fmt: skip
    (tmp_path / "parent.json").write_text(json.dumps(parent))
    write_child(tmp_path, tmp_path / "v1.txt")
    return tmp_path


def trust_and_run(qtbot, win, path) -> None:
    assert win.open_path(path)
    idle(qtbot, win)
    assert win.trust_banner.isVisible()
    click(qtbot, win, "trustButton")
    click(qtbot, win, "runButton")
    idle(qtbot, win)


def test_the_banner_lists_code_in_subgraph_files(qtbot, window, family, tmp_path):
    win = window
    assert win.open_path(family / "parent.json")
    text = win.trust_banner.label.text()
    assert (
        win.trust_banner.isVisible() and "work in child.json" in text and "own in this spec" in text
    )
    if folder := os.environ.get("SUPERSTEP_SCREENSHOT_DIR"):
        win.grab().save(os.path.join(folder, "trust-banner-subgraph.png"))


def test_a_changed_child_asks_again_on_reopen_and_nothing_runs(qtbot, window, family):
    win = window
    trust_and_run(qtbot, win, family / "parent.json")
    assert (family / "v1.txt").read_text() == "ran"  # trusted: the child's code ran
    write_child(family, family / "v2.txt")  # a collaborator changes child.json
    assert win.open_path(family / "parent.json")
    idle(qtbot, win)
    assert win.trust_banner.isVisible() and "work in child.json" in win.trust_banner.label.text()
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    assert "trust it" in win.runner.status.text()
    assert not (family / "v2.txt").exists()


def test_a_child_changed_while_open_asks_again_at_run(qtbot, window, family):
    win = window
    trust_and_run(qtbot, win, family / "parent.json")
    write_child(family, family / "v2.txt")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    assert win.trust_banner.isVisible() and "changed" in win.trust_banner.label.text()
    assert not (family / "v2.txt").exists()
    click(qtbot, win, "trustButton")  # reviewed: now it runs
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    assert (family / "v2.txt").read_text() == "ran"


def test_a_new_subgraph_file_pulled_in_later_asks(qtbot, window, family):
    """A trusted parent whose child.json was missing when trusted: the file that appears later
    has not been reviewed."""
    win = window
    (family / "child.json").unlink()
    trust_and_run(qtbot, win, family / "parent.json")
    assert "child.json" in win.runner.status.text()  # cannot run: the file is missing
    write_child(family, family / "v2.txt")
    assert win.open_path(family / "parent.json")
    idle(qtbot, win)
    assert win.trust_banner.isVisible()
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    assert not (family / "v2.txt").exists()


def test_an_unchanged_closure_stays_trusted(qtbot, window, family):
    win = window
    trust_and_run(qtbot, win, family / "parent.json")
    (family / "v1.txt").unlink()
    assert win.open_path(family / "parent.json")
    idle(qtbot, win)
    assert not win.trust_banner.isVisible()
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    assert (family / "v1.txt").read_text() == "ran"


def paste_text(marker) -> str:
    part = {"version": 2, "nodes": [function_node("pasted", writer(marker, "pasted"), x=200)]}
    return json.dumps({"kind": CLIPBOARD_KIND, "spec": part})


def test_pasted_code_is_reviewed_like_opened_code(qtbot, window, tmp_path):
    win = window
    win.new_graph()  # the user's own graph: trusted
    assert win.document.trusted and not win.trust_banner.isVisible()
    marker = tmp_path / "pasted.txt"
    QApplication.clipboard().setText(paste_text(marker))
    win.view.setFocus()
    qtbot.keyClick(win.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert win.document.spec.node("pasted") is not None
    assert win.trust_banner.isVisible() and "Pasted" in win.trust_banner.label.text()
    assert "pasted" in win.trust_banner.label.text()
    win.editor.connect("__start__", "pasted")
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    assert not marker.exists() and "trust it" in win.runner.status.text()
    path = tmp_path / "saved.json"
    assert win.save_as(path)  # saving does not record the pasted code as trusted
    assert win.open_path(path)
    assert win.trust_banner.isVisible() and not win.document.trusted
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    assert not marker.exists()


def test_pasting_code_free_elements_keeps_trust(qtbot, window):
    win = window
    win.new_graph()
    part = {"version": 2, "nodes": [{"id": "s", "kind": "set_state", "position": {"x": 0, "y": 0}}]}
    QApplication.clipboard().setText(json.dumps({"kind": CLIPBOARD_KIND, "spec": part}))
    win.view.setFocus()
    qtbot.keyClick(win.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert win.document.spec.node("s") is not None
    assert win.document.trusted and not win.trust_banner.isVisible()
