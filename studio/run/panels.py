"""The run panels: channels, superstep trace, checkpoint history, stream events, run input and
the interrupt panel. They only display what the runner hands them and emit what the user asks.

objectNames: `channelsTable`, `traceTree`, `tracebackView`, `checkpointTree`, `historyStateEditor`,
`historyStateCaption`, `replayButton`, `forkButton`, `checkpointDiff`, `threadList`
(`renameThreadButton`, `deleteThreadButton`), `eventsList`, `eventsFilter`, `runInputChooser`, `runInputEditor`,
`interruptPanel` (`interruptChooser`, `interruptPayload`, `interruptAnswer`, `resumeButton`,
`approveAllButton`, `rejectAllButton` for human-in-the-loop reviews).
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTreeView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.pregel import trace
from engine.pregel.trace_format import short_version, to_json
from studio.plain import plain_label, plain_tip
from studio.run.runner import ChannelRow, HistoryEntry, ThreadView, is_internal

CHANGED = QColor("#FFF2B3")
INTERNAL = QColor("#7A8290")
MONO = QFont("DejaVu Sans Mono")
MONO.setStyleHint(QFont.StyleHint.Monospace)


def show(value: Any, limit: int = 160) -> str:
    text = to_json(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown_or_dash(value: Any, limit: int = 160) -> str:
    """A value, or `—` for none (an empty channel, or a mailbox like `branch:to:X` that carries
    no payload)."""
    return "—" if value is None else show(value, limit)


def pretty(value: Any) -> str:
    return json.dumps(json.loads(to_json(value)), indent=2, ensure_ascii=False)


def _vbox(widget: QWidget) -> QVBoxLayout:
    layout = QVBoxLayout(widget)
    layout.setContentsMargins(4, 4, 4, 4)
    layout.setSpacing(4)
    return layout


def _button(name: str, text: str, slot) -> QPushButton:
    button = QPushButton(text)
    button.setObjectName(name)
    button.clicked.connect(slot)
    return button


def _combo(name: str, slot, items: tuple[str, ...] = ()) -> QComboBox:
    combo = QComboBox()
    combo.setObjectName(name)
    combo.addItems(list(items))
    combo.currentIndexChanged.connect(slot)
    return combo


def json_object(text: str, what: str) -> tuple[dict | None, str]:
    """Parse `text` as a JSON object: (value, "") or (None, why not)."""
    try:
        value = json.loads(text or "{}")
    except ValueError as exc:
        return None, f"{what} is not JSON: {exc}"
    if not isinstance(value, dict):
        return None, f"{what} must be a JSON object"
    return value, ""


def _rows_view(name: str, model: Any, selection: QAbstractItemView.SelectionMode,
               edit: QAbstractItemView.EditTrigger) -> QTreeView:  # fmt: skip
    """A tree view of whole rows over `model` (rows drawn only as they scroll into view)."""
    view = QTreeView()
    view.setObjectName(name)
    view.setModel(model)
    view.setUniformRowHeights(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(selection)
    view.setEditTriggers(edit)
    return view


def _table(name: str, columns: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(columns))
    table.setObjectName(name)
    table.setHorizontalHeaderLabels(columns)
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.horizontalHeader().setStretchLastSection(True)
    table.setWordWrap(False)
    table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    table.verticalHeader().setDefaultSectionSize(22)
    return table


class ChannelsPanel(QWidget):
    """Every channel of the compiled graph; rows the last barrier moved show old -> new."""

    COLUMNS = ["Channel", "Type", "Value", "Version"]

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("channelsPanel")
        self.table = _table("channelsTable", self.COLUMNS)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.setColumnWidth(0, 110)
        self.table.setColumnWidth(1, 105)
        self.table.setColumnWidth(3, 62)
        self.caption = plain_label("No run yet: Step or Run to see the channels.")
        self.caption.setObjectName("channelsCaption")
        self.caption.setWordWrap(True)
        layout = _vbox(self)
        layout.addWidget(self.caption)
        layout.addWidget(self.table)
        self.changed: set[str] = set()

    def show_rows(self, rows: list[ChannelRow], changes: list[trace.ChannelChange] | None = None,
                  caption: str = "") -> None:  # fmt: skip
        moved = {c.channel: c for c in changes or []}
        self.changed = set(moved)
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            change = moved.get(row.name)
            value = show(row.value) if row.has_value else "—"
            version = short_version(row.version)
            if change is not None:
                old = shown_or_dash(change.old_value)
                value = f"{old} → {value}"
                version = f"{short_version(change.old_version)} → {version}"
            cells = [row.name, row.kind, value, version]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(plain_tip(text))
                if change is not None:
                    item.setBackground(QBrush(CHANGED))
                if is_internal(row.name):
                    item.setForeground(QBrush(INTERNAL))
                self.table.setItem(r, c, item)
        if caption:
            self.caption.setText(caption)

    def row_text(self, name: str) -> list[str] | None:
        for r in range(self.table.rowCount()):
            if self.table.item(r, 0).text() == name:
                return [self.table.item(r, c).text() for c in range(self.table.columnCount())]
        return None


class TracePanel(QWidget):
    """Supersteps as a tree: plan (tasks and the channel versions that woke them), task results
    (writes, errors, interrupts), barrier (channel old -> new), checkpoint saved; plus the
    traceback of the last failure."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("tracePanel")
        self.tree = QTreeWidget()
        self.tree.setObjectName("traceTree")
        self.tree.setHeaderLabels(["Superstep", "Detail"])
        self.tree.setColumnWidth(0, 260)
        self.tree.setUniformRowHeights(True)
        self.error_view = QPlainTextEdit()
        self.error_view.setObjectName("tracebackView")
        self.error_view.setReadOnly(True)
        self.error_view.setFont(MONO)
        self.error_view.setStyleSheet("QPlainTextEdit { color: #B71C1C; background: #FFF5F5; }")
        self.error_view.hide()
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.tree)
        split.addWidget(self.error_view)
        _vbox(self).addWidget(split)
        self._steps: dict[tuple, QTreeWidgetItem] = {}

    def clear(self) -> None:
        self.tree.clear()
        self._steps.clear()
        self.clear_error()

    def clear_error(self) -> None:
        self.error_view.clear()
        self.error_view.hide()

    def show_error(self, title: str, text: str) -> None:
        self.error_view.setPlainText(f"{title}\n\n{text}".strip())
        self.error_view.show()

    def _step_item(self, ns: tuple, step: int) -> QTreeWidgetItem:
        key = (ns, step)
        item = self._steps.get(key)
        if item is None:
            where = f" in {'/'.join(ns)}" if ns else ""
            item = QTreeWidgetItem(self.tree, [f"Step {step}{where}", ""])
            font = item.font(0)
            font.setBold(True)
            item.setFont(0, font)
            self._steps[key] = item
        return item

    @staticmethod
    def _child(parent: QTreeWidgetItem, label: str, detail: str = "", color: str | None = None) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, [label, detail])
        item.setToolTip(1, plain_tip(detail))
        if color:
            item.setForeground(0, QBrush(QColor(color)))
            item.setForeground(1, QBrush(QColor(color)))
        return item

    def add_events(self, events: list[Any]) -> None:
        last = None
        for event in events:
            step = self._step_item(event.ns, event.step)
            last = step
            if isinstance(event, trace.StepPlanned):
                names = ", ".join(t.name for t in event.tasks) or "nothing"
                plan = self._child(step, "Plan", f"{len(event.tasks)} task(s): {names}")
                step.setText(1, f"runs {names}")
                for task in event.tasks:
                    woke = ", ".join(f"{ch} @ v{short_version(v)}" for ch, v in task.trigger_versions.items())
                    why = f"woken by {woke}" if woke else "a Send packet"
                    self._child(plan, task.name, why)
            elif isinstance(event, trace.TaskFinished):
                if event.error is not None:
                    self._child(step, f"{event.name} raised", f"{type(event.error).__name__}: {event.error}",
                                "#C62828")  # fmt: skip
                elif event.interrupts:
                    values = "; ".join(show(i.value) for i in event.interrupts)
                    self._child(step, f"{event.name} interrupted", values, "#B45F06")
                else:
                    writes = [(ch, v) for ch, v in event.writes if ch != "__interrupt__"]
                    text = ", ".join(f"{ch} = {show(v, 60)}" for ch, v in writes) or "no writes"
                    cached = " (cached)" if event.cached else ""
                    task = self._child(step, f"{event.name} wrote{cached}", text)
                    for ch, value in writes:
                        self._child(task, ch, show(value))
            elif isinstance(event, trace.BarrierApplied):
                barrier = self._child(step, "Barrier", f"{len(event.changes)} channel(s) updated")
                for c in event.changes:
                    old, new = shown_or_dash(c.old_value, 60), shown_or_dash(c.new_value, 60)
                    self._child(barrier, c.channel, f"{old} → {new}   "
                                f"(v{short_version(c.old_version)} → v{short_version(c.new_version)})")  # fmt: skip
            elif isinstance(event, trace.CheckpointSaved):
                self._child(step, "Checkpoint saved", f"{event.source} · {event.checkpoint_id}")
                if not step.text(1):
                    step.setText(1, f"{event.source} checkpoint")
        if last is not None:
            for item in self._steps.values():
                item.setExpanded(item is last)
            last.setExpanded(True)
            for i in range(last.childCount()):
                last.child(i).setExpanded(True)
            self.tree.scrollToItem(last, QAbstractItemView.ScrollHint.PositionAtTop)

    def texts(self) -> list[str]:
        """Every row as `label: detail`, depth first (for tests and copy)."""
        out: list[str] = []

        def walk(item: QTreeWidgetItem, depth: int) -> None:
            out.append("  " * depth + f"{item.text(0)}: {item.text(1)}")
            for i in range(item.childCount()):
                walk(item.child(i), depth + 1)

        for i in range(self.tree.topLevelItemCount()):
            walk(self.tree.topLevelItem(i), 0)
        return out


