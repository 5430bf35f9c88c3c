"""Right-click menus on the rows of a list, tree or table: the row under the mouse is chosen
(as a click would choose it), then a menu offers what the panel can do with it. Each panel
says what its rows offer; this module only builds and opens the menu (objectName
`<view's objectName>Menu`, its actions named by the panel), kept as `view.context_menu`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPoint, Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QAbstractItemView, QMenu, QWidget


@dataclass(frozen=True)
class Entry:
    name: str
    """The action's objectName (tests and shortcuts find it by that)."""
    text: str
    slot: Callable[[], object]
    enabled: bool = True
    tip: str = ""


SEPARATOR = None
Entries = list[Entry | None]


def item_menu(view: QAbstractItemView, entries: Callable[[QModelIndex], Entries]) -> None:
    """Give `view` a context menu: `entries(index)` lists what the row at `index` offers
    (`SEPARATOR` between groups); no entries, no menu."""
    view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    view.customContextMenuRequested.connect(lambda pos: open_menu(view, entries, pos))


def open_menu(view: QAbstractItemView, entries: Callable[[QModelIndex], Entries],
              pos: QPoint) -> QMenu | None:  # fmt: skip
    """pos: in the view's viewport, as customContextMenuRequested gives it."""
    index = view.indexAt(pos)
    if not index.isValid():
        return None
    selection = view.selectionModel()
    if selection is not None and not selection.isRowSelected(index.row(), index.parent()):
        view.setCurrentIndex(index)  # a right-click on another row chooses that row
    elif selection is not None:  # on a chosen row: the others stay chosen (Ctrl+click'd pairs)
        selection.setCurrentIndex(index, QItemSelectionModel.SelectionFlag.NoUpdate)
    listed = entries(index)
    if not any(listed):
        return None
    menu = entries_menu(view, listed)
    menu.popup(view.viewport().mapToGlobal(pos))
    return menu


def entries_menu(view: QWidget, listed: Entries) -> QMenu:
    """The menu of `listed` (objectName `<view's objectName>Menu`), kept as `view.context_menu`;
    for views that are not item views too (the timeline's bars)."""
    menu = QMenu(view)
    menu.setObjectName(f"{view.objectName()}Menu")
    for entry in listed:
        if entry is None:
            menu.addSeparator()
            continue
        action = QAction(entry.text, menu)
        action.setObjectName(entry.name)
        action.setEnabled(entry.enabled)
        action.setToolTip(entry.tip)
        action.triggered.connect(lambda _=False, slot=entry.slot: slot())
        menu.addAction(action)
    menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    view.context_menu = menu
    return menu


def copy_entry(name: str, text: str, value: str) -> Entry:
    """`Copy …`: `value` to the clipboard."""
    return Entry(name, text, lambda: QGuiApplication.clipboard().setText(value), bool(value))
