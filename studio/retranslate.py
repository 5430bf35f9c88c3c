"""Redo the texts already on screen after the language changed (studio.i18n.switch).

Each text the studio shows came from `translate`, which remembers what it handed out; a text
found on a widget or an action is looked up there and translated again. Texts made with
values in them (a status line naming a file) are redrawn when their owner next updates them;
panels that draw their own text (the start page, the lecture panel) listen for
QEvent.LanguageChange themselves."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDockWidget,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QPlainTextEdit,
    QTableWidget,
    QTabWidget,
    QTextEdit,
    QTreeWidget,
    QWidget,
)

from studio.i18n import source_of, translate


def again(text: str) -> str | None:
    """`text` in the current language, when the studio translated it; else None."""
    found = source_of(text) if text else None
    return translate(*found) if found is not None else None


def _redo(getter, setter) -> None:
    new = again(getter())
    if new is not None:
        setter(new)


def _widget(w: QWidget) -> None:
    # Qt's own methods, called through the class: a panel may shadow `text` or `actions`
    # with an attribute of its own
    _redo(lambda: QWidget.toolTip(w), lambda t: QWidget.setToolTip(w, t))
    if w.isWindow() or isinstance(w, QDockWidget):
        _redo(lambda: QWidget.windowTitle(w), lambda t: QWidget.setWindowTitle(w, t))
    for kind in (QLabel, QAbstractButton):
        if isinstance(w, kind):
            _redo(lambda k=kind: k.text(w), lambda t, k=kind: k.setText(w, t))
    for kind in (QLineEdit, QPlainTextEdit, QTextEdit):
        if isinstance(w, kind):
            _redo(lambda k=kind: k.placeholderText(w),
                  lambda t, k=kind: k.setPlaceholderText(w, t))  # fmt: skip
    for kind in (QGroupBox, QMenu):
        if isinstance(w, kind):
            _redo(lambda k=kind: k.title(w), lambda t, k=kind: k.setTitle(w, t))
    if isinstance(w, QTabWidget):
        for i in range(QTabWidget.count(w)):
            _redo(
                lambda i=i: QTabWidget.tabText(w, i), lambda t, i=i: QTabWidget.setTabText(w, i, t)
            )
    if isinstance(w, QComboBox):
        for i in range(QComboBox.count(w)):
            _redo(
                lambda i=i: QComboBox.itemText(w, i), lambda t, i=i: QComboBox.setItemText(w, i, t)
            )
    if isinstance(w, QListWidget):
        for i in range(QListWidget.count(w)):
            item = QListWidget.item(w, i)
            _redo(item.text, item.setText)
    if isinstance(w, QTreeWidget):
        header = QTreeWidget.headerItem(w)
        for i in range(QTreeWidget.columnCount(w)):
            _redo(lambda i=i: header.text(i), lambda t, i=i: header.setText(i, t))
    if isinstance(w, QTableWidget):
        for i in range(QTableWidget.columnCount(w)):
            item = QTableWidget.horizontalHeaderItem(w, i)
            if item is not None:
                _redo(item.text, item.setText)


def _action(a: QAction) -> None:
    _redo(a.text, a.setText)
    _redo(a.toolTip, a.setToolTip)
    _redo(a.statusTip, a.setStatusTip)


def retranslate_all() -> None:
    """Every widget and action of the application, in the language now installed."""
    for w in QApplication.allWidgets():
        _widget(w)
        for a in QWidget.actions(w):
            _action(a)
        if isinstance(w, QMenu):
            _action(QMenu.menuAction(w))
