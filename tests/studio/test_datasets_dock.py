"""The Datasets dock: a spec's dataset in the table, an experiment run off the GUI thread with
its progress, the graph changed and run again, and the compare view naming the examples that
changed, regressions first; a double-click opens an example's thread in the debugger.

Screenshots (docs/datasets-*.png):
`SUPERSTEP_SCREENSHOT_DIR=docs python -m pytest tests/studio/test_datasets_dock.py -k compare`."""

from __future__ import annotations

import json
import shutil

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QProgressBar, QPushButton, QTableWidget

from graphspec.templates import SOURCE_TEMPLATES
from tests.studio.test_run_screenshot import save_grab

DATASET = "ticket_triage.tickets.jsonl"


@pytest.fixture
def triage(tmp_path, window):
    for name in ("ticket_triage.json", DATASET):
        shutil.copy(SOURCE_TEMPLATES / name, tmp_path / name)
    assert window.open_path(tmp_path / "ticket_triage.json")
    assert window.datasets_dock  # its panel is built after the first paint (issue 32.1): now
    return window, tmp_path


def _dock(window):
    return window.datasets_dock


def _run(qtbot, window):
    dock = _dock(window)
    before = len(dock.experiments)
    qtbot.mouseClick(window.findChild(QPushButton, "runExperiment"), Qt.MouseButton.LeftButton)
    assert window.findChild(QPushButton, "stopExperiment").isEnabled() or dock.experiments
    qtbot.waitUntil(lambda: len(dock.experiments) == before + 1, timeout=30000)
    return dock.experiments[-1]


def _shoot(window, qtbot, tab, name, tmp_path):
    """The Datasets dock on tab `tab`, floated large enough to read, grabbed; then docked back."""
    dock = window.dock("datasetsDock")
    dock.show()
    dock.setFloating(True)
    dock.resize(1180, 700)
    _dock(window).tabs.setCurrentIndex(tab)
    qtbot.wait(50)
    save_grab(dock, name, tmp_path)
    dock.setFloating(False)


def _classify(window, old, new):
    node = next(n for n in window.document.spec.nodes if n.id == "classify")
    values = dict(node.values)
    values["category"] = values["category"].replace(old, new)
    assert window.editor.set_node("classify", values=values)


def test_an_experiment_runs_the_graph_changes_and_compare_shows_what_changed(triage, qtbot,
                                                                          tmp_path):  # fmt: skip
    window, folder = triage
    _shoot(window, qtbot, 0, "datasets-table.png", tmp_path)
    assert window.findChild(type(window.dock("problemsDock")), "datasetsDock") is not None
    table = window.findChild(QTableWidget, "datasetTable")
    assert table.rowCount() == 12 and table.item(0, 0).text() == "refund"
    assert json.loads(table.item(0, 1).text()) == {"ticket": "Please refund my last invoice."}

    first = _run(qtbot, window)
    progress = window.findChild(QProgressBar, "experimentProgress")
    assert (progress.value(), progress.maximum()) == (12, 12)
    assert first.summary().passed == 10 and not first.stopped
    results = window.findChild(QTableWidget, "experimentResults")
    assert results.rowCount() == 12
    assert (folder / "ticket_triage.experiments" / f"{first.id}.json").is_file()
    _shoot(window, qtbot, 1, "datasets-results.png", tmp_path)

    # the graph learns 'password' and forgets 'refund'/'invoice'
    _classify(window, "'login' in", "'password' in ticket.lower() or 'login' in")
    _classify(window, "'refund' in ticket.lower() or 'invoice' in ticket.lower() or ", "")
    second = _run(qtbot, window)
    assert second.id != first.id

    qtbot.mouseClick(window.findChild(QPushButton, "compareExperiments"),
                     Qt.MouseButton.LeftButton)  # fmt: skip
    shown = _dock(window).compared.statuses()
    assert shown[:2] == [("regressed", "refund"), ("improved", "password")]
    assert {status for status, _ in shown[2:]} == {"same"}
    diff = window.findChild(type(_dock(window).diff), "compareDiff").toPlainText()
    assert '- "category": "billing",' in diff and '+ "category": "general",' in diff
    assert "1 regressed, 1 improved, 10 same" in _dock(window).compare_summary.text()
    chart = _dock(window).chart  # the scores' distributions: one example moved each way
    assert chart.distributions["exact:category"] == ([2, 0, 0, 0, 10], [2, 0, 0, 0, 10])
    assert chart.isVisible() and chart.height() >= chart.sizeHint().height()
    _shoot(window, qtbot, 2, "datasets-compare.png", tmp_path)

    # a double-click on a result opens the example's thread in the debugger
    results.cellDoubleClicked.emit(0, 0)
    assert window.runner.thread_id == second.examples[0].thread


