"""The Deep agent dock: a deep agent's virtual filesystem as a file tree with each file's
contents and what a step changed in it, and its to-do list as a checklist, at any of the
supersteps that touched them (the agent's own, inside its node, included).

It reads the run's barriers (BarrierApplied events): a graph's `files` and `todos` channels are
deepagents' (a dict of path -> file data, a list of {content, status}).

objectNames: `deepAgentPanel`, `deepStepChooser`, `deepFilesTree`, `deepFileView`,
`deepFileDiff` (tabs `deepFileTabs`), `deepTodoList`, `deepAgentCaption`.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from engine.pregel import trace
from studio.i18n import translate
from studio.plain import plain_label
from studio.run.trace_model import ns_label
from studio.run.widgets import vbox

_WATCHED = ("files", "todos")
_CHECKS = {
    "completed": Qt.CheckState.Checked,
    "in_progress": Qt.CheckState.PartiallyChecked,
    "pending": Qt.CheckState.Unchecked,
}


def file_text(data: Any) -> str:
    """A file's contents: deepagents keeps a string (older versions a list of lines)."""
    content = data.get("content", "") if isinstance(data, dict) else data
    if isinstance(content, list):
        return "\n".join(str(line) for line in content)
    return "" if content is None else str(content)


@dataclass
class Snapshot:
    """A deep agent's files and to-dos after one of its supersteps."""

    ns: tuple[str, ...]
    step: int
    files: dict[str, Any]
    todos: list[Any]
    changed: set[str] = field(default_factory=set)
    """Paths this step created, rewrote or deleted."""
    before: dict[str, Any] = field(default_factory=dict)
    """The files as the previous snapshot of the same graph had them."""
    todos_moved: bool = False

    def label(self) -> str:
        where = ns_label(self.ns) if self.ns else translate("run.deep_agent_panel", "graph")
        todos = translate("run.deep_agent_panel", "to-dos")
        what = ", ".join(sorted(self.changed) + ([todos] if self.todos_moved else []))
        return translate("run.deep_agent_panel", "{where}, step {step}: {what}").format(
            where=where,
            step=self.step,
            what=what or translate("run.deep_agent_panel", "no files yet"),
        )


class DeepAgentHistory:
    """The snapshots of every graph of a run whose barriers moved `files` or `todos`."""

    def __init__(self) -> None:
        self.snapshots: list[Snapshot] = []
        self._last: dict[tuple[str, ...], Snapshot] = {}

    def add_events(self, events: list[Any]) -> int:
        """Read a batch of events; returns how many snapshots it added."""
        added = 0
        for event in events:
            if not isinstance(event, trace.BarrierApplied):
                continue
            moved = {c.channel: c.new_value for c in event.changes if c.channel in _WATCHED}
            if not moved:
                continue
            last = self._last.get(event.ns)
            before = dict(last.files) if last else {}
            files = dict(moved["files"] or {}) if "files" in moved else before
            todos = (
                list(moved.get("todos") or []) if "todos" in moved else (last.todos if last else [])
            )
            changed = {p for p in files.keys() | before.keys() if files.get(p) != before.get(p)}
            snap = Snapshot(event.ns, event.step, files, todos, changed, before, "todos" in moved)
            self.snapshots.append(snap)
            self._last[event.ns] = snap
            added += 1
        return added

    def latest(self) -> int:
        """The newest snapshot of a graph that has files (a graph holding only a copy of the
        agent's to-dos, as its parent may, comes second), or -1."""
        with_files = {s.ns for s in self.snapshots if s.files or s.changed}
        for i in range(len(self.snapshots) - 1, -1, -1):
            if not with_files or self.snapshots[i].ns in with_files:
                return i
        return -1


