"""The Superstep trace dock: the trace model in a tree view, a scope chooser to step into the
inner graph of a subgraph or agent node, and the traceback of the last failure."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QRect, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QTreeView,
    QWidget,
)

from engine.pregel import trace
from studio.i18n import QT_TRANSLATE_NOOP, translate
from studio.item_menu import SEPARATOR, Entries, Entry, copy_entry, item_menu
from studio.run.trace_model import Row, TraceModel, ns_label
from studio.run.widgets import MONO, vbox

ALL = QT_TRANSLATE_NOOP("run.trace_panel", "Whole run")
FOLLOW_MS = 200
MESSAGE_LINES = 10
"""A failure's message is kept in view up to this many lines (its traceback scrolls below)."""
FIRST_COLUMN = 320
"""The widest the Superstep column grows: hook names are long (`PIIMiddleware[email].before_model`)."""
FIRST_SHARE = 0.45
"""Of the tree's width, the most the Superstep column takes: the Detail column has the rest."""


class TracePanel(QWidget):
    """Supersteps as a tree: plan (tasks, the channel versions that woke them, Send payloads),
    failed attempts and their retries, task results (writes, goto, Sends, cached, errors,
    interrupts), pending writes, barrier (channel old -> new), checkpoint saved; the inner
    supersteps of subgraphs and agents under the task that ran them."""

    scope_changed = Signal(
        object
    )  # the namespace stepped into (a tuple), or None for the whole run

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("tracePanel")
        self.model = TraceModel()
        self.tree = QTreeView()
        self.tree.setObjectName("traceTree")
        self.tree.setModel(self.model.qt)
        self.tree.expanded.connect(lambda index: self.model.build(self.model.row_of(index)))
        self.tree.expanded.connect(lambda _index: self._fit_first_column())
        self.tree.setUniformRowHeights(True)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setColumnWidth(0, FIRST_COLUMN)
        # a narrow dock cuts the middle, keeping both ends ("woken by branch:…:search"); the
        # tooltips hold the whole text
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.tree.doubleClicked.connect(self._step_into_row)
        item_menu(self.tree, self._row_menu)
        self.scope = QComboBox()
        self.scope.setObjectName("traceScope")
        self.scope.setToolTip(translate("run.trace_panel", "Step into the inner graph of a subgraph or agent node (its supersteps, "
                              "channels and checkpoints); double-click a task that ran one"))  # fmt: skip
        self.scope.addItem(translate("run.trace_panel", ALL), None)
        self.scope.activated.connect(lambda i: self.step_into(self.scope.itemData(i)))
        self.error_view = QPlainTextEdit()
        self.error_view.setObjectName("tracebackView")
        self.error_view.setReadOnly(True)
        self.error_view.setFont(MONO)
        self.error_view.setStyleSheet("QPlainTextEdit { color: #B71C1C; background: #FFF5F5; }")
        self.error_view.hide()
        top = QHBoxLayout()
        top.addWidget(QLabel(translate("run.trace_panel", "Show")))
        top.addWidget(self.scope, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.error_view)  # above the steps: a short dock shows its top
        split.addWidget(self.tree)
        layout = vbox(self)
        layout.addLayout(top)
        layout.addWidget(split)
        self.current_scope: tuple[str, ...] | None = None
        self._expanded: Row | None = None
        self._follow: Row | None = None
        self._cooldown = QTimer(self)
        self._cooldown.setSingleShot(True)
        self._cooldown.setInterval(FOLLOW_MS)
        self._cooldown.timeout.connect(self._follow_last)

    def clear(self) -> None:
        self.model.clear()
        self._expanded = self._follow = None
        self.step_into(None)
        self.scope.blockSignals(True)
        self.scope.clear()
        self.scope.addItem(translate("run.trace_panel", ALL), None)
        self.scope.blockSignals(False)
        self.clear_error()

    def clear_error(self) -> None:
        self.error_view.clear()
        self.error_view.setMinimumHeight(0)
        self.error_view.hide()

    def show_error(self, title: str, text: str) -> None:
        """The failure's message (every line of it: a ValidationError's field errors) above its
        traceback, all of it in view: the view is at least as tall as the message (up to
        MESSAGE_LINES lines) and at the top of the panel, which a dock too short for the panel
        shows (`DockScroll`)."""
        view = self.error_view
        view.setPlainText(f"{title}\n\n{text}".strip())
        width = max(view.viewport().width(), 200) - 2 * int(view.document().documentMargin())
        wrapped = view.fontMetrics().boundingRect(
            QRect(0, 0, width, 1 << 20), Qt.TextFlag.TextWordWrap, title
        )
        most = MESSAGE_LINES * view.fontMetrics().lineSpacing()
        margins = 2 * (view.frameWidth() + view.document().documentMargin())
        view.setMinimumHeight(int(min(wrapped.height(), most) + margins) + 2)
        view.show()
        area = self.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if area is not None:
            area.verticalScrollBar().setValue(0)

    def note(self, label: str, detail: str) -> None:
        self.model.note(label, detail)

    def add_events(self, events: list[Any]) -> None:
        known = len(self.model.scopes)
        last = self.model.add_events(events)
        if len(self.model.scopes) != known:
            self._fill_scopes()
        if last is None or self.current_scope is not None:
            return
        self._follow = last
        one_step = sum(1 for e in events if not e.ns and isinstance(e, trace.StepPlanned)) <= 1
        if (
            one_step or not self._cooldown.isActive()
        ):  # a Step at once; a run at most every FOLLOW_MS
            self._follow_last()
            self._cooldown.start()

    def _follow_last(self) -> None:
        """Open the newest step (and close the one opened before) and scroll to it: one collapse,
        one expand and one scroll per batch (each lays out the whole tree)."""
        last, self._follow = self._follow, None
        if last is None or self.current_scope is not None:
            return
        if self._expanded is not None and self._expanded is not last:
            self.tree.collapse(self.model.index_of(self._expanded))
        self._expanded = last
        self.model.build(last)
        index = self.model.index_of(last)
        self.tree.expand(index)
        for child in last.children:
            if child.unfolds:
                self.model.build(child)
                self.tree.expand(self.model.index_of(child))
        self.tree.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtTop)
        self._fit_first_column()

    def _fit_first_column(self) -> None:
        """The Superstep column as wide as the rows in view need (up to FIRST_COLUMN, and never
        most of a narrow dock): the Detail column, the plan's "woken by ..." and the values,
        gets the rest; at 1280×720 a fixed 320 px left it half of what it could have."""
        tree = self.tree
        cap = min(FIRST_COLUMN, int(tree.viewport().width() * FIRST_SHARE))
        need = max(tree.sizeHintForColumn(0), tree.header().sectionSizeHint(0))
        tree.setColumnWidth(0, max(min(need + 8, cap), tree.header().sectionSizeHint(0)))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_first_column()

    def _fill_scopes(self) -> None:
        self.scope.blockSignals(True)
        self.scope.clear()
        self.scope.addItem(translate("run.trace_panel", ALL), None)
        for ns, root in self.model.scopes.items():
            self.scope.addItem(
                translate("run.trace_panel", "{ns_label} (inner graph, {lower})").format(
                    ns_label=ns_label(ns), lower=root.label.lower()
                ),
                ns,
            )
        index = self.scope.findData(self.current_scope) if self.current_scope is not None else 0
        self.scope.setCurrentIndex(max(index, 0))
        self.scope.blockSignals(False)

    def scopes(self) -> list[tuple[str, ...]]:
        return list(self.model.scopes)

    def step_into(self, ns: tuple[str, ...] | None) -> None:
        """Show only the supersteps of one inner graph run (None: the whole run)."""
        row = self.model.scope_row(ns) if ns is not None else None
        self.current_scope = ns if row is not None else None
        index = self.model.show(row) if row is not None else self.model.index_of(None)
        if row is not None:
            self.model.build(row)
            for step in row.children:  # its supersteps, each open on its plan, writes and barrier
                self.model.build(step)
                for part in step.children:
                    self.model.build(part)
        self.tree.setRootIndex(index)
        if row is not None:  # its supersteps open, but the input and __start__ bookkeeping
            for step in row.children:
                if step.detail not in ("input checkpoint", "runs __start__"):
                    self.tree.expand(self.model.index_of(step))
            self.tree.scrollToTop()
        index = self.scope.findData(self.current_scope) if self.current_scope is not None else 0
        self.scope.setCurrentIndex(max(index, 0))
        self.scope_changed.emit(self.current_scope)

    def _inner_of(self, row: Row | None) -> tuple[str, ...] | None:
        """The inner graph a task row ran (a subgraph or agent node), if it ran one."""
        return next((ns for ns in self.model.scopes if self.model.scope_row(ns) is row), None)

    def _step_into_row(self, index: QModelIndex) -> None:
        inner = self._inner_of(self.model.row_of(index))
        if inner is not None:
            self.step_into(inner)

    def _row_menu(self, index: QModelIndex) -> Entries:
        row = self.model.row_of(index)
        if row is None:
            return []
        inner = self._inner_of(row)
        line = f"{row.label}: {row.detail}" if row.detail else row.label
        return [
            Entry("traceStepIntoAction", translate("run.trace_panel", "Step into its inner graph"),
                  lambda: self.step_into(inner), enabled=inner is not None,
                  tip=translate("run.trace_panel", "Only this subgraph's or agent's supersteps, channels and checkpoints")),
            Entry("traceWholeRunAction", translate("run.trace_panel", "Back to the whole run"), lambda: self.step_into(None),
                  enabled=self.current_scope is not None),
            Entry("traceExpandAction", translate("run.trace_panel", "Expand all below"), lambda: self._expand_below(index),
                  enabled=self.model.qt.hasChildren(index.siblingAtColumn(0)) or bool(row.children)),
            SEPARATOR,
            copy_entry("traceCopyAction", translate("run.trace_panel", "Copy line"), line),
        ]  # fmt: skip

    def _expand_below(self, index: QModelIndex) -> None:
        first = index.siblingAtColumn(0)
        self.model.build(self.model.row_of(first))
        self.tree.expandRecursively(first)

    def texts(self) -> list[str]:
        """Every row as `label: detail`, depth first (for tests and copy); within the scope
        stepped into, when there is one."""
        return self.model.texts(
            self.model.scope_row(self.current_scope) if self.current_scope else None
        )
