"""A small overview of the whole scene in a corner of the canvas; click or drag to move there.

It paints a cached picture of the scene (redrawn a moment after the scene changes, from the
view's overview snapshot: a few batched painter calls, not a paint() per item) and the view's
visible area on top, so panning a big graph costs one pixmap blit, not a second render.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QGraphicsView, QWidget

from studio.canvas.overview import paint_snapshot


class Minimap(QWidget):
    def __init__(self, view: QGraphicsView) -> None:
        super().__init__(view)
        self.setObjectName("minimap")
        self.view = view
        self.resize(200, 140)
        self._pixmap = QPixmap()
        self._source = QRectF()
        self._timer = QTimer(self, singleShot=True, interval=250, timeout=self.refresh)
        # a method of this widget, not a lambda: Qt drops the connection when the widget goes,
        # while the scene (owned elsewhere) may still emit changes
        view.scene().changed.connect(self._scene_changed)
        view.horizontalScrollBar().valueChanged.connect(self.update)
        view.verticalScrollBar().valueChanged.connect(self.update)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def _scene_changed(self, _regions: object = None) -> None:
        self._timer.start()

    def refresh(self) -> None:
        snap = self.view.overview.snapshot()
        self._source = snap.bounds.adjusted(-40, -40, 40, 40)
        self._pixmap = QPixmap(self.size() * 2)
        self._pixmap.setDevicePixelRatio(2)
        self._pixmap.fill(QColor("#FFFFFF"))
        s, offset = self._scale()
        if s > 0:
            painter = QPainter(self._pixmap)
            painter.translate(offset)
            painter.scale(s, s)
            painter.translate(-self._source.topLeft())
            paint_snapshot(painter, snap)
            painter.end()
        self.update()

    def _scale(self) -> tuple[float, QPointF]:
        if self._source.isEmpty():
            return 1.0, QPointF()
        s = min(self.width() / self._source.width(), self.height() / self._source.height())
        offset = QPointF(
            (self.width() - self._source.width() * s) / 2,
            (self.height() - self._source.height() * s) / 2,
        )
        return s, offset

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#FFFFFF"))
        if not self._pixmap.isNull():
            painter.drawPixmap(0, 0, self._pixmap)
        s, offset = self._scale()
        visible = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        rect = QRectF((visible.topLeft() - self._source.topLeft()) * s + offset, visible.size() * s)
        painter.setPen(QPen(QColor("#2D7FF9"), 1.5))
        painter.setBrush(QColor(45, 127, 249, 30))
        painter.drawRect(rect.intersected(QRectF(self.rect()).adjusted(0, 0, -1, -1)))
        painter.setPen(QPen(QColor("#C5CAD3"), 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(self.rect().adjusted(0, 0, -1, -1))

    def mousePressEvent(self, event) -> None:
        self._center_at(event.position())

    def mouseMoveEvent(self, event) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._center_at(event.position())

    def _center_at(self, pos: QPointF) -> None:
        s, offset = self._scale()
        if s > 0:
            self.view.centerOn((pos - offset) / s + self._source.topLeft())