class _Node:
    __slots__ = ("entry", "parent", "children", "row", "branch")

    def __init__(self, entry: HistoryEntry, parent: _Node | None, branch: int) -> None:
        self.entry, self.parent, self.branch = entry, parent, branch
        self.children: list[_Node] = []
        self.row = 0

    @property
    def starts_branch(self) -> bool:
        """A fork, replay or new run off an earlier checkpoint (not the first run's root)."""
        return self.parent is not None and self.parent.entry.checkpoint_id == self.entry.parent_id


def checkpoint_forest(entries: list[HistoryEntry]) -> tuple[list[_Node], dict[str, _Node]]:
    """The history as a tree: each branch's checkpoints in order (oldest first) as siblings; a
    branch that forks off checkpoint C (a fork, a replay, a second run from C) nests under C.
    Branch 1 is the first run; later branches are numbered as they were made. Checkpoint ids
    sort by creation time, so a parent always comes before its children."""
    ordered = sorted(entries, key=lambda e: e.checkpoint_id)
    nodes: dict[str, _Node] = {}
    continued: set[str] = set()
    """Checkpoints whose own branch already goes on (any later child starts a new branch)."""
    top: list[_Node] = []
    branches = 0
    for entry in ordered:
        parent = nodes.get(entry.parent_id or "")
        if parent is not None and parent.entry.checkpoint_id not in continued:
            continued.add(parent.entry.checkpoint_id)
            node = _Node(entry, parent.parent, parent.branch)
            siblings = parent.parent.children if parent.parent is not None else top
        else:
            branches += 1
            node = _Node(entry, parent, branches)
            siblings = parent.children if parent is not None else top
        node.row = len(siblings)
        siblings.append(node)
        nodes[entry.checkpoint_id] = node
    return top, nodes


