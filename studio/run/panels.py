"""The run panels: channels, superstep trace, checkpoint history, stream events, run input and
the interrupt panel. They only display what the runner hands them and emit what the user asks.

objectNames: `channelsTable`, `traceTree`, `tracebackView`, `historyTable`, `historyStateEditor`,
`replayButton`, `forkButton`, `eventsList`, `eventsFilter`, `runInputChooser`, `runInputEditor`,
`interruptPanel` (`interruptChooser`, `interruptPayload`, `interruptAnswer`, `resumeButton`,
`approveAllButton`, `rejectAllButton` for human-in-the-loop reviews).
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
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


def branch_numbers(entries: list[HistoryEntry]) -> dict[str, int]:
    """Number the branches of a checkpoint tree: 1 for the newest tip and its ancestors, 2 for the
    next tip's checkpoints not already numbered, and so on (entries come newest first)."""
    parents = {e.checkpoint_id: e.parent_id for e in entries}
    has_child = {e.parent_id for e in entries}
    numbers: dict[str, int] = {}
    for tip in (e.checkpoint_id for e in entries if e.checkpoint_id not in has_child):
        branch = len(set(numbers.values())) + 1
        node: str | None = tip
        while node is not None and node in parents and node not in numbers:
            numbers[node] = branch
            node = parents[node]
    return numbers


class HistoryPanel(QWidget):
    """Checkpoints of the thread, newest first; the chosen one's state is editable for a fork."""

    replay_requested = Signal(object)  # HistoryEntry
    fork_requested = Signal(object, dict)  # HistoryEntry, updates
    chosen = Signal(object)  # HistoryEntry
    COLUMNS = ["Branch", "Step", "Source", "Next", "Checkpoint", "Parent"]

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("historyPanel")
        self.table = _table("historyTable", self.COLUMNS)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        for col, width in enumerate((52, 40, 56, 110, 90)):
            self.table.setColumnWidth(col, width)
        self.table.itemSelectionChanged.connect(self._selected)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("historyStateEditor")
        self.editor.setFont(MONO)
        self.editor.setPlaceholderText("Pick a checkpoint to see its state; edit it and Fork.")
        self.table.setMinimumHeight(120)
        self.editor.setMinimumHeight(60)
        self.replay = _button("replayButton", "Replay from here", self._replay)
        self.fork = _button("forkButton", "Fork with edited state", self._fork)
        self.replay.setToolTip("Run again from the chosen checkpoint (its next tasks re-run)")
        self.fork.setToolTip("update_state on the chosen checkpoint with the edited values, then continue")
        self.status = plain_label()
        self.status.setObjectName("historyStatus")
        self.status.setWordWrap(True)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.editor)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([300, 100])
        layout = _vbox(self)
        layout.addWidget(split)
        row = QHBoxLayout()
        row.addWidget(self.replay)
        row.addWidget(self.fork)
        row.addStretch()
        layout.addLayout(row)
        layout.addWidget(self.status)
        self.entries: list[HistoryEntry] = []
        self._set_buttons()

    def show_thread(self, view: ThreadView) -> None:
        chosen = self.current()
        keep = chosen.checkpoint_id if chosen else None
        self.entries = view.history
        self.table.blockSignals(True)
        self.table.setRowCount(len(self.entries))
        branches = branch_numbers(self.entries)
        for r, e in enumerate(self.entries):
            branch = branches.get(e.checkpoint_id, 1)
            cells = [("└ " * (branch > 1)) + str(branch), str(e.step), e.source, ", ".join(e.next) or "(end)",
                     e.checkpoint_id[-12:], (e.parent_id or "")[-12:]]  # fmt: skip
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{e.checkpoint_id}\n{e.created_at}\nbranch {branch} (1 is the newest)")
                if e.source in ("fork", "update"):
                    item.setForeground(QBrush(QColor("#6A1B9A")))  # where a branch starts
                elif branch > 1:
                    item.setForeground(QBrush(QColor("#7A8290")))  # an older branch
                self.table.setItem(r, c, item)
            if e.checkpoint_id == keep:
                self.table.selectRow(r)
        self.table.blockSignals(False)
        self.status.setText(f"Thread {view.thread_id}: {len(self.entries)} checkpoint(s)")
        self._set_buttons()

    def current(self) -> HistoryEntry | None:
        rows = self.table.selectionModel().selectedRows()
        return self.entries[rows[0].row()] if rows and rows[0].row() < len(self.entries) else None

    def _set_buttons(self) -> None:
        enabled = self.current() is not None
        self.replay.setEnabled(enabled)
        self.fork.setEnabled(enabled)

    def _selected(self) -> None:
        entry = self.current()
        self._set_buttons()
        if entry is not None:
            self.editor.setPlainText(pretty(entry.values))
            self.chosen.emit(entry)

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
