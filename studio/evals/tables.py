"""The Datasets dock's three tables: a dataset's examples (editable JSON cells), an
experiment's per-example results, and two experiments compared (regressions first)."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from graphspec.errors import BadInput
from graphspec.evals.compare import Comparison
from graphspec.evals.datasets import Example
from graphspec.evals.results import Experiment
from studio.i18n import QT_TRANSLATE_NOOP, translate
from studio.run.widgets import MONO
from studio.run.widgets import table as plain_table

PASSED, FAILED = QColor("#D9F2D9"), QColor("#F8D7D7")
STATUS_COLORS = {"regressed": FAILED, "improved": PASSED, "changed": QColor("#FFF2B3")}
MAX_COLUMN = 380
ROW_ROLE = Qt.ItemDataRole.UserRole + 1
"""On each row's first cell: the example's thread (results) or id (compare)."""


def _item(text: str, *, editable: bool = False, tip: str | None = None) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    if not editable:
        item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    if tip:
        item.setToolTip(tip)
    return item


def _table(name: str, columns: list[str]) -> QTableWidget:
    made = plain_table(name, columns)
    made.setFont(MONO)
    made.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    return made


def _fit(table: QTableWidget) -> None:
    """Columns as wide as their contents, none wider than a third of a wide dock."""
    table.resizeColumnsToContents()
    for column in range(table.columnCount()):
        table.setColumnWidth(column, min(table.columnWidth(column), MAX_COLUMN))


def _compact(value: Any) -> str:
    return "" if value is None or value == {} else json.dumps(value, ensure_ascii=False)


class DatasetTable:
    """A dataset's examples, one row each: id, then input, expected, reference and metadata as
    JSON the user edits in place."""

    COLUMNS = ["id", "input", "expected", "reference", "metadata"]

    def __init__(self) -> None:
        self.widget = _table("datasetTable", self.COLUMNS)
        triggers = QAbstractItemView.EditTrigger
        self.widget.setEditTriggers(triggers.DoubleClicked | triggers.EditKeyPressed
                                    | triggers.AnyKeyPressed)  # fmt: skip

    def show_examples(self, examples: list[Example]) -> None:
        self.widget.setRowCount(0)
        for example in examples:
            self.add_row(example)
        _fit(self.widget)

    def add_row(self, example: Example) -> None:
        table = self.widget
        row = table.rowCount()
        table.insertRow(row)
        values = [example.id, _compact(example.input), _compact(example.expected),
                  _compact(example.reference), _compact(example.metadata)]  # fmt: skip
        for column, text in enumerate(values):
            table.setItem(row, column, _item(text, editable=True))

    def examples(self) -> list[Example]:
        """The rows as examples; BadInput naming each row and column that is not valid JSON."""
        table, problems, out = self.widget, [], []
        for row in range(table.rowCount()):
            cells = [(table.item(row, c).text() if table.item(row, c) else "").strip()
                     for c in range(len(self.COLUMNS))]  # fmt: skip
            parsed: dict[str, Any] = {}
            for name, text in zip(self.COLUMNS[1:], cells[1:], strict=True):
                try:
                    parsed[name] = json.loads(text) if text else None
                except ValueError as exc:
                    problems.append(f"row {row + 1}, {name}: not JSON: {exc}")
            example_id = cells[0] or f"example-{row + 1}"
            for name in ("input", "expected", "metadata"):
                if parsed.get(name) is not None and not isinstance(parsed[name], dict):
                    problems.append(
                        translate(
                            "evals.tables", "row {value}, {name}: must be a JSON object"
                        ).format(value=row + 1, name=name)
                    )
            if problems:
                continue
            out.append(Example(example_id, parsed["input"] or {}, parsed["expected"] or {},
                               parsed["reference"], parsed["metadata"] or {}))  # fmt: skip
        if problems:
            raise BadInput(*problems)
        return out


class ResultsTable:
    """An experiment's results: a row per example; double-click opens its thread."""

    def __init__(self) -> None:
        self.widget = _table("experimentResults", [])

    def show_experiment(self, experiment: Experiment) -> None:
        table = self.widget
        columns = [translate("headers", "example"), translate("headers", "passed"), *experiment.scorers,
                   translate("headers", "latency ms"), translate("headers", "model calls"),
                   translate("headers", "tokens"), translate("headers", "output / error")]  # fmt: skip
        table.setColumnCount(len(columns))
        table.setHorizontalHeaderLabels(columns)
        table.setRowCount(0)
        for result in experiment.examples:
            row = table.rowCount()
            table.insertRow(row)
            first = _item(
                result.id,
                tip=translate("evals.tables", "thread {thread}: double-click to open it").format(
                    thread=result.thread
                ),
            )
            first.setData(ROW_ROLE, result.thread)
            scores = [_item("-" if (s := result.scores.get(n)) is None else f"{s:g}",
                            tip=result.score_errors.get(n)) for n in experiment.scorers]  # fmt: skip
            last = result.error or _compact(result.output)
            cells = [first, _item("yes" if result.passed else "no"), *scores,
                     _item(f"{result.latency_s * 1000:.0f}"), _item(str(result.model_calls)),
                     _item("" if result.tokens is None else str(result.tokens)),
                     _item(last, tip=result.traceback or last)]  # fmt: skip
            for column, cell in enumerate(cells):
                cell.setBackground(PASSED if result.passed else FAILED)
                table.setItem(row, column, cell)
        _fit(table)

    def thread_at(self, row: int) -> str | None:
        item = self.widget.item(row, 0)
        return item.data(ROW_ROLE) if item is not None else None