class CheckpointTreeModel(QAbstractItemModel):
    """The checkpoint forest for a QTreeView: rows are built only as the view asks for them."""

    COLUMNS = ["Step", "Source", "Next", "Branch", "Checkpoint"]

    def __init__(self) -> None:
        super().__init__()
        self.top: list[_Node] = []
        self.nodes: dict[str, _Node] = {}
        self.tip: str | None = None
        self._bold = QFont()
        self._bold.setBold(True)

    def set_entries(self, entries: list[HistoryEntry], tip: str | None) -> None:
        self.beginResetModel()
        self.top, self.nodes = checkpoint_forest(entries)
        self.tip = tip
        self.endResetModel()

    def node(self, index: QModelIndex) -> _Node | None:
        return index.internalPointer() if index.isValid() else None

    def index_of(self, checkpoint_id: str, column: int = 0) -> QModelIndex:
        node = self.nodes.get(checkpoint_id)
        return self.createIndex(node.row, column, node) if node is not None else QModelIndex()

    def _children(self, parent: QModelIndex) -> list[_Node]:
        node = self.node(parent)
        return node.children if node is not None else self.top

    def index(self, row: int, column: int, parent: QModelIndex = QModelIndex()) -> QModelIndex:
        children = self._children(parent)
        if 0 <= row < len(children) and 0 <= column < len(self.COLUMNS):
            return self.createIndex(row, column, children[row])
        return QModelIndex()

    def parent(self, index: QModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        node = self.node(index)
        if node is None or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.parent.row, 0, node.parent)

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._children(parent))

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return len(self.COLUMNS)

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        node = self.node(index)
        if node is None:
            return None
        e, tip = node.entry, node.entry.checkpoint_id == self.tip
        if role == Qt.ItemDataRole.DisplayRole:
            col = index.column()
            if col == 0:
                return f"{'★ ' if tip else ''}{e.step}"
            if col == 1:
                return ("↳ " if node.starts_branch else "") + e.source
            if col == 2:
                return ", ".join(e.next) or "(end)"
            if col == 3:
                return str(node.branch)
            return e.checkpoint_id[-12:]
        if role == Qt.ItemDataRole.ToolTipRole:
            where = "the current tip (what Continue and Step carry on from)\n" if tip else ""
            return f"{where}{e.checkpoint_id}\nparent {e.parent_id or '—'}\n{e.created_at}\nbranch {node.branch}"
        if role == Qt.ItemDataRole.FontRole and tip:
            return self._bold
        if role == Qt.ItemDataRole.ForegroundRole:
            if e.source in ("fork", "update"):
                return QBrush(QColor("#6A1B9A"))  # where a branch starts
            if node.branch > 1:
                return QBrush(QColor("#37474F"))
        if role == Qt.ItemDataRole.BackgroundRole and tip:
            return QBrush(QColor("#E3F2FD"))
        return None

    def texts(self) -> list[str]:
        """Every row as `step source next [branch]`, indented by depth (for tests and copy)."""
        out: list[str] = []
        stack = [(n, 0) for n in reversed(self.top)]
        while stack:
            node, depth = stack.pop()
            e = node.entry
            tip = " tip" if e.checkpoint_id == self.tip else ""
            out.append("  " * depth + f"{e.step} {e.source} -> {', '.join(e.next) or '(end)'} [{node.branch}]{tip}")
            stack.extend((c, depth + 1) for c in reversed(node.children))
        return out


