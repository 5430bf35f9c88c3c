"""The Breakpoints dock (`breakpointsDock`): every breakpoint of the document, and the task
waiting at one.

When a run stops in a task, `pauseBox` (at the top) shows its input (`pauseInput`, JSON,
editable before the task runs or when it failed) with `pauseContinueButton`, `pauseRetryButton`
and `pauseFailButton`.

The table (`breakpointsTable`) lists the plain breakpoints (F9 on the canvas) and the debugger's
(`graphspec.breakpoints`): a check box enables each, its condition (a safe expression) and hit
count are edited in place, `removeBreakpointButton` removes the selected ones. Below it a form
adds one (`breakpointAt`, `breakpointWhere` as `node › inside…`, `breakpointTool`,
`breakpointCondition`, `breakpointHit`, `addBreakpointButton`), and `pauseOnErrorsCheck` pauses
on any failing task. Each change is one undoable edit that does not mark the graph modified.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QTableWidgetItem,
    QWidget,
)

from engine.pregel.trace_format import to_json
from graphspec.breakpoints import ANY_NODE, kept, listed, path_text
from graphspec.errors import ExpressionError
from graphspec.expressions import parse
from graphspec.model import Breakpoint
from studio.document.side_breakpoints import keep
from studio.i18n import QT_TRANSLATE_NOOP, translate
from studio.run.pauses import Held
from studio.run.widgets import MONO, button, pretty, table, vbox

COLUMNS = [QT_TRANSLATE_NOOP("headers", "On"), QT_TRANSLATE_NOOP("headers", "At"),
           QT_TRANSLATE_NOOP("headers", "Where"), QT_TRANSLATE_NOOP("headers", "Condition"),
           QT_TRANSLATE_NOOP("headers", "Hit")]  # fmt: skip
ON, AT, WHERE, CONDITION, HIT = range(len(COLUMNS))
AT_TEXT = {"before": QT_TRANSLATE_NOOP("run.breakpoints_dock", "before"),
           "after": QT_TRANSLATE_NOOP("run.breakpoints_dock", "after"),
           "error": QT_TRANSLATE_NOOP("run.breakpoints_dock", "on error")}  # fmt: skip
"""Where a breakpoint pauses, as shown (translated where shown: `at_text`)."""
SEPARATORS = re.compile(r"\s*(?:›|/)\s*")
"""Between the levels of a path typed in the form: `agent › tools` or `agent/tools`."""


class BreakpointsPanel(QWidget):
    def __init__(self, window: Any) -> None:
        super().__init__()
        self.setObjectName("breakpointsPanel")
        self.window = window
        self.document = window.document
        self.points: list[Breakpoint] = []
        """The rows of the table, in order (`graphspec.breakpoints.listed`)."""
        self.held: Held | None = None
        layout = vbox(self)
        self.pause_box = self._build_pause_box()
        layout.addWidget(self.pause_box, 1)  # first: its buttons in view however short the dock
        self.table = table("breakpointsTable", COLUMNS)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.SelectedClicked
        )
        self.table.setMinimumHeight(48)  # the dock shares the run docks' row: keep it short
        self.table.itemChanged.connect(self._row_edited)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(WHERE, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 2)  # the list gets most of a tall dock, the input the rest
        layout.addLayout(self._build_form())
        self.status = QLabel("")
        self.status.setObjectName("breakpointsStatus")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.document.changed.connect(lambda fields: self._changed(fields))
        self.document.reset.connect(self.refresh)
        window.runner.held_changed.append(self.show_held)
        self.refresh()

    # ------------------------------------------------------------------ layout

    def _build_form(self) -> QGridLayout:
        grid = QGridLayout()
        self.at = QComboBox()
        self.at.setObjectName("breakpointAt")
        for at, text in AT_TEXT.items():
            self.at.addItem(translate("run.breakpoints_dock", text), at)
        self.where = QComboBox()
        self.where.setObjectName("breakpointWhere")
        self.where.setEditable(True)
        self.where.lineEdit().setPlaceholderText(
            translate("run.breakpoints_dock", "node › inside… (agent › tools)")
        )
        self.where.setToolTip(translate("run.breakpoints_dock", "The node; below a subgraph or an agent, the node at each level after ›, e.g. `research › tools` or `agent › PII.before_model`"))  # fmt: skip
        self.tool = QLineEdit()
        self.tool.setObjectName("breakpointTool")
        self.tool.setPlaceholderText(translate("run.breakpoints_dock", "tool (on a tools node)"))
        self.condition = QLineEdit()
        self.condition.setObjectName("breakpointCondition")
        self.condition.setPlaceholderText(
            translate("run.breakpoints_dock", "condition, e.g. len(messages) > 4")
        )
        self.condition.setFont(MONO)
        self.hit = QSpinBox()
        self.hit.setObjectName("breakpointHit")
        self.hit.setRange(0, 1_000_000)
        self.hit.setSpecialValueText(translate("run.breakpoints_dock", "every"))
        self.hit.setToolTip(translate("run.breakpoints_dock", "Pause only on this visit of the node in a run (1 the first); every: each visit"))  # fmt: skip
        self.on_errors = QCheckBox(translate("run.breakpoints_dock", "Pause on any error"))
        self.on_errors.setObjectName("pauseOnErrorsCheck")
        self.on_errors.setToolTip(
            translate(
                "run.breakpoints_dock",
                "A failing task waits: its input is shown, edit it and retry",
            )
        )
        self.on_errors.toggled.connect(self._pause_on_errors)
        grid.addWidget(self.at, 0, 0)
        grid.addWidget(self.where, 0, 1, 1, 2)
        grid.addWidget(
            button("addBreakpointButton", translate("run.breakpoints_dock", "Add"), self.add), 0, 3
        )
        grid.addWidget(self.condition, 1, 0, 1, 2)
        grid.addWidget(self.hit, 1, 2)
        grid.addWidget(
            button(
                "removeBreakpointButton", translate("run.breakpoints_dock", "Remove"), self.remove
            ),
            1,
            3,
        )
        grid.addWidget(self.tool, 2, 0, 1, 2)
        grid.addWidget(self.on_errors, 2, 2, 1, 2)
        grid.setColumnStretch(1, 2)
        return grid

    def _build_pause_box(self) -> QGroupBox:
        box = QGroupBox(translate("run.breakpoints_dock", "Paused at a breakpoint"))
        box.setObjectName("pauseBox")
        layout = vbox(box)
        self.pause_label = QLabel("")
        self.pause_label.setObjectName("pauseLabel")
        self.pause_label.setWordWrap(True)
        self.pause_label.setTextFormat(Qt.TextFormat.PlainText)  # node names and errors, never HTML
        self.pause_input = QPlainTextEdit()
        self.pause_input.setObjectName("pauseInput")
        self.pause_input.setFont(MONO)
        self.pause_input.setMinimumHeight(60)
        self.pause_input.setMaximumHeight(120)  # the list below stays in view
        row = QHBoxLayout()  # first: in view however short the dock and long the message
        self.continue_button = button(
            "pauseContinueButton", translate("run.breakpoints_dock", "Continue"), self._continue
        )
        self.retry_button = button(
            "pauseRetryButton", translate("run.breakpoints_dock", "Retry"), self._retry
        )
        self.retry_button.setToolTip(
            translate(
                "run.breakpoints_dock", "Run the failed step again, with the input as edited below"
            )
        )
        self.fail_button = button(
            "pauseFailButton", translate("run.breakpoints_dock", "Let it fail"), self._fail
        )
        for b in (self.continue_button, self.retry_button, self.fail_button):
            row.addWidget(b)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.pause_label)
        layout.addWidget(self.pause_input)
        box.hide()
        return box

    # ------------------------------------------------------------------ the list

    def _changed(self, fields: frozenset) -> None:
        if "breakpoints" in fields and (code := self.document.code) is not None:
            if problem := keep(
                code, self.document.spec.breakpoints
            ):  # its program is never written
                self._say(problem)
        if "breakpoints" in fields or "nodes" in fields:
            self.refresh()

    def refresh(self) -> None:
        """The table, the form's node names and the error check box, from the document."""
        spec = self.document.spec
        self.points = listed(spec.breakpoints)
        self.table.blockSignals(True)
        self.table.setRowCount(len(self.points))
        for row, point in enumerate(self.points):
            on = QTableWidgetItem("")
            on.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled
                        | Qt.ItemFlag.ItemIsSelectable)  # fmt: skip
            on.setCheckState(Qt.CheckState.Checked if point.enabled else Qt.CheckState.Unchecked)
            cells = [on, _fixed(at_text(point.at)), _fixed(_where(point)),
                     QTableWidgetItem(point.condition), QTableWidgetItem(str(point.hit or ""))]  # fmt: skip
            cells[CONDITION].setToolTip(
                translate(
                    "run.breakpoints_dock", "A safe expression on the task's input; empty: always"
                )
            )
            cells[HIT].setToolTip(
                translate(
                    "run.breakpoints_dock",
                    "Pause only on this visit (1 the first); empty: every visit",
                )
            )
            for column, item in enumerate(cells):
                self.table.setItem(row, column, item)
        for column in (ON, AT, CONDITION, HIT):
            self.table.resizeColumnToContents(column)
        self.table.blockSignals(False)
        typed = self.where.currentText()
        self.where.blockSignals(True)
        self.where.clear()
        self.where.addItems(_places(spec))
        self.where.setEditText(typed)
        self.where.blockSignals(False)
        self.on_errors.blockSignals(True)
        self.on_errors.setChecked(any(_any_error(p) and p.enabled for p in self.points))
        self.on_errors.blockSignals(False)

    def _row_edited(self, item: QTableWidgetItem) -> None:
        row = item.row()
        if row >= len(self.points):
            return
        point = self.points[row]
        condition = self.table.item(row, CONDITION).text().strip()
        hit_text = self.table.item(row, HIT).text().strip()
        problem = _condition_problem(condition)
        if not problem and hit_text and not hit_text.isdigit():
            problem = translate(
                "run.breakpoints_dock",
                "The hit count {hit!r} is not a whole number (empty: every visit)",
            ).format(hit=hit_text)
        if problem:
            self._say(problem)
            self.refresh()
            return
        enabled = self.table.item(row, ON).checkState() == Qt.CheckState.Checked
        changed = _point(point.model_dump(), enabled=enabled, condition=condition,
                         hit=int(hit_text or 0))  # fmt: skip
        if isinstance(changed, str):
            self._say(changed)
            self.refresh()
            return
        points = list(self.points)
        points[row] = changed
        what = (
            translate("run.breakpoints_dock", "Enable breakpoint {at} {where}")
            if enabled and not point.enabled
            else translate("run.breakpoints_dock", "Disable breakpoint {at} {where}")
            if point.enabled and not enabled
            else translate("run.breakpoints_dock", "Edit breakpoint {at} {where}")
        )
        self._apply(points, what.format(at=at_text(point.at), where=path_text(point)))

    def add(self) -> None:
        """The form's breakpoint, added to the list (once)."""
        parts = [p for p in SEPARATORS.split(self.where.currentText().strip()) if p]
        if not parts:
            self._say(
                translate(
                    "run.breakpoints_dock",
                    "Name the node to pause at (below a subgraph or agent: node › inside)",
                )
            )
            return
        at = self.at.currentData()
        if parts[0] == ANY_NODE and (at != "error" or len(parts) > 1):
            self._say(
                translate(
                    "run.breakpoints_dock",
                    "* (any node) is for pausing on errors: choose “on error”",
                )
            )
            return
        if parts[0] != ANY_NODE and parts[0] not in {n.id for n in self.document.spec.nodes}:
            self._say(
                translate("run.breakpoints_dock", "This graph has no node {node!r}").format(
                    node=parts[0]
                )
            )
            return
        condition = self.condition.text().strip()
        if problem := _condition_problem(condition):
            self._say(problem)
            return
        point = _point({"at": at, "node": parts[0], "inside": parts[1:]}, tool=self.tool.text().strip(),
                       condition=condition, hit=self.hit.value())  # fmt: skip
        if isinstance(point, str):
            self._say(point)
            return
        if point in self.points:
            self._say(
                translate(
                    "run.breakpoints_dock", "That breakpoint is already listed ({where})"
                ).format(where=path_text(point))
            )
            return
        added = translate("run.breakpoints_dock", "Add breakpoint {at} {where}").format(
            at=at_text(at), where=path_text(point)
        )
        if self._apply([*self.points, point], added):
            self.condition.clear()
            self.tool.clear()
            self.hit.setValue(0)

    def remove(self) -> None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        if not rows:
            self._say(translate("run.breakpoints_dock", "Select the breakpoints to remove first"))
            return
        kept_points = [p for i, p in enumerate(self.points) if i not in rows]
        self._apply(
            kept_points,
            translate("run.breakpoints_dock", "Remove breakpoints")
            if len(rows) > 1
            else translate("run.breakpoints_dock", "Remove breakpoint"),
        )

    def _pause_on_errors(self, on: bool) -> None:
        others = [p for p in self.points if not _any_error(p)]
        points = [*others, Breakpoint(at="error", node=ANY_NODE)] if on else others
        self._apply(
            points,
            translate("run.breakpoints_dock", "Pause on any error")
            if on
            else translate("run.breakpoints_dock", "Do not pause on errors"),
        )

    def _apply(self, points: list[Breakpoint], text: str) -> bool:
        done = self.window.editor.set_breakpoints(kept(points), text)
        if done:
            self._say(
                translate(
                    "run.breakpoints_dock",
                    "{text} (kept with the document; the graph is not modified)",
                ).format(text=text)
            )
        self.refresh()
        return done

    def _say(self, text: str) -> None:
        self.status.setText(text)

    # ------------------------------------------------------------------ a task waiting

    def show_held(self, held: Held | None) -> None:
        """A task waits at a breakpoint (or no longer does: None)."""
        self.held = held
        if held is None:
            self.pause_box.hide()
            return
        stop = held.stop
        where = " › ".join(stop.path)
        call = (
            translate("run.breakpoints_dock", ", a call of {tool}").format(tool=stop.point.tool)
            if stop.point.tool
            else ""
        )
        lines = [translate("run.breakpoints_dock", "Paused {at} {where} (visit {visit}{call})").format(
            at=at_text(stop.at), where=where, visit=stop.visit, call=call)]  # fmt: skip
        if stop.point.condition and not stop.problem:
            lines.append(translate("run.breakpoints_dock", "The condition holds: {condition}").format(
                condition=stop.point.condition))  # fmt: skip
        if stop.problem:
            lines.append(translate("run.breakpoints_dock", "Paused because {problem}").format(
                problem=stop.problem))  # fmt: skip
        if stop.error:
            lines.append(translate("run.breakpoints_dock", "It failed: {error}").format(
                error=stop.error))  # fmt: skip
            lines.append(translate("run.breakpoints_dock", "Edit its input below and retry the step, or let it fail."))  # fmt: skip
        elif held.editable:
            lines.append(translate("run.breakpoints_dock", "Its input (edit it, then Continue: the task runs with the edit):"))  # fmt: skip
        else:
            lines.append(translate("run.breakpoints_dock", "Its input and what it wrote:"))
        self.pause_label.setText("\n".join(lines))
        shown = held.input if held.editable else {"input": held.input, "wrote": list(held.writes)}
        self.pause_input.setPlainText(pretty(shown))
        self.pause_input.setReadOnly(not held.editable)
        self.continue_button.setVisible(stop.at != "error")
        self.retry_button.setVisible(stop.at == "error")
        self.fail_button.setVisible(stop.at == "error")
        self.pause_box.show()
        dock = self.window.dock("breakpointsDock")
        if dock is not None:
            dock.show()
            dock.raise_()

    def _continue(self) -> None:
        self._release("continue")

    def _retry(self) -> None:
        self._release("retry")

    def _fail(self) -> None:
        self.window.runner.release("continue")

    def _release(self, decision: str) -> None:
        if self.held is None:
            return
        edited, problem = edited_input(self.held.input, self.pause_input.toPlainText())
        if problem:
            self._say(problem)
            return
        self.window.runner.release(decision, edited)