class CompareTable:
    """Two experiments example by example, regressions first; an example's output diff is the
    tooltip of its row and shown below the table when it is picked."""

    COLUMNS = [
        QT_TRANSLATE_NOOP("headers", "status"),
        QT_TRANSLATE_NOOP("headers", "example"),
        QT_TRANSLATE_NOOP("headers", "score changes"),
        QT_TRANSLATE_NOOP("headers", "before"),
        QT_TRANSLATE_NOOP("headers", "after"),
    ]

    def __init__(self) -> None:
        self.widget = _table("compareTable", self.COLUMNS)
        self.comparison: Comparison | None = None

    def show_comparison(self, comparison: Comparison) -> None:
        self.comparison = comparison
        table = self.widget
        table.setRowCount(0)
        for change in comparison.changes:
            row = table.rowCount()
            table.insertRow(row)
            scores = ", ".join(f"{n} {_num(a)} → {_num(b)}"
                               for n, (a, b) in change.score_changes.items())  # fmt: skip
            diff = "\n".join(change.output_diff) or translate("evals.tables", "the same output")
            cells = [_item(change.status), _item(change.id, tip=diff), _item(scores),
                     _item(_outcome(change.before)), _item(_outcome(change.after))]  # fmt: skip
            cells[0].setData(ROW_ROLE, change.id)
            for column, cell in enumerate(cells):
                if (color := STATUS_COLORS.get(change.status)) is not None:
                    cell.setBackground(color)
                table.setItem(row, column, cell)
        _fit(table)

    def statuses(self) -> list[tuple[str, str]]:
        """(status, example id) of each row, top to bottom."""
        table = self.widget
        return [(table.item(r, 0).text(), table.item(r, 1).text()) for r in range(table.rowCount())]

    def diff_at(self, row: int) -> str:
        if self.comparison is None or not 0 <= row < len(self.comparison.changes):
            return ""
        return "\n".join(self.comparison.changes[row].output_diff) or translate(
            "evals.tables", "the same output"
        )


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def _outcome(result: Any) -> str:
    if result is None:
        return translate("evals.tables", "not run")
    if result.error:
        return f"error: {result.error}"
    return "passed" if result.passed else "failed"


__all__ = ["CompareTable", "DatasetTable", "ResultsTable"]
