"""The Events dock: the stream's v2 parts, filterable by type, in a list model (a line is made
only when the view draws it, so thousands of parts cost nothing until scrolled to)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListView, QWidget

from studio.i18n import translate
from studio.item_menu import Entry, copy_entry, item_menu
from studio.run.widgets import MONO, button, combo, show, vbox


def line(part: dict) -> str:
    ns = "/".join(part.get("ns") or ()) or "root"
    return f"{part.get('type', '?'):8} {ns:6} {show(part.get('data'), 240)}"


class EventsModel:
    """The parts, and a QStandardItemModel of the lines the filter lets through (a Qt model of
    its own: see TraceModel for why no Python model)."""

    def __init__(self) -> None:
        self.qt = QStandardItemModel()
        self.parts: list[dict] = []
        self.shown: list[int] = []
        """Indices into `parts` of the parts the filter lets through."""
        self.kind = "all"

    def _wanted(self, part: dict) -> bool:
        return self.kind == "all" or part.get("type") == self.kind

    def set_kind(self, kind: str) -> None:
        self.kind = kind
        self.qt.removeRows(0, self.qt.rowCount())
        self.shown = []
        self._show(range(len(self.parts)))

    def clear(self) -> None:
        self.parts.clear()
        self.shown.clear()
        self.qt.removeRows(0, self.qt.rowCount())

    def add(self, parts: list[Any]) -> None:
        start = len(self.parts)
        self.parts.extend(
            p if isinstance(p, dict) else {"type": "?", "ns": (), "data": p} for p in parts
        )
        self._show(range(start, len(self.parts)))

    def _show(self, indices: range) -> None:
        new = [i for i in indices if self._wanted(self.parts[i])]
        if not new:
            return
        items = []
        for i in new:
            item = QStandardItem(line(self.parts[i]))
            item.setEditable(False)
            items.append(item)
        self.qt.invisibleRootItem().appendRows(items)  # one insert for the batch
        self.shown.extend(new)


class EventsPanel(QWidget):
    """The stream: one line per v2 part `{type, ns, data}`, filterable by type."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("eventsPanel")
        self.model = EventsModel()
        self.filter = combo("eventsFilter", lambda _i: self.model.set_kind(self.filter.currentText()),
                            ("all", "values", "updates", "custom"))  # fmt: skip
        self.list = QListView()
        self.list.setObjectName("eventsList")
        self.list.setModel(self.model.qt)
        self.list.setFont(MONO)
        self.list.setUniformItemSizes(True)
        item_menu(self.list, lambda index: [
            copy_entry("eventsCopyAction", translate("run.events_panel", "Copy line"), str(index.data() or "")),
            Entry("eventsClearAction", translate("run.events_panel", "Clear"), self.clear),
        ])  # fmt: skip
        clear = button("clearEventsButton", translate("run.events_panel", "Clear"), self.clear)
        layout = vbox(self)
        row = QHBoxLayout()
        row.addWidget(QLabel(translate("run.events_panel", "Show")))
        row.addWidget(self.filter)
        row.addStretch()
        row.addWidget(clear)
        layout.addLayout(row)
        layout.addWidget(self.list)
        self._cooldown = QTimer(self)
        self._cooldown.setSingleShot(True)
        self._cooldown.setInterval(200)
        self._cooldown.timeout.connect(self.list.scrollToBottom)

    @property
    def parts(self) -> list[dict]:
        return self.model.parts

    def clear(self) -> None:
        self.model.clear()

    def add_parts(self, parts: list[Any]) -> None:
        self.model.add(parts)
        if not self._cooldown.isActive():  # a scroll lays out the whole list: at most 5 a second
            self.list.scrollToBottom()
            self._cooldown.start()

    def lines(self) -> list[str]:
        """The lines shown (for tests and copy)."""
        return [line(self.model.parts[i]) for i in self.model.shown]
