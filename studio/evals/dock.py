"""The Datasets dock: the spec's datasets, their examples in an editable table, experiments run
off the GUI thread (progress bar, Stop), their per-example results (a double-click opens the
example's thread in the debugger) and two experiments compared, regressions first.

The work is `graphspec.evals` (no Qt); this reads the window's public face only: the document,
`run_blocker`/`run_args` (what a run may compile), the run controller's database and its
thread selector (`choose_thread`). Results files go to `SPEC.experiments/` beside the database.
"""

from __future__ import annotations

import json
import threading
from functools import cache
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from engine.pregel.trace_format import to_json
from graphspec.errors import BadInput
from graphspec.evals.command import scorer_names, scorers_for
from graphspec.evals.compare import compare
from graphspec.evals.datasets import Dataset, Example, datasets_beside, load_dataset, save_dataset
from graphspec.evals.experiment import run_experiment
from graphspec.evals.results import Experiment, load_experiment, save_experiment
from graphspec.evals.scorers import code_files
from graphspec.templates import is_bundled, list_templates
from studio.evals.score_chart import ScoreChart
from studio.evals.scorer_consent import ScorerConsent
from studio.evals.tables import CompareTable, DatasetTable, ResultsTable
from studio.i18n import translate
from studio.run.widgets import MONO, button

DB_SUFFIX = ".checkpoints.sqlite"


class _Relay(QObject):
    """Lives on the GUI thread: the experiment's thread emits, the dock's slots run here."""

    progressed = Signal(object, int, int)  # ExampleResult, done, of all
    finished = Signal(object, object)  # Experiment | None, error | None