def test_a_bad_cell_is_named_and_nothing_runs(triage, qtbot):
    window, _ = triage
    table = window.findChild(QTableWidget, "datasetTable")
    table.item(2, 1).setText("{not json")
    qtbot.mouseClick(window.findChild(QPushButton, "runExperiment"), Qt.MouseButton.LeftButton)
    assert "row 3, input: not JSON" in _dock(window).status.text()
    assert _dock(window).experiments == [] and not _dock(window).running


def test_an_imported_csv_is_listed_edited_and_saved(triage, qtbot):
    window, folder = triage
    csv = folder / "more.csv"
    csv.write_text("id,input.ticket,expected.category\nx,Refund please,billing\n")
    dock = _dock(window)
    assert dock.import_file(csv)
    table = window.findChild(QTableWidget, "datasetTable")
    assert dock.selector.currentText() == "more.csv" and table.rowCount() == 1
    qtbot.mouseClick(window.findChild(QPushButton, "addExample"), Qt.MouseButton.LeftButton)
    table.item(1, 1).setText('{"ticket": "app crash"}')
    table.item(1, 2).setText('{"category": "technical"}')
    qtbot.mouseClick(window.findChild(QPushButton, "saveDataset"), Qt.MouseButton.LeftButton)
    assert csv.read_text().splitlines()[-1] == "example-2,app crash,technical"
    experiment = _run(qtbot, window)
    assert experiment.scorers == ["exact:category"] and experiment.summary().passed == 2


