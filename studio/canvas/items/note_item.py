"""Sticky notes on the canvas (`view.notes`): text only, never part of the graph."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyle, QStyleOptionGraphicsItem

from studio.canvas.text_floor import floor_of, floored, font_px
from studio.i18n import translate

NOTE_FONT = QFont()
NOTE_FONT.setPointSizeF(8.5)


class NoteItem(QGraphicsItem):
    def __init__(self, note_id: str, text: str) -> None:
        super().__init__()
        self.node_id = note_id
        self.text = text
        flags = QGraphicsItem.GraphicsItemFlag
        self.setFlags(flags.ItemIsMovable | flags.ItemIsSelectable | flags.ItemSendsGeometryChanges)
        self.setZValue(-1)

    def set_text(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.update()

    def size(self) -> tuple[float, float]:
        return 180.0, 90.0

    def boundingRect(self) -> QRectF:
        return QRectF(-2, -2, 184, 94)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.setPen(QPen(QColor("#2D7FF9" if selected else "#E0C65A"), 2 if selected else 1))
        painter.setBrush(QColor("#FFF4B8"))
        painter.drawRect(QRectF(0, 0, 180, 90))
        face = floored(NOTE_FONT, floor_of(self), painter.worldTransform().m11())
        painter.setFont(face)
        painter.setPen(QColor("#4A4230"))
        painter.save()
        painter.setClipRect(QRectF(0, 0, 180, 90))  # larger text is cut at the note's edge
        text = self.text or translate("canvas.items.note_item", "(empty note)")
        painter.drawText(QRectF(8, 6, 164, 78), Qt.TextFlag.TextWordWrap, text)
        painter.restore()
        self.drawn = [(font_px(face), text)]

    def itemChange(self, change, value):
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged and self.scene():
            self.scene().item_dragged(self)
        return super().itemChange(change, value)
