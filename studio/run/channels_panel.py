"""The Channels dock: every channel of the compiled graph, old -> new where the last barrier moved it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QHeaderView,
    QTableWidgetItem,
    QWidget,
)

from engine.pregel import trace
from engine.pregel.trace_format import short_version, to_json
from studio.i18n import QT_TRANSLATE_NOOP, translate
from studio.item_menu import Entries, copy_entry, item_menu
from studio.plain import plain_label, plain_tip
from studio.run.runner import ChannelRow, is_internal
from studio.run.widgets import (
    CHANGED,
    INTERNAL,
    show,
    shown_or_dash,
    table,
    vbox,
)


class ChannelsPanel(QWidget):
    """Every channel of the compiled graph; rows the last barrier moved show old -> new."""

    COLUMNS = [
        QT_TRANSLATE_NOOP("headers", "Channel"),
        QT_TRANSLATE_NOOP("headers", "Type"),
        QT_TRANSLATE_NOOP("headers", "Value"),
        QT_TRANSLATE_NOOP("headers", "Version"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("channelsPanel")
        self.table = table("channelsTable", self.COLUMNS)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.setColumnWidth(0, 110)
        self.table.setColumnWidth(1, 105)
        self.table.setColumnWidth(3, 62)
        self.caption = plain_label(
            translate("run.channels_panel", "No run yet: Step or Run to see the channels.")
        )
        self.caption.setObjectName("channelsCaption")
        self.caption.setWordWrap(True)
        layout = vbox(self)
        layout.addWidget(self.caption)
        layout.addWidget(self.table)
        self.changed: set[str] = set()
        item_menu(self.table, self._row_menu)

    def _row_menu(self, index) -> Entries:
        name, value = self.table.item(index.row(), 0), self.table.item(index.row(), 2)
        if name is None or value is None:
            return []
        full = value.data(Qt.ItemDataRole.UserRole) or ""
        return [
            copy_entry(
                "channelCopyValueAction", translate("run.channels_panel", "Copy value (JSON)"), full
            ),
            copy_entry(
                "channelCopyNameAction",
                translate("run.channels_panel", "Copy channel name"),
                name.text(),
            ),
        ]

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
                if c == 2 and row.has_value:
                    item.setData(Qt.ItemDataRole.UserRole, to_json(row.value))  # all of it
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
