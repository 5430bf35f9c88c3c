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

from studio.i18n import QT_TRANSLATE_NOOP, translate

GESTURES = [
    (
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Drag from a card's round bottom port"),
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Connect to another node"),
    ),
    (
        QT_TRANSLATE_NOOP(
            "panels.help_dialogs", "Drag from the ◆ beside it (or Shift-drag the port)"
        ),
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Add a conditional route"),
    ),
    (
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Ctrl-drag from a port onto a node"),
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Join: the node waits for all its sources"),
    ),
    (
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Drag the arrow end of an edge"),
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Reconnect it (dashed routes: re-target)"),
    ),
    (
        "Right-click",
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Menu for the canvas, a node, an edge or a port"),
    ),
    (
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Middle-drag or Alt-drag"),
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Pan"),
    ),
    (
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Wheel"),
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Zoom"),
    ),
    (
        "Double-click a node",
        QT_TRANSLATE_NOOP("panels.help_dialogs", "Rename it (a subgraph: open it)"),
    ),
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
    dialog, layout = _dialog(
        parent, "shortcutsDialog", translate("panels.help_dialogs", "Keyboard shortcuts")
    )
    rows = [(a.text().replace("&", ""), a.shortcut().toString(QKeySequence.SequenceFormat.NativeText))
            for a in actions if not a.shortcut().isEmpty()]  # fmt: skip
    rows = [(name.split("\t")[0], keys) for name, keys in rows] + [
        (translate("panels.help_dialogs", what), translate("panels.help_dialogs", how))
        for what, how in GESTURES
    ]
    table = QTableWidget(len(rows), 2)
    table.setObjectName("shortcutsTable")
    table.setHorizontalHeaderLabels(
        [
            translate("panels.help_dialogs", "What"),
            translate("panels.help_dialogs", "Keys or gesture"),
        ]
    )
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
    dialog, layout = _dialog(
        parent, "aboutDialog", translate("panels.help_dialogs", "About Superstep Studio")
    )
    text = QLabel(
        translate(
            "panels.help_dialogs",
            "<b>Superstep Studio</b><br>Draw, run and understand LangGraph-style agent workflows, "
            "offline: one superstep at a time, with every checkpoint in view.<br><br>"
            "Graphs export as plain LangGraph code.",
        )
    )
    text.setWordWrap(True)
    layout.addWidget(text)
    _close_button(dialog, layout)
    dialog.resize(420, 180)
    return dialog
