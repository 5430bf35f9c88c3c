"""Help → Keyboard shortcuts and Help → About: small non-modal dialogs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

GESTURES = [
    ("Drag from a card's round bottom port", "Connect to another node"),
    ("Drag from the ◆ beside it (or Shift-drag the port)", "Add a conditional route"),
    ("Ctrl-drag from a port onto a node", "Join: the node waits for all its sources"),
    ("Drag the arrow end of an edge", "Reconnect it (dashed routes: re-target)"),
    ("Right-click", "Menu for the canvas, a node, an edge or a port"),
    ("Middle-drag or Alt-drag", "Pan"),
    ("Wheel", "Zoom"),
    ("Double-click a node", "Rename it (a subgraph: open it)"),
]


def open_dialog(dialog: QDialog) -> QDialog:
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()  # not exec(): the app keeps running
    return dialog


def _dialog(parent: QWidget, name: str, title: str) -> tuple[QDialog, QVBoxLayout]:
    dialog = QDialog(parent)
    dialog.setObjectName(name)
    dialog.setWindowTitle(title)
    layout = QVBoxLayout(dialog)
    return dialog, layout


def _close_button(dialog: QDialog, layout: QVBoxLayout) -> None:
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    layout.addWidget(buttons)


def shortcuts_dialog(parent: QWidget, actions: list[QAction]) -> QDialog:
    """Every action with a shortcut, then the mouse gestures."""
    dialog, layout = _dialog(parent, "shortcutsDialog", "Keyboard shortcuts")
    rows = [(a.text().replace("&", ""), a.shortcut().toString(QKeySequence.SequenceFormat.NativeText))
            for a in actions if not a.shortcut().isEmpty()]  # fmt: skip
    rows = [(name.split("\t")[0], keys) for name, keys in rows] + GESTURES
    table = QTableWidget(len(rows), 2)
    table.setObjectName("shortcutsTable")
    table.setHorizontalHeaderLabels(["What", "Keys or gesture"])
    table.verticalHeader().hide()
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    for r, (what, keys) in enumerate(rows):
        table.setItem(r, 0, QTableWidgetItem(what))
        table.setItem(r, 1, QTableWidgetItem(keys))
    table.resizeColumnsToContents()
    table.horizontalHeader().setStretchLastSection(True)
    layout.addWidget(table)
    _close_button(dialog, layout)
    dialog.resize(560, 520)
    return dialog


def about_dialog(parent: QWidget) -> QDialog:
    dialog, layout = _dialog(parent, "aboutDialog", "About Superstep Studio")
    text = QLabel(
        "<b>Superstep Studio</b><br>Draw, run and understand LangGraph-style agent workflows, "
        "offline: one superstep at a time, with every checkpoint in view.<br><br>"
        "Graphs export as plain LangGraph code."
    )
    text.setWordWrap(True)
    layout.addWidget(text)
    _close_button(dialog, layout)
    dialog.resize(420, 180)
    return dialog
