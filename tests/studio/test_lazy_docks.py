"""Docks hidden or tabbed behind another at start (Datasets, Server, Chat, Breakpoints) build their panels right
after the window's first paint, or before when shown or when code reads the window's attribute
for them (issue 32.1: the window is drawn without them; tests/studio/test_start_imports.py
checks their modules are not loaded at the first paint)."""

from __future__ import annotations

import json
import shutil

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QDockWidget, QTableWidget

from graphspec.templates import SOURCE_TEMPLATES


def _triage(window, folder):
    for name in ("ticket_triage.json", "ticket_triage.tickets.jsonl"):
        shutil.copy(SOURCE_TEMPLATES / name, folder / name)
    assert window.open_path(folder / "ticket_triage.json")


def test_the_panels_are_built_right_after_the_first_paint(window, qtbot, tmp_path):
    qtbot.waitUntil(lambda: window.findChild(QComboBox, "datasetSelector") is not None)
    assert "remote_panel" in vars(window) and "datasets_dock" in vars(window)
    assert window.dock("datasetsDock").widget().widget() is window.datasets_dock.panel
    _triage(window, tmp_path)  # opened after the build: the dock follows the document
    table = window.findChild(QTableWidget, "datasetTable")
    assert table.rowCount() == 12 and table.item(0, 0).text() == "refund"


@pytest.fixture
def unpainted(qtbot, home):
    from studio.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    return win


def test_reading_the_attribute_builds_the_panel_once_with_the_open_specs_dataset(
    unpainted, tmp_path
):
    _triage(unpainted, tmp_path)  # opened before the build
    assert unpainted.findChild(QComboBox, "datasetSelector") is None
    dock = unpainted.datasets_dock
    assert unpainted.findChildren(QComboBox, "datasetSelector") == [dock.selector]
    assert dock.selector.currentText() == "ticket_triage.tickets.jsonl"
    unpainted.build_lazy("datasetsDock")  # built already: nothing happens
    assert unpainted.datasets_dock is dock
    assert unpainted.findChildren(QComboBox, "datasetSelector") == [dock.selector]


def test_connect_to_server_builds_the_server_panel_and_focuses_its_address(window, qtbot):
    dock = window.findChild(QDockWidget, "remoteDock")
    assert dock is not None and not dock.isVisible()
    window.findChild(QAction, "connectServerAction").trigger()
    qtbot.waitUntil(dock.isVisible)
    panel = window.remote_panel
    assert dock.widget().widget() is panel
    qtbot.waitUntil(panel.url_edit.hasFocus)
    assert panel.url_edit.selectedText() == panel.url_edit.text()


def test_an_unknown_attribute_is_still_an_attribute_error(unpainted):
    with pytest.raises(AttributeError, match="no_such_thing"):
        unpainted.no_such_thing  # noqa: B018  (the lookup is the test)
    assert not hasattr(unpainted, "datasets")


def test_a_chat_panel_made_after_its_thread_was_read_shows_the_threads_messages(
    unpainted, qtbot, tmp_path
):
    from studio.cli import main

    spec = tmp_path / "react_agent.json"
    shutil.copy(SOURCE_TEMPLATES / "react_agent.json", spec)
    db = tmp_path / "react_agent.checkpoints.sqlite"  # where the studio keeps a saved spec's runs
    assert main(["run", str(spec), "--trust", "--db", str(db)]) == 0
    assert unpainted.open_path(spec)
    unpainted.trust()  # the thread is read through its compiled graph
    qtbot.waitUntil(lambda: unpainted.runner.threads == ["main"])  # listed on a worker
    unpainted.runner.choose_thread("main")
    qtbot.waitUntil(lambda: unpainted.runner.view is not None)  # read on a worker
    assert "chat_panel" not in vars(unpainted)
    panel = unpainted.chat_panel
    assert [m.type for m in panel.messages] == ["human", "ai", "tool", "ai"]
    assert panel.messages == unpainted.runner.view.values["messages"]


def test_a_breakpoints_panel_made_after_the_spec_opened_lists_its_breakpoints(unpainted, tmp_path):
    spec = json.loads((SOURCE_TEMPLATES / "router.json").read_text(encoding="utf-8"))
    spec["breakpoints"] = {"before": ["b"], "points": [{"node": "c", "at": "after", "hit": 2}]}
    path = tmp_path / "router.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    assert unpainted.open_path(path)
    assert "breakpoints_panel" not in vars(unpainted)
    table = unpainted.breakpoints_panel.table
    assert table.rowCount() == 2
    assert unpainted.dock("breakpointsDock").widget().widget() is unpainted.breakpoints_panel


def test_a_run_reaching_the_deep_agent_panel_first_makes_it_once(unpainted):
    """The run side reads `runner.deep_agent` when a step's events come (or a run clears it)."""
    assert "_deep_agent" not in vars(unpainted.runner)
    panel = unpainted.runner.deep_agent
    assert unpainted.dock("deepAgentDock").widget().widget() is panel
    assert unpainted.runner.deep_agent is panel