def test_the_current_run_is_added_to_the_dataset(triage, qtbot):
    window, folder = triage
    qtbot.mouseClick(window.findChild(QPushButton, "runButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.runner.view is not None and not window.runner.session.busy
                    and "priority" in window.runner.view.values, timeout=10000)  # fmt: skip
    thread = window.runner.thread_id
    qtbot.mouseClick(window.findChild(QPushButton, "addRunToDataset"), Qt.MouseButton.LeftButton)
    table = window.findChild(QTableWidget, "datasetTable")
    assert table.rowCount() == 13 and table.item(12, 0).text() == thread
    assert json.loads(table.item(12, 1).text()) == {"ticket": "Please refund my last invoice."}
    assert json.loads(table.item(12, 3).text()) == {
        "ticket": "Please refund my last invoice.",
        "category": "billing",
        "priority": "normal",
    }
    qtbot.mouseClick(window.findChild(QPushButton, "saveDataset"), Qt.MouseButton.LeftButton)
    last = json.loads((folder / DATASET).read_text().splitlines()[-1])
    assert last["id"] == thread and last["reference"]["category"] == "billing"


def _answer(qtbot, dock, button):
    qtbot.waitUntil(lambda: dock.consent.prompt is not None and dock.consent.prompt.isVisible())
    prompt, dock.consent.prompt = dock.consent.prompt, None
    qtbot.mouseClick(prompt.button(button), Qt.MouseButton.LeftButton)


def _slow_dataset(window, folder):
    """A dataset whose scorer (code) takes half a second an example, picked in the dock."""
    (folder / "slow.py").write_text("import time\n\ndef slow(output, example):\n"
                                    "    time.sleep(0.5)\n    return True\n")  # fmt: skip
    lines = [json.dumps({"scorers": ["python:slow.py:slow"]})]
    lines += [json.dumps({"id": f"t{i}", "input": {"ticket": "hi"}}) for i in range(12)]
    (folder / "ticket_triage.slow.jsonl").write_text("\n".join(lines) + "\n")
    assert window.open_path(folder / "ticket_triage.json")  # opened again: the new dataset
    dock = _dock(window)
    dock.selector.setCurrentIndex(dock.selector.findText("ticket_triage.slow.jsonl"))
    return dock


def test_a_python_scorer_asks_first_and_stop_ends_the_experiment(triage, qtbot):
    """The dataset's scorer is code: the dock asks before it runs (Cancel runs nothing); then
    Stop, pressed as the first example ends, leaves the examples not yet started."""
    window, folder = triage
    dock = _slow_dataset(window, folder)
    run = window.findChild(QPushButton, "runExperiment")
    qtbot.mouseClick(run, Qt.MouseButton.LeftButton)
    _answer(qtbot, dock, QMessageBox.StandardButton.Cancel)
    assert not dock.running and dock.experiments == []
    qtbot.mouseClick(run, Qt.MouseButton.LeftButton)
    _answer(qtbot, dock, QMessageBox.StandardButton.Yes)
    progress = window.findChild(QProgressBar, "experimentProgress")
    qtbot.waitUntil(lambda: progress.value() >= 1, timeout=10000)
    qtbot.mouseClick(window.findChild(QPushButton, "stopExperiment"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(dock.experiments), timeout=10000)
    stopped = dock.experiments[-1]
    assert stopped.stopped and 1 <= len(stopped.examples) < 12
    assert all(r.scores == {"python:slow.py:slow": 1.0} for r in stopped.examples)
    assert "(stopped)" in dock.status.text() and run.isEnabled()


def test_an_experiment_left_by_opening_another_graph_stays_with_its_own(triage, qtbot):
    window, folder = triage
    dock = _slow_dataset(window, folder)
    qtbot.mouseClick(window.findChild(QPushButton, "runExperiment"), Qt.MouseButton.LeftButton)
    _answer(qtbot, dock, QMessageBox.StandardButton.Yes)
    other = folder / "other"
    other.mkdir()
    shutil.copy(SOURCE_TEMPLATES / "router.json", other / "router.json")
    assert window.open_path(other / "router.json")
    qtbot.waitUntil(lambda: not dock.running, timeout=10000)
    assert dock.experiments == [] and dock.results.widget.rowCount() == 0
    (left,) = (folder / "ticket_triage.experiments").glob("*.json")  # beside the graph it ran
    assert json.loads(left.read_text())["stopped"] is True


def test_an_experiment_runs_again_on_the_recorded_calls_of_another(triage, qtbot):
    window, _ = triage
    first = _run(qtbot, window)
    models = _dock(window).models
    assert models.itemText(0) == "Live models"
    models.setCurrentIndex(models.findData(first.id))
    _dock(window).concurrency.setValue(2)
    again = _run(qtbot, window)
    assert again.models == "recorded" and again.summary().passed == 10
    assert [r.output for r in again.examples] == [r.output for r in first.examples]
    qtbot.mouseClick(window.findChild(QPushButton, "compareExperiments"),
                     Qt.MouseButton.LeftButton)  # fmt: skip
    assert {status for status, _ in _dock(window).compared.statuses()} == {"same"}


def test_edits_stay_with_their_dataset_when_another_is_picked(triage, qtbot):
    window, folder = triage
    dock = _dock(window)
    csv = folder / "more.csv"
    csv.write_text("id,input.ticket\nx,hello\n")
    assert dock.import_file(csv)
    table = window.findChild(QTableWidget, "datasetTable")
    table.item(0, 1).setText('{"ticket": "edited"}')
    dock.selector.setCurrentIndex(0)  # back to the template's tickets
    assert table.rowCount() == 12
    dock.selector.setCurrentIndex(1)
    assert table.item(0, 1).text() == '{"ticket": "edited"}'
    assert csv.read_text() == "id,input.ticket\nx,hello\n"  # unsaved until Save