class HistoryPanel(QWidget):
    """The thread's checkpoints as a fork tree; one chosen checkpoint's state is editable for a
    fork; two chosen (Ctrl+click) are compared."""

    replay_requested = Signal(object)  # HistoryEntry
    fork_requested = Signal(object, dict)  # HistoryEntry, updates
    chosen = Signal(object)  # HistoryEntry
    compare_requested = Signal(object, object)  # older HistoryEntry, newer HistoryEntry

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("historyPanel")
        self.model = CheckpointTreeModel()
        self.tree = _rows_view("checkpointTree", self.model, QAbstractItemView.SelectionMode.ExtendedSelection,
                               QAbstractItemView.EditTrigger.NoEditTriggers)  # fmt: skip
        self.tree.setAlternatingRowColors(True)
        palette = self.tree.palette()  # both chosen rows stay visible when the tree loses focus
        for role in (QPalette.ColorRole.Highlight, QPalette.ColorRole.HighlightedText):
            palette.setColor(QPalette.ColorGroup.Inactive, role, palette.color(QPalette.ColorGroup.Active, role))
        self.tree.setPalette(palette)
        self.tree.setIndentation(14)
        self.tree.setToolTip("Click a checkpoint to see its state; Ctrl+click a second one to compare them")
        for col, width in enumerate((62, 70, 100, 50)):
            self.tree.setColumnWidth(col, width)
        self.tree.selectionModel().selectionChanged.connect(lambda *_: self._selected())
        self.caption = plain_label("Pick a checkpoint to see its state")
        self.caption.setObjectName("historyStateCaption")
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("historyStateEditor")
        self.editor.setFont(MONO)
        self.editor.setPlaceholderText("Pick a checkpoint to see its state; edit it and Fork.")
        self.tree.setMinimumHeight(120)
        self.editor.setMinimumHeight(60)
        self.replay = _button("replayButton", "Replay from here", self._replay)
        self.fork = _button("forkButton", "Fork with edited state", self._fork)
        self.replay.setToolTip("Run again from the chosen checkpoint (its next tasks re-run)")
        self.fork.setToolTip("update_state on the chosen checkpoint with the edited values, then continue")
        self.status = plain_label()
        self.status.setObjectName("historyStatus")
        self.status.setWordWrap(True)
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.caption)
        lower_layout.addWidget(self.editor)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.tree)
        split.addWidget(lower)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([300, 110])
        layout = _vbox(self)
        layout.addWidget(split)
        row = QHBoxLayout()
        row.addWidget(self.replay)
        row.addWidget(self.fork)
        row.addStretch()
        layout.addLayout(row)
        layout.addWidget(self.status)
        self.entries: list[HistoryEntry] = []
        self._shown: str | None = None
        """The checkpoint whose state the editor holds (None: the editor is empty)."""
        self._set_buttons()

    def show_thread(self, view: ThreadView) -> None:
        keep = [e.checkpoint_id for e in self.selected()]
        current = self.current()
        self.entries = view.history
        tip = view.history[0].checkpoint_id if view.history else None
        selection = self.tree.selectionModel()
        selection.blockSignals(True)
        self.model.set_entries(self.entries, tip)
        self.tree.expandAll()
        for checkpoint_id in keep:
            index = self.model.index_of(checkpoint_id)
            if index.isValid():
                selection.select(index, QItemSelectionModel.SelectionFlag.Select
                                 | QItemSelectionModel.SelectionFlag.Rows)  # fmt: skip
        if current is not None and (index := self.model.index_of(current.checkpoint_id)).isValid():
            selection.setCurrentIndex(index, QItemSelectionModel.SelectionFlag.NoUpdate)
        selection.blockSignals(False)
        if tip is not None and not keep:
            self.tree.scrollTo(self.model.index_of(tip))
        forks = sum(1 for n in self.model.nodes.values() if n.starts_branch)
        self.status.setText(f"Thread {view.thread_id}: {len(self.entries)} checkpoint(s)"
                            + (f", {forks} fork(s)" if forks else "") + "; ★ marks the tip")  # fmt: skip
        self._show_state()

    def select(self, *checkpoint_ids: str) -> None:
        """Choose checkpoints as a click (then Ctrl+clicks) would."""
        selection = self.tree.selectionModel()
        selection.clearSelection()
        for checkpoint_id in checkpoint_ids:
            index = self.model.index_of(checkpoint_id)
            selection.setCurrentIndex(index, QItemSelectionModel.SelectionFlag.Select
                                      | QItemSelectionModel.SelectionFlag.Rows)  # fmt: skip

    def selected(self) -> list[HistoryEntry]:
        """The chosen checkpoints, oldest first."""
        found = [self.model.node(i) for i in self.tree.selectionModel().selectedRows()]
        return sorted((n.entry for n in found if n is not None), key=lambda e: e.checkpoint_id)

    def current(self) -> HistoryEntry | None:
        """The checkpoint last clicked, if it is chosen (else the only chosen one)."""
        chosen = self.selected()
        node = self.model.node(self.tree.selectionModel().currentIndex())
        if node is not None and node.entry in chosen:
            return node.entry
        return chosen[-1] if chosen else None

    def _set_buttons(self) -> None:
        enabled = self.current() is not None
        self.replay.setEnabled(enabled)
        self.fork.setEnabled(enabled)

    def _show_state(self) -> None:
        """The editor holds the chosen checkpoint's state, and nothing else."""
        entry = self.current()
        self._set_buttons()
        shown = entry.checkpoint_id if entry is not None else None
        if shown == self._shown:
            return
        self._shown = shown
        if entry is None:
            self.editor.clear()
            self.caption.setText("Pick a checkpoint to see its state")
        else:
            self.editor.setPlainText(pretty(entry.values))
            self.caption.setText(f"State at step {entry.step} ({entry.checkpoint_id[-8:]}): edit, then Fork")

    def _selected(self) -> None:
        self._show_state()
        chosen = self.selected()
        if (entry := self.current()) is not None:
            self.chosen.emit(entry)  # the channels follow the state editor
        if len(chosen) >= 2:
            self.compare_requested.emit(chosen[0], chosen[-1])

    def _replay(self) -> None:
        entry = self.current()
        if entry is not None:
            self.replay_requested.emit(entry)

    def _fork(self) -> None:
        entry = self.current()
        if entry is None:
            return
        edited, error = json_object(self.editor.toPlainText(), "The edited state")
        if edited is None:
            self.status.setText(error)
            return
        original = json.loads(to_json(entry.values))
        updates = {k: v for k, v in edited.items() if original.get(k, object()) != v}
        if not updates:
            self.status.setText("Nothing edited: change a value, then Fork")
            return
        self.fork_requested.emit(entry, updates)


