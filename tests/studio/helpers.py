"""Mouse gestures sent straight to the canvas viewport (QTest's moves carry no buttons)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

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
