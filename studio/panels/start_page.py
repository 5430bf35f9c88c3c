"""The start page (objectName `startPage`): new, open, the templates gallery and recent files."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from graphspec.templates import list_templates
from studio.paths import icon
from studio.plain import plain_tip


class StartPage(QWidget):
    new_requested = Signal()
    open_requested = Signal()
    path_chosen = Signal(Path, bool)
    """A template (True: bundled, so trusted) or a recent file (False) was picked."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("startPage")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(48, 36, 48, 36)
        title = QLabel("Superstep Studio")
        font = QFont()
        font.setPointSize(22)
        font.setBold(True)
        title.setFont(font)
        outer.addWidget(title)
        outer.addWidget(QLabel("Draw, run and understand LangGraph-style agent workflows — offline."))
        buttons = QHBoxLayout()
        for name, text, signal in (("newButton", "New graph", self.new_requested),
                                   ("openButton", "Open…", self.open_requested)):  # fmt: skip
            button = QPushButton(text)
            button.setObjectName(name)
            button.clicked.connect(signal.emit)
            buttons.addWidget(button)
        buttons.addStretch()
        outer.addLayout(buttons)
        columns = QHBoxLayout()
        self.gallery = self._list("templatesGallery")
        self.recent = self._list("recentFiles")
        columns.addLayout(self._column("Templates", self.gallery), 3)
        columns.addLayout(self._column("Recent files", self.recent), 2)
        outer.addLayout(columns, 1)
        for template in _templates():
            item = QListWidgetItem(icon("app"), f"{template.title}\n{template.description}")
            item.setData(Qt.ItemDataRole.UserRole, str(template.path))
            item.setToolTip(plain_tip(template.description))
            self.gallery.addItem(item)
        self.gallery.itemActivated.connect(lambda i: self._chosen(i, True))
        self.recent.itemActivated.connect(lambda i: self._chosen(i, False))

    def _list(self, name: str) -> QListWidget:
        widget = QListWidget()
        widget.setObjectName(name)
        widget.setWordWrap(True)
        widget.setIconSize(QSize(28, 28))
        widget.setSpacing(3)
        widget.setTextElideMode(Qt.TextElideMode.ElideRight)
        return widget

    def _column(self, title: str, widget: QWidget) -> QVBoxLayout:
        layout = QVBoxLayout()
        label = QLabel(title)
        font = QFont()
        font.setBold(True)
        font.setPointSize(12)
        label.setFont(font)
        layout.addWidget(label)
        layout.addWidget(widget, 1)
        return layout

    def set_recent(self, paths: list[Path]) -> None:
        self.recent.clear()
        for path in paths:
            item = QListWidgetItem(icon("function"), f"{path.name}\n{path.parent}")
            item.setData(Qt.ItemDataRole.UserRole, str(path))
            self.recent.addItem(item)
        if not paths:
            item = QListWidgetItem("No recent files yet")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.recent.addItem(item)

    def _chosen(self, item: QListWidgetItem, bundled: bool) -> None:
        path = item.data(Qt.ItemDataRole.UserRole)
        if path:
            self.path_chosen.emit(Path(path), bundled)


def _templates() -> list:
    try:
        return list_templates()
    except Exception:  # a broken template must not stop the app from starting
        return []