class DiffPanel(QWidget):
    """Two checkpoints compared: channels changed (old → new, structurally), versions, each
    side's pending writes and next nodes."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("diffPanel")
        self.caption = plain_label("Ctrl+click two checkpoints in Checkpoints to compare them.")
        self.caption.setObjectName("diffCaption")
        self.caption.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setObjectName("checkpointDiff")
        self.tree.setHeaderLabels(["What", "Old", "New"])
        self.tree.setColumnWidth(0, 220)
        self.tree.setColumnWidth(1, 260)
        self.tree.setUniformRowHeights(True)
        layout = _vbox(self)
        layout.addWidget(self.caption)
        layout.addWidget(self.tree)
        self.diff: Any = None

    def _row(self, parent: Any, what: str, old: str = "", new: str = "", color: str | None = None) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, [what, old, new])
        for c, text in enumerate((what, old, new)):
            item.setToolTip(c, plain_tip(text))
        if color:
            for c in range(3):
                item.setForeground(c, QBrush(QColor(color)))
        return item

    def show_diff(self, diff: Any) -> None:
        self.diff = diff
        self.tree.clear()
        self.caption.setText(f"Step {diff.old_step} ({diff.old_id[-8:]}) → step {diff.new_step} "
                             f"({diff.new_id[-8:]}): {len(diff.channels)} channel(s) differ, "
                             f"{diff.unchanged} the same" + "".join(f"; {n}" for n in diff.notes))  # fmt: skip
        channels = self._row(self.tree, f"Channels changed ({len(diff.channels)})")
        for c in sorted(diff.channels, key=lambda c: is_internal(c.channel)):  # state keys first
            old = shown_or_dash(c.old_value, 120) if c.old_has else "(empty)"
            new = shown_or_dash(c.new_value, 120) if c.new_has else "(empty)"
            color = "#2E7D32" if c.kind == "added" else "#C62828" if c.kind == "removed" else None
            versions = f"v{short_version(c.old_version)} → v{short_version(c.new_version)}"
            row = self._row(channels, f"{c.channel}  ({versions})", old, new, color)  # one row each: diffs are read in a short dock
            if is_internal(c.channel):
                row.setForeground(0, QBrush(INTERNAL))
            for part in c.parts[1:] if len(c.parts) == 1 and c.parts[0].path == "(value)" else c.parts:
                self._row(row, f"{part.path} {part.kind}", "" if part.kind == "added" else show(part.old, 100),
                          "" if part.kind == "removed" else show(part.new, 100))  # fmt: skip
        nxt = self._row(self.tree, "Next nodes", ", ".join(diff.old_next) or "(end)",
                        ", ".join(diff.new_next) or "(end)")  # fmt: skip
        nxt.setExpanded(True)
        writes = self._row(self.tree, "Pending writes", str(len(diff.old_writes)), str(len(diff.new_writes)))
        for side, items in (("old", diff.old_writes), ("new", diff.new_writes)):
            for task_id, channel, value in items:
                text = f"{channel} = {show(value, 100)}"
                self._row(writes, f"task {task_id[:8]}", text if side == "old" else "", text if side == "new" else "")
        self.tree.expandAll()

    def texts(self) -> list[str]:
        out: list[str] = []

        def walk(item: QTreeWidgetItem, depth: int) -> None:
            out.append("  " * depth + " | ".join(item.text(c) for c in range(3)))
            for i in range(item.childCount()):
                walk(item.child(i), depth + 1)

        for i in range(self.tree.topLevelItemCount()):
            walk(self.tree.topLevelItem(i), 0)
        return out


class ThreadsPanel(QWidget):
    """The database's threads: name, created, last step, status; rename and delete."""

    chosen = Signal(str)  # thread id
    renamed = Signal(str, str)  # thread id, new name
    delete_requested = Signal(str)  # thread id, after the user confirmed
    COLUMNS = ["Name", "Created", "Last step", "Status"]

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("threadsPanel")
        self.model = QStandardItemModel(0, len(self.COLUMNS))
        self.model.setHorizontalHeaderLabels(self.COLUMNS)
        self.model.itemChanged.connect(self._edited)
        self.list = _rows_view("threadList", self.model, QAbstractItemView.SelectionMode.SingleSelection,
                               QAbstractItemView.EditTrigger.EditKeyPressed)  # fmt: skip
        self.list.setRootIsDecorated(False)
        for col, width in enumerate((120, 130, 64)):
            self.list.setColumnWidth(col, width)
        self.list.clicked.connect(lambda index: self._clicked(index))
        self.rename = _button("renameThreadButton", "Rename", self._rename)
        self.delete = _button("deleteThreadButton", "Delete", self._delete)
        self.rename.setToolTip("Change the name shown (the checkpoints keep their thread id)")
        self.delete.setToolTip("Delete the thread and all its checkpoints")
        layout = _vbox(self)
        layout.addWidget(self.list)
        row = QHBoxLayout()
        row.addWidget(self.rename)
        row.addWidget(self.delete)
        row.addStretch()
        layout.addLayout(row)
        self.ids: list[str] = []
        self.confirm_box: QMessageBox | None = None
        self._filling = False

    def show_threads(self, rows: list[tuple[str, str, str, str, str]], current: str) -> None:
        """rows: (thread id, name, created, last step, status)."""
        self._filling = True
        self.model.removeRows(0, self.model.rowCount())
        self.ids = [r[0] for r in rows]
        for thread_id, name, created, step, status in rows:
            items = [QStandardItem(text) for text in (name, created, step, status)]
            for c, item in enumerate(items):
                item.setEditable(c == 0)
                item.setToolTip(f"thread id {thread_id}")
            self.model.appendRow(items)
        self._filling = False
        if current in self.ids:
            self.list.setCurrentIndex(self.model.index(self.ids.index(current), 0))
        self._set_buttons()

    def _set_buttons(self) -> None:
        ok = self.current() is not None
        self.rename.setEnabled(ok)
        self.delete.setEnabled(ok)

    def current(self) -> str | None:
        row = self.list.currentIndex().row()
        return self.ids[row] if 0 <= row < len(self.ids) else None

    def _clicked(self, index: QModelIndex) -> None:
        self._set_buttons()
        if 0 <= index.row() < len(self.ids):
            self.chosen.emit(self.ids[index.row()])

    def _rename(self) -> None:
        row = self.list.currentIndex().row()
        if 0 <= row < len(self.ids):
            self.list.edit(self.model.index(row, 0))

    def _edited(self, item: QStandardItem) -> None:
        if self._filling or item.column() != 0 or not 0 <= item.row() < len(self.ids):
            return
        name = " ".join(item.text().split())[:80]  # one line, bounded
        self.renamed.emit(self.ids[item.row()], name)

    def _delete(self) -> None:
        thread_id = self.current()
        if thread_id is None:
            return
        box = QMessageBox(QMessageBox.Icon.Warning, "Delete thread",
                          f"Delete thread {thread_id} and all its checkpoints?",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self)  # fmt: skip
        box.setObjectName("deleteThreadDialog")
        box.setTextFormat(Qt.TextFormat.PlainText)  # thread ids are user text
        box.accepted.connect(lambda: self.delete_requested.emit(thread_id))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): nothing blocks
        self.confirm_box = box


