"""Mouse gestures sent straight to the canvas viewport (QTest's moves carry no buttons)."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLineEdit

LEFT = Qt.MouseButton.LeftButton
NONE = Qt.MouseButton.NoButton


def _send(view, kind, scene_pos: QPointF, button, buttons, modifiers) -> None:
    local = QPointF(view.mapFromScene(scene_pos))
    glob = QPointF(view.viewport().mapToGlobal(local.toPoint()))
    event = QMouseEvent(kind, local, glob, button, buttons, modifiers)
    QApplication.sendEvent(view.viewport(), event)


def drag(
    view, start: QPointF, end: QPointF, modifiers=Qt.KeyboardModifier.NoModifier, steps: int = 4
) -> None:
    _send(view, QEvent.Type.MouseButtonPress, start, LEFT, LEFT, modifiers)
    for i in range(1, steps + 1):
        point = start + (end - start) * (i / steps)
        _send(view, QEvent.Type.MouseMove, point, NONE, LEFT, modifiers)
    _send(view, QEvent.Type.MouseButtonRelease, end, LEFT, NONE, modifiers)


def click(view, pos: QPointF, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    _send(view, QEvent.Type.MouseButtonPress, pos, LEFT, LEFT, modifiers)
    _send(view, QEvent.Type.MouseButtonRelease, pos, LEFT, NONE, modifiers)


def center(item) -> QPointF:
    return item.sceneBoundingRect().center()


def view_point(view, scene_pos: QPointF) -> QPoint:
    return view.mapFromScene(scene_pos)


def type_in_cell(qtbot, table, row: int, column: int, text: str) -> None:
    """Click a table cell, open its editor (what a double click does), type and press Return;
    returns once the table has the edit."""
    table.scrollToItem(table.item(row, column))  # the scroll bar dragged to the column
    rect = table.visualItemRect(table.item(row, column))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    table.editItem(table.item(row, column))
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    QTest.keyClicks(editor, text)
    QTest.keyClick(editor, Qt.Key.Key_Return)
    editing = QAbstractItemView.State.EditingState  # a form rebuilt after the edit drops the table
    qtbot.waitUntil(lambda: not shiboken6.isValid(table) or table.state() != editing)
