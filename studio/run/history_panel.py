"""The Checkpoints dock: the thread's history as a fork tree, the chosen checkpoint's state, replay and fork."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from engine.pregel.trace_format import to_json
from studio.i18n import QT_TRANSLATE_NOOP, translate
from studio.item_menu import SEPARATOR, Entries, Entry, copy_entry, item_menu
from studio.plain import line_label, set_line
from studio.run.runner import HistoryEntry, ThreadView
from studio.run.widgets import (
    MONO,
    button,
    json_object,
    pretty,
    rows_view,
    vbox,
)


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

    COLUMNS = [
        QT_TRANSLATE_NOOP("headers", "Step"),
        QT_TRANSLATE_NOOP("headers", "Source"),
        QT_TRANSLATE_NOOP("headers", "Next"),
        QT_TRANSLATE_NOOP("headers", "Branch"),
        QT_TRANSLATE_NOOP("headers", "Checkpoint"),
    ]

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
            return translate("headers", self.COLUMNS[section])
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
            where = (
                translate(
                    "run.history_panel", "the current tip (what Continue and Step carry on from)\n"
                )
                if tip
                else ""
            )
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
            out.append(
                "  " * depth
                + f"{e.step} {e.source} -> {', '.join(e.next) or '(end)'} [{node.branch}]{tip}"
            )
            stack.extend((c, depth + 1) for c in reversed(node.children))
        return out


class HistoryPanel(QWidget):
    """The thread's checkpoints as a fork tree; one chosen checkpoint's state is editable for a
    fork; two chosen (Ctrl+click) are compared."""

    replay_requested = Signal(object)  # HistoryEntry
    fork_requested = Signal(object, dict)  # HistoryEntry, updates
    older_requested = Signal(object)  # the oldest HistoryEntry shown: the page before it is wanted
    chosen = Signal(object)  # HistoryEntry
    compare_requested = Signal(object, object)  # older HistoryEntry, newer HistoryEntry

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("historyPanel")
        self.model = CheckpointTreeModel()
        self.tree = rows_view("checkpointTree", self.model, QAbstractItemView.SelectionMode.ExtendedSelection,
                               QAbstractItemView.EditTrigger.NoEditTriggers)  # fmt: skip
        self.tree.setAlternatingRowColors(True)
        palette = self.tree.palette()  # both chosen rows stay visible when the tree loses focus
        for role in (QPalette.ColorRole.Highlight, QPalette.ColorRole.HighlightedText):
            palette.setColor(
                QPalette.ColorGroup.Inactive, role, palette.color(QPalette.ColorGroup.Active, role)
            )
        self.tree.setPalette(palette)
        self.tree.setIndentation(14)
        self.tree.setToolTip(
            translate(
                "run.history_panel",
                "Click a checkpoint to see its state, double-click it to edit the state and fork; "
                "Ctrl+click a second one to compare them",
            )
        )
        for col, width in enumerate((62, 70, 100, 50)):
            self.tree.setColumnWidth(col, width)
        self.tree.selectionModel().selectionChanged.connect(lambda *_: self._selected())
        self.tree.doubleClicked.connect(lambda _index: self._edit_state())
        item_menu(self.tree, self._row_menu)
        self.caption = line_label()  # empty until a pick: the editor's placeholder asks for one
        self.caption.setObjectName("historyStateCaption")
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("historyStateEditor")
        self.editor.setFont(MONO)
        self.editor.setPlaceholderText(
            translate("run.history_panel", "Pick a checkpoint to see its state; edit it and Fork.")
        )
        self.tree.setMinimumHeight(56)  # the header and two rows
        self.editor.setMinimumHeight(44)  # two lines of state
        self.replay = button(
            "replayButton",
            translate("run.history_panel", "Replay from here"),
            self._replay,
            tip=translate(
                "run.history_panel", "Run again from the chosen checkpoint (its next tasks re-run)"
            ),
        )
        self.fork = button(
            "forkButton",
            translate("run.history_panel", "Fork with edited state"),
            self._fork,
            tip=translate(
                "run.history_panel",
                "update_state on the chosen checkpoint with the edited values, then continue",
            ),
        )
        self.status = line_label()
        self.status.setObjectName("historyStatus")
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.tree)
        split.addWidget(self.editor)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([300, 160])
        split.setChildrenCollapsible(False)
        # the buttons above the tree: a short dock shrinks the tree and the editor, never them
        row = QHBoxLayout()
        row.addWidget(self.replay)
        row.addWidget(self.fork)
        self.older = button(
            "olderButton", translate("run.history_panel", "Show older"), self._older
        )
        self.older.setToolTip(
            translate(
                "run.history_panel", "Read the next page of older checkpoints from the database"
            )
        )
        self.older.hide()
        row.addWidget(self.older)
        # what the editor holds, beside the buttons that use it (cut at the dock's edge, all of
        # it as its tooltip; the chosen row says it too), and the thread's line in the row the
        # caption had, whole: beside the buttons a 400-pixel dock (1280×720) cut it after the
        # thread's name. As many rows as before, and no taller, so the column fits as it did.
        row.addWidget(self.caption, 1)
        head = QVBoxLayout()
        head.setSpacing(0)
        head.addWidget(self.status)
        head.addLayout(row)
        layout = vbox(self)
        layout.addLayout(head)
        layout.addWidget(split, 1)
        self.entries: list[HistoryEntry] = []
        self.total = 0
        """Checkpoints in the thread; `entries` are the newest pages of them."""
        self._shown: str | None = None
        """The checkpoint whose state the editor holds (None: the editor is empty)."""
        self.fork_dialog = None
        """The last state window opened (Edit its state…, a double-click on a checkpoint)."""
        self._set_buttons()

    def show_thread(self, view: ThreadView) -> None:
        keep = [e.checkpoint_id for e in self.selected()]
        current = self.current()
        self.entries = view.history
        self.total = max(view.total, len(view.history))
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
        shown = (
            translate("run.history_panel", "the newest {len} of {total}").format(
                len=len(self.entries), total=self.total
            )
            if self.total > len(self.entries)
            else str(self.total)
        )
        self.older.setVisible(self.total > len(self.entries))
        line = translate("run.history_panel", "Thread {thread}: {shown} checkpoint(s)").format(
            thread=view.thread_id, shown=shown
        )
        if forks:
            line += translate("run.history_panel", ", {forks} fork(s)").format(forks=forks)
        set_line(self.status, line + translate("run.history_panel", "; ★ marks the tip"))  # fmt: skip
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
        self.older.setEnabled(True)
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
            set_line(self.caption, "")
        else:
            self.editor.setPlainText(pretty(entry.values))
            set_line(
                self.caption,
                translate(
                    "run.history_panel", "State at step {step} ({value}): edit, then Fork"
                ).format(step=entry.step, value=entry.checkpoint_id[-8:]),
            )

    def _selected(self) -> None:
        self._show_state()
        chosen = self.selected()
        if (entry := self.current()) is not None:
            self.chosen.emit(entry)  # the channels follow the state editor
        if len(chosen) >= 2:
            self.compare_requested.emit(chosen[0], chosen[-1])

    def _row_menu(self, index) -> Entries:
        """A checkpoint's right-click menu: what the buttons do, a compare with the tip, its id."""
        node = self.model.node(index)
        if node is None:
            return []
        entry = node.entry
        tip = self.model.nodes.get(self.model.tip or "")
        other = tip.entry if tip is not None and tip.entry is not entry else None
        pair = sorted((entry, other), key=lambda e: e.checkpoint_id) if other else []
        return [
            Entry("checkpointReplayAction", translate("run.history_panel", "Replay from here"), self._replay,
                  tip=self.replay.toolTip()),
            Entry("checkpointEditAction", translate("run.history_panel", "Edit its state…"), self._edit_state,
                  tip=translate("run.history_panel", "Its state in a larger editor, to change values and fork")),
            Entry("checkpointForkAction", translate("run.history_panel", "Fork with edited state"), self._fork,
                  tip=self.fork.toolTip()),
            SEPARATOR,
            Entry("checkpointCompareAction", translate("run.history_panel", "Compare with the tip"),
                  lambda: self.compare_requested.emit(*pair), enabled=bool(pair)),
            copy_entry("checkpointCopyIdAction", translate("run.history_panel", "Copy checkpoint id"), entry.checkpoint_id),
        ]  # fmt: skip

    def _edit_state(self) -> None:
        """The chosen checkpoint's state in a window of its own, big enough at 1280×720 to read
        and edit, with the fork's button (the dock shows two lines of it)."""
        entry = self.current()
        if entry is None:
            return
        from studio.run.fork_dialog import ForkDialog  # on first use

        title = translate("run.history_panel", "State at step {step} ({value})").format(
            step=entry.step, value=entry.checkpoint_id[-8:]
        )
        self.fork_dialog = ForkDialog(title, self.editor.toPlainText(), self._fork_from, self)
        self.fork_dialog.open()  # not exec(): the run side keeps going, tests never block

    def edit_tip(self) -> None:
        """The tip's state in its window: a node that raised NodeInterrupt runs again once the
        state is changed there (Fork with edited state updates the tip and runs on)."""
        if self.entries:
            self.select(self.entries[0].checkpoint_id)
            self._edit_state()

    def _older(self) -> None:
        if self.entries:
            self.older.setEnabled(False)  # until the page arrives
            self.older_requested.emit(min(self.entries, key=lambda e: e.checkpoint_id))

    def _replay(self) -> None:
        entry = self.current()
        if entry is not None:
            self.replay_requested.emit(entry)

    def _fork(self) -> None:
        if why := self._fork_from(self.editor.toPlainText()):
            set_line(self.status, why)

    def _fork_from(self, text: str) -> str:
        """Fork the chosen checkpoint with the state `text` gives: "" when it did, else why not
        (the editor keeps the text either way)."""
        entry = self.current()
        if entry is None:
            return translate("run.history_panel", "Pick a checkpoint to see its state")
        if text != self.editor.toPlainText():  # the window's text: the dock shows it too
            self.editor.setPlainText(text)
        edited, error = json_object(text, translate("run.history_panel", "The edited state"))
        if edited is None:
            return error
        original = json.loads(to_json(entry.values))
        updates = {k: v for k, v in edited.items() if original.get(k, object()) != v}
        if not updates:
            return translate("run.history_panel", "Nothing edited: change a value, then Fork")
        self.fork_requested.emit(entry, updates)
        return ""