class EventsPanel(QWidget):
    """The stream: one line per v2 part `{type, ns, data}`, filterable by type."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("eventsPanel")
        self.filter = _combo("eventsFilter", lambda _i: self._refill(), ("all", "values", "updates", "custom"))
        self.list = QListWidget()
        self.list.setObjectName("eventsList")
        self.list.setFont(MONO)
        self.list.setUniformItemSizes(True)
        clear = _button("clearEventsButton", "Clear", self.clear)
        layout = _vbox(self)
        row = QHBoxLayout()
        row.addWidget(QLabel("Show"))
        row.addWidget(self.filter)
        row.addStretch()
        row.addWidget(clear)
        layout.addLayout(row)
        layout.addWidget(self.list)
        self.parts: list[dict] = []

    def clear(self) -> None:
        self.parts.clear()
        self.list.clear()

    def _line(self, part: dict) -> str:
        ns = "/".join(part.get("ns") or ()) or "root"
        return f"{part.get('type', '?'):8} {ns:6} {show(part.get('data'), 240)}"

    def _wanted(self, part: dict) -> bool:
        kind = self.filter.currentText()
        return kind == "all" or part.get("type") == kind

    def add_parts(self, parts: list[Any]) -> None:
        for part in parts:
            part = part if isinstance(part, dict) else {"type": "?", "ns": (), "data": part}
            self.parts.append(part)
            if self._wanted(part):
                self.list.addItem(self._line(part))
        self.list.scrollToBottom()

    def _refill(self) -> None:
        self.list.clear()
        self.list.addItems([self._line(p) for p in self.parts if self._wanted(p)])


class RunInputPanel(QWidget):
    """The run's input as JSON, prefilled from the spec's saved inputs."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("runInputPanel")
        self.chooser = _combo("runInputChooser", self._chosen)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("runInputEditor")
        self.editor.setFont(MONO)
        self.error = plain_label()
        self.error.setObjectName("runInputError")
        self.error.setStyleSheet("color: #C62828")
        self.error.setWordWrap(True)
        layout = _vbox(self)
        row = QHBoxLayout()
        row.addWidget(QLabel("Saved input"))
        row.addWidget(self.chooser, 1)
        layout.addLayout(row)
        layout.addWidget(self.editor)
        layout.addWidget(self.error)
        self.inputs: list[Any] = []

    def set_inputs(self, inputs: list[Any]) -> None:
        self.inputs = list(inputs)
        self.chooser.blockSignals(True)
        self.chooser.clear()
        self.chooser.addItems([i.name for i in self.inputs] or ["(none)"])
        self.chooser.blockSignals(False)
        self._chosen(0)

    def _chosen(self, index: int) -> None:
        value = self.inputs[index].value if 0 <= index < len(self.inputs) else {}
        self.editor.setPlainText(json.dumps(value, indent=2, ensure_ascii=False))

    def set_value(self, value: Any) -> None:
        """Show `value` as the input (a thread's last input), whatever saved input is chosen."""
        self.editor.setPlainText(json.dumps(value, indent=2, ensure_ascii=False, default=str))
        self.error.setText("")

    def resume_hint(self) -> Any:
        """The chosen saved input's first resume value, to prefill an interrupt answer."""
        index = self.chooser.currentIndex()
        resume = getattr(self.inputs[index], "resume", None) if 0 <= index < len(self.inputs) else None
        return resume[0] if resume else None

    def value(self) -> dict | None:
        """The parsed input, or None (with the reason shown) when it is not a JSON object."""
        value, error = json_object(self.editor.toPlainText(), "The input state")
        self.error.setText(error)
        return value