def edited_input(original: Any, text: str) -> tuple[Any, str]:
    """The task's input after the user's edit of its JSON: None if unchanged; a state keeps
    the values of the keys left as they were (messages stay messages), and takes the edited
    ones as JSON. Returns (value, "") or (None, why not)."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        return None, translate("run.breakpoints_dock", "The input is not JSON: {exc}").format(
            exc=exc
        )
    before = json.loads(to_json(original))
    if value == before:
        return None, ""
    if isinstance(original, Mapping) and isinstance(value, dict):
        kept_keys = {k: v for k, v in original.items() if k in value and value[k] == before.get(k)}
        return {**{k: v for k, v in value.items() if k not in kept_keys}, **kept_keys}, ""
    return value, ""


def _point(fields: dict, **changes: Any) -> Breakpoint | str:
    """A Breakpoint from `fields` and `changes`, or why it cannot be one."""
    try:
        return Breakpoint(**{**fields, **changes})
    except ValueError as exc:  # pydantic's ValidationError: a bound passed, a name too long
        first = exc.errors()[0] if hasattr(exc, "errors") else {"msg": str(exc), "loc": ()}
        return translate("run.breakpoints_dock", "Cannot keep that breakpoint: {field} {message}").format(
            field=".".join(map(str, first["loc"])), message=first["msg"])  # fmt: skip


def _condition_problem(condition: str) -> str:
    if not condition:
        return ""
    try:
        parse(condition)
    except ExpressionError as exc:
        return translate(
            "run.breakpoints_dock", "The condition is not a safe expression: {exc}"
        ).format(exc=exc)
    return ""


def _fixed(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
    return item


def _where(point: Breakpoint) -> str:
    return (
        translate("run.breakpoints_dock", "any node")
        if point.node == ANY_NODE
        else path_text(point)
    )


def at_text(at: str) -> str:
    """Where a breakpoint pauses (before, after, on error), in the language shown."""
    return translate("run.breakpoints_dock", AT_TEXT[at])


def _any_error(point: Breakpoint) -> bool:
    return point.node == ANY_NODE and point.at == "error"


def _places(spec: Any) -> list[str]:
    """What the form's node field offers: each node, and an agent's model and tools."""
    out = []
    for node in spec.nodes:
        out.append(node.id)
        if node.kind == "agent":
            out += [f"{node.id} › model", f"{node.id} › tools"]
    return out


def install(window: Any) -> None:
    """The Breakpoints dock (placed by studio/workspaces.py): its panel (`window.breakpoints_panel`)
    is made right after the window's first paint, or before when shown or read (issue 32.1)."""

    def build() -> BreakpointsPanel:
        window.breakpoints_panel = BreakpointsPanel(window)
        return window.breakpoints_panel

    window.add_lazy_dock("breakpointsDock", translate("run.breakpoints_dock", "Breakpoints"), build, Qt.DockWidgetArea.BottomDockWidgetArea,
                         tab_with="traceDock", attribute="breakpoints_panel")  # fmt: skip
