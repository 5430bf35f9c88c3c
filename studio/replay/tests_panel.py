"""The Tests dock: the saved tests of a folder (`test_*.recording.json` beside their pytest
files), run on a worker thread, each marked passed or failed; picking one shows what failed
(changed model calls, the replay's error) and its run diff. "Save as test" turns a recorded
thread into a new one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QSizePolicy,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from studio.i18n import translate
from studio.item_menu import SEPARATOR, Entries, Entry, copy_entry, item_menu
from studio.plain import plain_label, plain_tip
from studio.replay.run_diff_panel import RunDiffPanel
from studio.replay.saved_tests import (
    SavedResult,
    find_saved,
    load_replaying,
    run_saved,
    save_test,
)
from studio.run.widgets import MONO, button, vbox
from studio.workers import run_in_thread

PASSED, FAILED = QColor("#2E7D32"), QColor("#C62828")
NAME = Qt.ItemDataRole.UserRole


class TestsPanel(QWidget):
    """Saved tests: list, run, results and the run diff of the one selected."""

    __test__ = False  # not a pytest class, whatever its name
    finished = Signal(list)  # [SavedResult], once a run of the tests is over

    def __init__(self, folder: Path | None = None, *,
                 trusted: Callable[[Path], bool] | None = None) -> None:  # fmt: skip
        """`trusted(spec_path)` says whether a test's spec may run its code (the studio asks
        its trust records; None: `saved_trust.may_run_code`). Never the test's data file."""
        super().__init__()
        self.setObjectName("testsPanel")
        self.folder = folder
        self.trusted = trusted
        self.results: dict[str, SavedResult] = {}
        self.caption = plain_label("")
        self.caption.setObjectName("testsCaption")
        # one line beside the buttons, cut at the dock's edge; the whole text is its tooltip
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.run_button = button(
            "runTests", translate("replay.tests_panel", "Run all"), self.run_all
        )
        self.actions = QHBoxLayout()  # the caption, then the buttons (others add theirs)
        self.actions.addWidget(self.caption, 1)
        self.actions.addWidget(self.run_button)
        self.list = QTreeWidget()
        self.list.setObjectName("testsList")
        self.list.setHeaderLabels(
            [translate("replay.tests_panel", "Test"), translate("replay.tests_panel", "Result")]
        )
        self.list.setColumnWidth(0, 220)
        self.list.setRootIsDecorated(False)
        self.list.currentItemChanged.connect(lambda item, _: self._show(item))
        item_menu(self.list, self._row_menu)
        self.failure = QPlainTextEdit()
        self.failure.setObjectName("testFailure")
        self.failure.setReadOnly(True)
        self.failure.setFont(MONO)
        self.failure.setMaximumHeight(140)
        self.diff = RunDiffPanel()
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.list)
        split.addWidget(self.failure)
        split.addWidget(self.diff)
        split.setSizes([90, 150, 400])
        for part in (self.failure, self.diff.tree):  # a short dock still fits 720 px
            part.setMinimumHeight(16)
        self.list.setMinimumHeight(56)  # its header and two tests, whatever the splitter did
        split.setChildrenCollapsible(False)
        layout = vbox(self)
        layout.addLayout(self.actions)
        layout.addWidget(split)
        self.refresh()

    def say(self, text: str) -> None:
        """One line in the caption (a replay's error can run to many): all of it as its tip."""
        self.caption.setText(text.splitlines()[0] if text else "")
        self.caption.setToolTip(plain_tip(text))

    def set_folder(self, folder: Path | None) -> None:
        self.folder = folder
        self.refresh()

    def tests(self) -> list[Path]:
        return find_saved(self.folder) if self.folder and self.folder.is_dir() else []

    def refresh(self) -> None:
        """List the folder's tests with their last result."""
        self.list.clear()
        tests = self.tests()
        where = str(self.folder) if self.folder else translate("replay.tests_panel", "no folder")
        self.say(translate("replay.tests_panel", "{len} saved test(s) in {where}").format(len=len(tests), where=where) if tests else
                 translate("replay.tests_panel", "No saved tests in {where}: save a recorded thread as a test.").format(where=where))  # fmt: skip
        for path in tests:
            name = path.name.removesuffix(".recording.json")
            result = self.results.get(name)
            item = QTreeWidgetItem(self.list, [name, self._status(result)])
            item.setData(0, NAME, name)
            if result is not None:
                item.setForeground(1, QBrush(PASSED if result.passed else FAILED))
        self.run_button.setEnabled(bool(tests))

    @staticmethod
    def _status(result: SavedResult | None) -> str:
        return (
            translate("replay.tests_panel", "not run")
            if result is None
            else "passed"
            if result.passed
            else "FAILED"
        )

    def run_all(self) -> None:
        self.run_tests(self.tests())

    def run_tests(self, tests: list[Path]) -> None:
        """Run these saved tests (their data files) on a worker; each one's result replaces its
        last, the others' stay."""
        self.run_button.setEnabled(False)
        self.say(translate("replay.tests_panel", "Running {len} test(s)…").format(len=len(tests)))
        trusted = self.trusted
        load_replaying()
        run_in_thread(lambda: [run_saved(p, trusted=trusted) for p in tests], self._done)

    def _done(self, results: list[SavedResult] | None, error: BaseException | None) -> None:
        results = results or []
        if error is not None:  # run_saved reports failures itself; this is a bug of ours
            line = f"{type(error).__name__}: {error}"
            results = [SavedResult("(tests)", False, [line], [line])]
        self.results.update({r.name: r for r in results})
        self.refresh()
        failed = sum(not r.passed for r in results)
        self.say(
            translate("replay.tests_panel", "{value} passed, {failed} failed").format(
                value=len(results) - failed, failed=failed
            )
        )
        shown = next((r for r in results if not r.passed), results[0] if results else None)
        items = [self.list.topLevelItem(i) for i in range(self.list.topLevelItemCount())]
        picked = [i for i in items if shown is not None and i.data(0, NAME) == shown.name]
        if picked or items:
            self.list.setCurrentItem((picked or items)[0])
        self.finished.emit(results)

    def _path_of(self, name: str) -> Path | None:
        return next((p for p in self.tests() if p.name == f"{name}.recording.json"), None)

    def _row_menu(self, index) -> Entries:
        item = self.list.itemFromIndex(index)
        path = self._path_of(item.data(0, NAME)) if item is not None else None
        if path is None:
            return []
        return [
            Entry("testRunOneAction", translate("replay.tests_panel", "Run this test"), lambda: self.run_tests([path]),
                  enabled=self.run_button.isEnabled(), tip=translate("replay.tests_panel", "Replay it against its recording")),
            SEPARATOR,
            copy_entry("testCopyPathAction", translate("replay.tests_panel", "Copy test file path"),
                       str(path.with_name(path.name.removesuffix(".recording.json") + ".py"))),
            copy_entry("testCopyDataPathAction", translate("replay.tests_panel", "Copy recording path"), str(path)),
        ]  # fmt: skip

    def _show(self, item: QTreeWidgetItem | None) -> None:
        result = self.results.get(item.data(0, NAME)) if item else None
        if result is None:
            self.failure.setPlainText("")
            self.diff.clear()
            return
        shown = result.problems or [
            translate("replay.tests_panel", "the run differs from the recording (below)")
        ]
        self.failure.setPlainText(
            translate("replay.tests_panel", "passed") if result.passed else "\n".join(shown)
        )
        self.failure.verticalScrollBar().setValue(0)
        if result.diff is not None:
            self.diff.show_diff(result.diff)

    def save_thread(self, graph: Any, spec_path: Path, thread: str,
                    graph_name: str | None = None) -> Path:  # fmt: skip
        """ "Save as test": the recorded `thread` of `graph` into this panel's folder (the spec's,
        or with `graph_name` the program's that holds that graph)."""
        folder = self.folder or spec_path.parent / "tests"
        test = save_test(graph, spec_path, thread, folder, graph_name=graph_name)
        self.set_folder(folder)
        return test