class InterruptPanel(QFrame):
    """Non-modal: the pending interrupt's payload and a JSON answer that resumes the run."""

    answered = Signal(object, object)  # interrupt id (None when only one), value

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("interruptPanel")
        self.setStyleSheet("#interruptPanel { background: #FFF0E0; border-bottom: 1px solid #E0B080; }")
        self.title = plain_label()
        self.title.setObjectName("interruptTitle")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.chooser = _combo("interruptChooser", self._chosen)
        self.payload = QPlainTextEdit()
        self.payload.setObjectName("interruptPayload")
        self.payload.setReadOnly(True)
        self.payload.setFont(MONO)
        self.payload.setMaximumHeight(90)
        self.answer = QLineEdit()
        self.answer.setObjectName("interruptAnswer")
        self.answer.setPlaceholderText('Answer as JSON: true, "text", {"approved": true}…')
        self.answer.returnPressed.connect(self._resume)
        self.error = plain_label()
        self.error.setStyleSheet("color: #C62828")
        self.resume = _button("resumeButton", "Resume", self._resume)
        self.quick = {kind: _button(f"{kind}AllButton", f"{kind.title()} all", lambda _=False, k=kind: self._decide(k))
                      for kind in ("approve", "reject")}  # fmt: skip
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 6)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.chooser)
        layout.addLayout(top)
        layout.addWidget(self.payload)
        row = QHBoxLayout()
        row.addWidget(QLabel("Answer"))
        row.addWidget(self.answer, 1)
        row.addWidget(self.resume)
        for button in self.quick.values():
            button.setToolTip("Answer every tool call of this human-in-the-loop review at once")
            row.addWidget(button)
        layout.addLayout(row)
        layout.addWidget(self.error)
        self.pending: list[tuple[str, Any, str]] = []
        self.hide()

    def show_interrupts(self, pending: list[tuple[str, Any, str]], hint: Any = None) -> None:
        self.pending = list(pending)
        if not self.pending:
            self.hide()
            return
        self.chooser.blockSignals(True)
        self.chooser.clear()
        self.chooser.addItems([f"{node} · {iid[:8]}" for node, _v, iid in self.pending])
        self.chooser.setVisible(len(self.pending) > 1)
        self.chooser.blockSignals(False)
        self._chosen(0)
        self.answer.setText("" if hint is None else json.dumps(hint))
        self.error.setText("")
        self.show()
        self.answer.setFocus()

    def _chosen(self, index: int) -> None:
        if 0 <= index < len(self.pending):
            node, value, _iid = self.pending[index]
            many = f" ({len(self.pending)} pending)" if len(self.pending) > 1 else ""
            self.title.setText(f"{node} is waiting for an answer{many}")
            self.payload.setPlainText(pretty(value))
            requests = value.get("action_requests") if isinstance(value, dict) else None
            for button in self.quick.values():
                button.setVisible(isinstance(requests, list))

    def _decide(self, kind: str) -> None:
        """Human-in-the-loop middleware: one decision per action request, then resume."""
        node, value, _iid = self.pending[self.chooser.currentIndex()]
        decisions = [{"type": kind} for _ in value.get("action_requests", [])]
        self.answer.setText(json.dumps({"decisions": decisions}))
        self._resume()

    def _resume(self) -> None:
        index = self.chooser.currentIndex()
        if not 0 <= index < len(self.pending):
            return
        try:
            value = json.loads(self.answer.text())
        except ValueError as exc:
            self.error.setText(f"The answer is not JSON: {exc}")
            return
        self.error.setText("")
        iid = self.pending[index][2] if len(self.pending) > 1 else None
        self.hide()
        self.answered.emit(iid, value)