class DatasetsDock(QObject):
    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.datasets: list[Dataset] = []
        self._shown: Dataset | None = None
        """The dataset the table shows (its edits are kept when another is picked)."""
        self.experiments: list[Experiment] = []
        self._stop: threading.Event | None = None
        self.consent = ScorerConsent()
        self._running_for: Path | None = None
        """The results folder of the graph the running experiment belongs to."""
        self._relay = _Relay(self)
        self._relay.progressed.connect(self._progressed)
        self._relay.finished.connect(self._finished)
        self.panel = self._build()
        window.document.reset.connect(self._spec_loaded)
        self._spec_loaded()

    # -- the panel
    def _build(self) -> QWidget:
        panel = QWidget()
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(4, 4, 4, 4)
        self.selector = QComboBox()
        self.selector.setObjectName("datasetSelector")
        self.selector.currentIndexChanged.connect(self._show_dataset)
        top = QHBoxLayout()
        top.addWidget(QLabel(translate("evals.dock", "Dataset")))
        top.addWidget(self.selector, 1)
        for name, text, slot in (("importDataset", "Import…", self.ask_import),
                                 ("addExample", translate("evals.dock", "Add example"), self.add_example),
                                 ("addRunToDataset", translate("evals.dock", "Add current run"), self.add_run),
                                 ("saveDataset", "Save", self.save)):  # fmt: skip
            top.addWidget(button(name, text, slot))
        layout.addLayout(top)
        runs = QHBoxLayout()
        self.run_button = button(
            "runExperiment", translate("evals.dock", "Run experiment"), self.run
        )
        self.stop_button = button("stopExperiment", translate("evals.dock", "Stop"), self.stop)
        self.stop_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setObjectName("experimentProgress")
        self.progress.setFormat("%v/%m examples")
        self.compare_button = button(
            "compareExperiments", translate("evals.dock", "Compare"), self.compare
        )
        self.compare_button.setToolTip(translate("evals.dock", "Compare the two experiments picked in Compare (by "
                                       "default the last two run)"))  # fmt: skip
        self.models = QComboBox()
        self.models.setObjectName("experimentModels")
        self.models.setToolTip(translate("evals.dock", "Live: the spec's models as they are (scripted ones answer "
                               "offline). Recorded: each example's model and tool calls served "
                               "from that experiment's run of the same example, no calls made"))  # fmt: skip
        self.concurrency = QSpinBox()
        self.concurrency.setObjectName("experimentConcurrency")
        self.concurrency.setRange(1, 16)
        self.concurrency.setValue(4)
        self.concurrency.setPrefix(translate("evals.dock", "at once: "))
        for widget in (self.run_button, self.models, self.concurrency, self.progress,
                       self.stop_button, self.compare_button):  # fmt: skip
            runs.addWidget(widget, 1 if widget is self.progress else 0)
        layout.addLayout(runs)
        self.status = QLabel("")
        self.status.setObjectName("experimentStatus")
        layout.addWidget(self.status)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("experimentTabs")
        self.table = DatasetTable()
        self.results = ResultsTable()
        self.results.widget.cellDoubleClicked.connect(lambda row, _col: self.open_thread(row))
        self.compared = CompareTable()
        self.tabs.addTab(self.table.widget, translate("evals.dock", "Examples"))
        self.tabs.addTab(self.results.widget, translate("evals.dock", "Results"))
        self.tabs.addTab(self._build_compare(), translate("evals.dock", "Compare"))
        layout.addWidget(self.tabs, 1)
        return panel

    def _build_compare(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        picks = QHBoxLayout()
        self.before_pick, self.after_pick = QComboBox(), QComboBox()
        self.before_pick.setObjectName("compareBefore")
        self.after_pick.setObjectName("compareAfter")
        for label, pick in (("Before", self.before_pick), ("After", self.after_pick)):
            picks.addWidget(QLabel(label))
            picks.addWidget(pick, 1)
        layout.addLayout(picks)
        self.compare_summary = QLabel("")
        self.compare_summary.setObjectName("compareSummary")
        self.compare_summary.setFont(MONO)
        layout.addWidget(self.compare_summary)
        self.chart = ScoreChart()
        layout.addWidget(self.chart)
        layout.addWidget(self.compared.widget, 2)
        self.diff = QPlainTextEdit()
        self.diff.setObjectName("compareDiff")
        self.diff.setReadOnly(True)
        self.diff.setFont(MONO)
        self.compared.widget.currentCellChanged.connect(
            lambda row, *_: self.diff.setPlainText(self.compared.diff_at(row))
        )
        layout.addWidget(self.diff, 1)
        return page

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.window.statusBar().showMessage(text, 6000)

    # -- where things are
    def db_path(self) -> Path:
        return Path(self.window.runner.db_path())

    def results_dir(self) -> Path:
        db = self.db_path()
        return db.with_name(db.name.removesuffix(DB_SUFFIX) + ".experiments")

    def _dataset_files(self) -> list[Path]:
        """Beside the spec; for a template opened as an untitled copy, beside the template."""
        doc = self.window.document
        if doc.path is not None:
            return datasets_beside(Path(doc.path))
        template = next((t for t in _templates() if t.title == doc.spec.name), None)
        return datasets_beside(template.path) if template is not None else []

    # -- datasets
    def _spec_loaded(self) -> None:
        if self._stop is not None:
            self._stop.set()  # the experiment's results belong to the spec being left
        self.datasets = []
        for path in self._dataset_files():
            try:
                self.datasets.append(load_dataset(path))
            except BadInput as exc:
                self._say(exc.args[0])
        self.experiments = self._saved_experiments()
        self._fill_selector()
        self._fill_picks()

    def _saved_experiments(self) -> list[Experiment]:
        found = []
        for path in sorted(self.results_dir().glob("*.json")):
            try:
                found.append(load_experiment(path))
            except BadInput:
                continue  # another file, or a broken one: the list never fails
        return sorted(found, key=lambda e: (e.started, e.id))

    def _fill_selector(self, current: int = 0) -> None:
        self.selector.blockSignals(True)
        self.selector.clear()
        for dataset in self.datasets:
            self.selector.addItem(dataset.path.name, str(dataset.path))
        self.selector.blockSignals(False)
        if self.datasets:
            self.selector.setCurrentIndex(current)
        self._show_dataset()

    def current(self) -> Dataset | None:
        index = self.selector.currentIndex()
        return self.datasets[index] if 0 <= index < len(self.datasets) else None

    def _show_dataset(self) -> None:
        """Show the picked dataset; the table's edits of the one shown before stay with it
        (unsaved, until Save) when every cell holds JSON."""
        shown = self._shown
        if any(d is shown for d in self.datasets) and shown is not self.current():
            try:
                shown.examples = self.table.examples()
            except BadInput as exc:
                self._say(
                    translate("evals.dock", "Edits to {name} not kept: ").format(
                        name=shown.path.name
                    )
                    + "; ".join(exc.args)
                )
        dataset = self._shown = self.current()
        self.table.show_examples(dataset.examples if dataset is not None else [])
        self.tabs.setCurrentIndex(0)

    def ask_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.panel, translate("evals.dock", "Import a dataset"), "",
                                              translate("evals.dock", "Datasets (*.jsonl *.csv)"))  # fmt: skip
        if path:
            self.import_file(Path(path))

    def import_file(self, path: Path) -> bool:
        try:
            dataset = load_dataset(path)
        except BadInput as exc:
            self._say("; ".join(exc.args))
            return False
        self.datasets.append(dataset)
        self._fill_selector(len(self.datasets) - 1)
        self._say(
            translate("evals.dock", "Imported {name}: {len} example(s)").format(
                name=path.name, len=len(dataset.examples)
            )
        )
        return True

    def add_example(self) -> None:
        self.table.add_row(Example(f"example-{self.table.widget.rowCount() + 1}", {}))

    def add_run(self) -> None:
        """The debugger's current thread as an example: the input it was run with, and its
        final state as the reference (scorers read a key's expected value from it)."""
        runner = self.window.runner
        thread, view = runner.thread_id, runner.view
        info = runner.book.threads.get(thread)
        run_input = info.input if info is not None else None
        if view is None or view.thread_id != thread or not view.history:
            self._say(
                translate(
                    "evals.dock", "Thread {thread} has not run: run it first, then add it"
                ).format(thread=thread)
            )
            return
        if not isinstance(run_input, dict):
            self._say(translate("evals.dock", "Thread {thread} was not started from the studio's input: its input is not known").format(thread=thread))  # fmt: skip
            return
        if self.current() is None:  # the spec's first dataset, kept when saved
            doc_path = self.window.document.path
            if doc_path is None:
                self._say(
                    translate("evals.dock", "Save the graph first: its datasets are kept beside it")
                )
                return
            self.datasets.append(Dataset(Path(doc_path).with_name(
                f"{Path(doc_path).stem}.examples.jsonl"), []))  # fmt: skip
            self._fill_selector(len(self.datasets) - 1)
        reference = json.loads(to_json(view.values))
        self.table.add_row(Example(f"{thread}", dict(run_input), reference=reference))
        self.tabs.setCurrentIndex(0)
        self._say(
            translate("evals.dock", "Added thread {thread} to {name}: Save to keep it").format(
                thread=thread, name=self.current().path.name
            )
        )

    def _edited(self) -> Dataset | None:
        """The current dataset with the table's rows; None (said why) when a cell is bad."""
        dataset = self.current()
        if dataset is None:
            self._say(
                translate(
                    "evals.dock", "No dataset: import one (a .jsonl or .csv file of examples)"
                )
            )
            return None
        try:
            examples = self.table.examples()
        except BadInput as exc:
            self._say(f"{dataset.path.name}: " + "; ".join(exc.args))
            return None
        return Dataset(dataset.path, examples, dataset.scorers)

    def save(self) -> None:
        dataset = self._edited()
        if dataset is None:
            return
        target = dataset.path
        if is_bundled(target):  # the templates folder is only read: beside the saved spec
            doc_path = self.window.document.path
            if doc_path is None:
                self._say(
                    translate("evals.dock", "Save the graph first: its datasets are kept beside it")
                )
                return
            target = Path(doc_path).with_name(
                f"{Path(doc_path).stem}.{target.name.split('.', 1)[1].rsplit('.', 1)[0]}.jsonl"
            )
        try:
            written = save_dataset(dataset, target)
        except BadInput as exc:
            self._say(exc.args[0])
            return
        self.datasets[self.selector.currentIndex()] = self._shown = Dataset(
            written, dataset.examples, dataset.scorers)  # fmt: skip
        self.selector.setItemText(self.selector.currentIndex(), written.name)
        self._say(translate("evals.dock", "Saved {written}").format(written=written))

    # -- experiments
    @property
    def running(self) -> bool:
        return self._stop is not None

    def run(self) -> None:
        if self.running:
            return
        doc = self.window.document
        if doc.code is not None:
            self._say(
                translate(
                    "evals.dock",
                    "Experiments run graph specs; a graph from code runs in the debugger",
                )
            )
            return
        if (blocker := self.window.run_blocker()) is not None:
            self._say(blocker)
            return
        dataset = self._edited()
        if dataset is None:
            return
        spec, base_dir, trusted = self.window.run_args()[:3]
        db = self.db_path()
        path = (base_dir or db.parent) / (db.name.removesuffix(DB_SUFFIX) + ".json")
        try:
            files = code_files(scorer_names(dataset), dataset.path.parent)
            if not trusted and (unasked := self.consent.unasked(files)):
                self.consent.ask(self.panel, unasked, then=self.run)
                return
            scorers = scorers_for(dataset, [], trusted=trusted or bool(files),
                                  base_dir=dataset.path.parent)  # fmt: skip
        except BadInput as exc:
            self._say("; ".join(exc.args))
            return
        replay = next((e for e in self.experiments if e.id == self.models.currentData()), None)
        concurrency = self.concurrency.value()
        stop = self._stop = threading.Event()
        relay, results = self._relay, self.results_dir()
        self._running_for = results
        self.progress.setRange(0, len(dataset.examples))
        self.progress.setValue(0)
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self._say(
            translate("evals.dock", "Running {len} example(s) of {name}…").format(
                len=len(dataset.examples), name=dataset.path.name
            )
        )

        def work() -> None:
            try:
                experiment = run_experiment(spec, path, dataset, scorers, db=str(db),
                                            trusted=trusted, stop=stop, replay=replay,
                                            concurrency=concurrency,
                                            progress=lambda *a: _emit(relay.progressed, *a))  # fmt: skip
                save_experiment(experiment, results / f"{experiment.id}.json")
            except Exception as exc:  # noqa: BLE001 - said in the dock; the dock never hangs
                _emit(relay.finished, None, exc)
                return
            _emit(relay.finished, experiment, None)

        threading.Thread(target=work, name="experiment", daemon=True).start()

    def stop(self) -> None:
        if self._stop is not None:
            self._stop.set()
            self._say(translate("evals.dock", "Stopping after the examples already running…"))

    def _progressed(self, result: Any, done: int, total: int) -> None:
        self.progress.setValue(done)

    def _finished(self, experiment: Experiment | None, error: BaseException | None) -> None:
        self._stop = None
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        if self._running_for != self.results_dir():  # another graph was opened meanwhile
            return  # (its results file is beside the graph it ran)
        if error is not None:
            text = ("; ".join(str(a) for a in error.args) if isinstance(error, BadInput)
                    else f"{type(error).__name__}: {error}")  # fmt: skip
            self._say(
                translate("evals.dock", "The experiment did not run: {text}").format(text=text)
            )
            return
        self.experiments.append(experiment)
        self._fill_picks()
        self.results.show_experiment(experiment)
        self.tabs.setCurrentIndex(1)
        summary = experiment.summary().lines()[0]
        self._say(translate("evals.dock", "Experiment {id}{value}: {summary}").format(id=experiment.id, value=' (stopped)' if experiment.stopped else '', summary=summary))  # fmt: skip
        self.window.runner.session.list_threads()  # the examples' threads, for the debugger

    def open_thread(self, row: int) -> None:
        """The example's thread in the debugger: the run controller's thread selector."""
        thread = self.results.thread_at(row)
        if thread:
            self.window.runner.choose_thread(thread)
            self.window.runner.docks["historyDock"].raise_()

    # -- compare
    def _fill_picks(self) -> None:
        self.models.clear()
        self.models.addItem(translate("evals.dock", "Live models"), None)
        for experiment in reversed(self.experiments):
            self.models.addItem(
                translate("evals.dock", "Recorded calls of {id}").format(id=experiment.id),
                experiment.id,
            )
        for pick, default in ((self.before_pick, -2), (self.after_pick, -1)):
            pick.clear()
            for experiment in self.experiments:
                pick.addItem(f"{experiment.id} · {Path(experiment.dataset).name}", experiment.id)
            if len(self.experiments) >= abs(default):
                pick.setCurrentIndex(len(self.experiments) + default)

    def compare(self) -> None:
        ids = {e.id: e for e in self.experiments}
        before, after = (
            ids.get(self.before_pick.currentData()),
            ids.get(self.after_pick.currentData()),
        )
        if before is None or after is None or before is after:
            self._say(
                translate(
                    "evals.dock", "Run two experiments (or pick two in Compare) to compare them"
                )
            )
            return
        comparison = compare(before, after)
        self.compared.show_comparison(comparison)
        self.chart.show_comparison(comparison)
        self.compare_summary.setText("\n".join(comparison.summary_lines()))
        self.diff.setPlainText(self.compared.diff_at(0))
        self.tabs.setCurrentIndex(2)
        self._say(", ".join(f"{n} {s}" for s, n in comparison.counts().items()))


@cache
def _templates() -> tuple:
    """The bundled templates, read once (they never change while the studio runs)."""
    return tuple(list_templates())


def _emit(signal: Any, *args: Any) -> None:
    """From the experiment's thread: a window closed meanwhile has no dock to tell."""
    try:
        signal.emit(*args)
    except RuntimeError:  # the relay's C++ object is gone
        pass
