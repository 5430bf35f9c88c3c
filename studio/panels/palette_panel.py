"""The palette (objectName `palette`): node kinds, notes and middleware to drag onto the canvas."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QSize, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem

from graphspec.node_kinds import NODE_KINDS
from studio.canvas.looks import PREBUILT_HOOKS
from studio.canvas.view import PALETTE_MIME
from studio.i18n import QT_TRANSLATE_NOOP, translate
from studio.item_menu import Entries, Entry, item_menu
from studio.paths import icon

KIND_HELP = {
    "function": QT_TRANSLATE_NOOP(
        "panels.palette_panel", "Python code (runs only when the spec is trusted)"
    ),
    "set_state": QT_TRANSLATE_NOOP(
        "panels.palette_panel", "writes state keys from safe expressions"
    ),
    "model": QT_TRANSLATE_NOOP("panels.palette_panel", "calls a chat model on the messages"),
    "tools": QT_TRANSLATE_NOOP(
        "panels.palette_panel", "runs the tool calls of the last AI message"
    ),
    "agent": QT_TRANSLATE_NOOP("panels.palette_panel", "create_agent: model, tools and middleware"),
    "interrupt": QT_TRANSLATE_NOOP("panels.palette_panel", "pauses for a human answer"),
    "subgraph": QT_TRANSLATE_NOOP("panels.palette_panel", "runs another graph as one node"),
}


class PalettePanel(QListWidget):
    activated_entry = Signal(str)
    """An entry was double-clicked or Enter was pressed: add it at the canvas centre."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("palette")
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.setIconSize(QSize(20, 20))
        self._header(translate("panels.palette_panel", "Nodes"))
        for kind in NODE_KINDS:
            self._entry(
                f"node:{kind}",
                kind.replace("_", " "),
                kind,
                translate("panels.palette_panel", KIND_HELP.get(kind, "")),
            )
        self._entry(
            "note", "note", "note", translate("panels.palette_panel", "a sticky note on the canvas")
        )
        self._header(translate("panels.palette_panel", "Middleware"))
        for name, hooks in PREBUILT_HOOKS.items():
            self._entry(
                f"middleware:{name}",
                name.replace("_", " "),
                "middleware",
                translate("panels.palette_panel", "drop on an agent; hooks: {join}").format(
                    join=", ".join(hooks)
                ),
            )
        self._entry(
            "middleware:custom",
            translate("panels.palette_panel", "custom middleware"),
            "middleware",
            translate("panels.palette_panel", "your own hooks"),
        )
        self.itemActivated.connect(lambda item: self._activate(item))
        item_menu(self, self._row_menu)

    def _row_menu(self, index) -> Entries:
        item = self.itemFromIndex(index)
        if item is None or not item.data(Qt.ItemDataRole.UserRole):
            return []  # a section header
        return [Entry("paletteAddAction", translate("panels.palette_panel", "Add to the canvas"), lambda: self._activate(item),
                      tip=translate("panels.palette_panel", "In the middle of the view (or drag it where it goes)"))]  # fmt: skip

    def _header(self, text: str) -> None:
        item = QListWidgetItem(text)
        font = QFont()
        font.setBold(True)
        item.setFont(font)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        self.addItem(item)

    def _entry(self, payload: str, text: str, icon_name: str, tip: str) -> None:
        item = QListWidgetItem(icon(icon_name), text)
        item.setData(Qt.ItemDataRole.UserRole, payload)
        item.setToolTip(tip)
        self.addItem(item)

    def _activate(self, item: QListWidgetItem) -> None:
        payload = item.data(Qt.ItemDataRole.UserRole)
        if payload:
            self.activated_entry.emit(payload)

    def item_for(self, payload: str) -> QListWidgetItem | None:
        for row in range(self.count()):
            if self.item(row).data(Qt.ItemDataRole.UserRole) == payload:
                return self.item(row)
        return None

    def mimeData(self, items: list[QListWidgetItem]) -> QMimeData:
        mime = QMimeData()
        payloads = [
            i.data(Qt.ItemDataRole.UserRole) for i in items if i.data(Qt.ItemDataRole.UserRole)
        ]
        if payloads:
            mime.setData(PALETTE_MIME, payloads[0].encode("utf-8"))
        return mime

    def mimeTypes(self) -> list[str]:
        return [PALETTE_MIME]