class DeepAgentPanel(QWidget):
    """The file tree, the chosen file with its diff, and the to-do checklist."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("deepAgentPanel")
        self.history = DeepAgentHistory()
        self._announced = False
        self.caption = plain_label()
        self.caption.setObjectName("deepAgentCaption")
        self.caption.setWordWrap(True)
        self.chooser = QComboBox()
        self.chooser.setObjectName("deepStepChooser")
        self.chooser.currentIndexChanged.connect(self._show)
        self.tree = QTreeWidget()
        self.tree.setObjectName("deepFilesTree")
        self.tree.setHeaderHidden(True)  # the rows are paths: a header would take a row
        self.tree.setColumnCount(2)
        self.tree.setColumnWidth(0, 130)
        self.tree.setIndentation(12)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.currentItemChanged.connect(lambda *_: self._show_file())
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.Monospace)
        self.view = self._text_view("deepFileView", mono)
        self.diff = self._text_view("deepFileDiff", mono)
        self.todos = QListWidget()
        self.todos.setObjectName("deepTodoList")
        # the tree over the checklist, beside the chosen file (its contents, or what this step
        # changed in it): readable in the short column the dock shares with the inspector
        self.texts = QTabWidget()
        self.texts.setObjectName("deepFileTabs")
        self.texts.addTab(self.view, translate("run.deep_agent_panel", "Contents"))
        self.texts.addTab(self.diff, translate("run.deep_agent_panel", "Changed by this step"))
        lists = QSplitter(Qt.Orientation.Vertical)
        lists.addWidget(self.tree)
        lists.addWidget(self.todos)
        lists.setSizes([110, 70])
        whole = QSplitter(Qt.Orientation.Horizontal)
        whole.addWidget(lists)
        whole.addWidget(self.texts)
        whole.setSizes([170, 250])
        for part in (self.tree, self.texts, self.todos):
            part.setMinimumHeight(48)
        layout = vbox(self)
        for part in (self.caption, self.chooser, whole):
            layout.addWidget(part)
        self.parts = (self.chooser, whole)
        self._shown(False)

    def _shown(self, ran: bool) -> None:
        """Before a deep agent has run, the caption alone: the panel then asks for no more
        height than that, so the workspace gives the column's height to the other docks (most
        graphs have no deep agent)."""
        if not ran:
            self.caption.setText(translate(
                "run.deep_agent_panel", "No deep agent has run yet: its files and to-dos show here."))  # fmt: skip
        for part in self.parts:
            part.setVisible(ran)

    @staticmethod
    def _text_view(name: str, font: QFont) -> QPlainTextEdit:
        box = QPlainTextEdit()
        box.setObjectName(name)
        box.setReadOnly(True)
        box.setFont(font)
        return box

    # ------------------------------------------------------------------ reading the run

    def clear(self) -> None:
        self.history = DeepAgentHistory()
        self._announced = False
        self.chooser.clear()
        self.tree.clear()
        self.todos.clear()
        self.view.clear()
        self.diff.clear()
        self._shown(False)

    def add_events(self, events: list[Any]) -> bool:
        """Take a step's events; True when a deep agent's files or to-dos moved (the latest
        snapshot is then shown)."""
        if not self.history.add_events(events):
            return False
        self._shown(True)
        for snap in self.history.snapshots[self.chooser.count() :]:
            self.chooser.addItem(snap.label())
        self.chooser.setCurrentIndex(self.history.latest())
        return True

    def announce(self) -> bool:
        """True the first time a run shows deep agent data (its dock then comes forward)."""
        first, self._announced = not self._announced and bool(self.history.snapshots), True
        return first

    @property
    def current(self) -> Snapshot | None:
        i = self.chooser.currentIndex()
        return self.history.snapshots[i] if 0 <= i < len(self.history.snapshots) else None

    # ------------------------------------------------------------------ showing one snapshot

    def _show(self) -> None:
        snap = self.current
        self.tree.clear()
        self.todos.clear()
        if snap is None:
            return
        n = len(snap.files)
        self.caption.setText(translate("run.deep_agent_panel", translate("run.deep_agent_panel", "{value} after step {step}: {n} file{value2}; ● changed by this step")).format(value=ns_label(snap.ns) or translate("run.deep_agent_panel", 'The graph'), step=snap.step, n=n, value2='s' * (n != 1)))  # fmt: skip
        folders: dict[str, QTreeWidgetItem] = {}
        chosen = None
        for path in sorted(snap.files.keys() | snap.changed):
            parent: Any = self.tree
            parts = [p for p in path.split("/") if p]
            for depth in range(len(parts) - 1):
                key = "/".join(parts[: depth + 1])
                if key not in folders:
                    folders[key] = QTreeWidgetItem(parent, [parts[depth] + "/"])
                    folders[key].setExpanded(True)
                parent = folders[key]
            gone = path not in snap.files
            mark = "deleted" if gone else ("●" if path in snap.changed else "")
            item = QTreeWidgetItem(parent, [parts[-1] if parts else path, mark])
            item.setData(0, Qt.ItemDataRole.UserRole, path)
            if path in snap.changed and (chosen is None or not gone):
                chosen = item
        self.tree.expandAll()
        if chosen is not None:
            self.tree.setCurrentItem(chosen)
        for todo in snap.todos:
            status = todo.get("status", "pending") if isinstance(todo, dict) else "pending"
            text = todo.get("content", str(todo)) if isinstance(todo, dict) else str(todo)
            item = QListWidgetItem(
                text
                if status != "in_progress"
                else translate("run.deep_agent_panel", "{text}  (in progress)").format(text=text)
            )
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)  # shown, not edited: the agent owns it
            item.setCheckState(_CHECKS.get(status, Qt.CheckState.Unchecked))
            self.todos.addItem(item)

    def _show_file(self) -> None:
        snap, item = self.current, self.tree.currentItem()
        path = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        if snap is None or path is None:
            self.view.clear()
            self.diff.clear()
            return
        now = file_text(snap.files[path]) if path in snap.files else ""
        then = file_text(snap.before[path]) if path in snap.before else ""
        self.view.setPlainText(
            now
            if path in snap.files
            else translate("run.deep_agent_panel", "({path} was deleted)").format(path=path)
        )
        lines = difflib.unified_diff(then.splitlines(), now.splitlines(), f"{path} before",
                                     translate("run.deep_agent_panel", "{path} after step {step}").format(path=path, step=snap.step), lineterm="")  # fmt: skip
        self.diff.setPlainText(
            "\n".join(lines) or translate("run.deep_agent_panel", "(unchanged by this step)")
        )

    def file_paths(self) -> list[str]:
        """The paths in the tree, in order (for tests and the status line)."""
        out: list[str] = []

        def walk(item: QTreeWidgetItem) -> None:
            path = item.data(0, Qt.ItemDataRole.UserRole)
            if path:
                out.append(path)
            for i in range(item.childCount()):
                walk(item.child(i))

        for i in range(self.tree.topLevelItemCount()):
            walk(self.tree.topLevelItem(i))
        return out

    def todo_states(self) -> list[tuple[str, Qt.CheckState]]:
        return [(self.todos.item(i).text(), self.todos.item(i).checkState())
                for i in range(self.todos.count())]  # fmt: skip


__all__ = ["DeepAgentHistory", "DeepAgentPanel", "Snapshot", "file_text"]
