"""Node cards and the START/END terminals, with an input port on top and an output port below."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QGraphicsItem, QStyle, QStyleOptionGraphicsItem

from studio.canvas.looks import NodeLook
from studio.canvas.text_floor import floor_of, floored, font_px
from studio.paths import icon_pixmap
from studio.plain import plain_tip

KIND_COLORS = {
    "function": "#4C78A8",
    "set_state": "#2E9C95",
    "model": "#8E5FC8",
    "tools": "#D98A1F",
    "agent": "#C9456F",
    "interrupt": "#D64541",
    "subgraph": "#4D9A45",
    "start": "#3B4252",
    "end": "#3B4252",
}
MARK_COLORS = {"error": QColor("#D32F2F"), "warning": QColor("#EF8F00")}
ROUTE_COLOR = QColor("#A0620A")
"""The router handle: the colour conditional edges are drawn in."""
BREAK_COLOR = QColor("#C62828")
ROUTE_DX = 30.0
"""The router handle sits this far right of the output port, on the bottom edge."""
SELECTED = QColor("#2D7FF9")
WHITE = QBrush(QColor("white"))
TEXT, LINE_TEXT = QColor("#1F2430"), QColor("#3B4252")
WIDTH, AGENT_WIDTH = 200.0, 250.0
"""A card's width; a title longer than the card's header grows it up to AGENT_WIDTH (the layout's
column: studio/canvas/layout.py), and past that it is cut."""
HEADER, LINE, MW_ROW, PORT_R = 30.0, 16.0, 30.0, 5.0

TITLE_FONT = QFont()
TITLE_FONT.setPointSizeF(9.5)
TITLE_FONT.setBold(True)
SMALL_FONT = QFont()
SMALL_FONT.setPointSizeF(7.5)
MONO_FONT = QFont("DejaVu Sans Mono")
MONO_FONT.setStyleHint(QFont.StyleHint.Monospace)
MONO_FONT.setPointSizeF(7.5)


class Paints:
    """The colours and pens a kind paints with, made once (a card repaints at every zoom step
    it is not scaled from a cache, so its paint() is kept to painter calls)."""

    _made: dict[str, Paints] = {}

    def __init__(self, color: QColor) -> None:
        self.color = color
        self.tint = QColor(color)
        self.tint.setAlpha(38)
        self.kind_text = color.darker(120)
        self.port_pen = QPen(color, 1.6)
        self.borders: dict[tuple[int, float], QPen] = {}

    @classmethod
    def of(cls, color: str) -> Paints:
        made = cls._made.get(color)
        if made is None:
            made = cls._made[color] = cls(QColor(color))
        return made

    def border(self, color: QColor, width: float) -> QPen:
        key = (color.rgba(), width)
        pen = self.borders.get(key)
        if pen is None:
            pen = self.borders[key] = QPen(color, width)
        return pen


TITLE_MARGIN = 40.0
"""The header's width that is not the title's: the kind icon left of it, a margin right."""


def title_room(width: float) -> float:
    """The header's room for the title on a card `width` wide, the badge left out."""
    return width - TITLE_MARGIN


def badge_width(kind: str, title: str, width: float, title_font: QFont, small_font: QFont) -> float:
    """The kind badge's width right of the title, or 0 when the title needs its room (the icon
    and the colour still tell the kind): a node's name is what a card is read by."""
    badge = QFontMetricsF(small_font).horizontalAdvance(kind) + 4
    needed = QFontMetricsF(title_font).horizontalAdvance(title)
    return 0.0 if needed > title_room(width) - badge else badge


def card_size(look: NodeLook) -> tuple[float, float]:
    width = AGENT_WIDTH if look.kind == "agent" else WIDTH
    fits = math.ceil(QFontMetricsF(TITLE_FONT).horizontalAdvance(look.title) + TITLE_MARGIN) + 1
    width = max(width, min(AGENT_WIDTH, fits))
    height = HEADER + 8 + LINE * len(look.lines)
    if look.middleware:
        height += 6 + MW_ROW * len(look.middleware)
    return width, max(height, 48.0)


class PortedItem(QGraphicsItem):
    """Something edges attach to: input port at the top centre, output port at the bottom."""

    node_id = ""
    has_input = has_output = True

    def size(self) -> tuple[float, float]:
        raise NotImplementedError

    def port_pos(self, which: str) -> QPointF:
        w, h = self.size()
        if which == "route":
            return self.mapToScene(QPointF(w / 2 + ROUTE_DX, h))
        return self.mapToScene(QPointF(w / 2, 0 if which == "in" else h))

    def port_at(self, scene_pos: QPointF) -> str | None:
        """ "out", "in" or "route" (the router handle: drag from it to add a conditional route)."""
        near = []
        for which, enabled in (
            ("out", self.has_output),
            ("route", self.has_output),
            ("in", self.has_input),
        ):
            distance = (self.port_pos(which) - scene_pos).manhattanLength()
            if enabled and distance <= PORT_R * 2.6:
                near.append((distance, which))
        return min(near)[1] if near else None

    def paint_route_handle(self, painter: QPainter) -> None:
        """A small diamond beside the output port: where a conditional edge is dragged from."""
        w, h = self.size()
        x, r = w / 2 + ROUTE_DX, PORT_R + 1
        painter.setPen(QPen(ROUTE_COLOR, 1.6))
        painter.setBrush(QColor("#FFF4E0"))
        painter.drawPolygon(
            QPolygonF([QPointF(x, h - r), QPointF(x + r, h), QPointF(x, h + r), QPointF(x - r, h)])
        )

    def paint_ports(self, painter: QPainter, color: QColor, pen: QPen | None = None) -> None:
        w, h = self.size()
        painter.setPen(pen if pen is not None else QPen(color, 1.6))
        painter.setBrush(WHITE)
        for enabled, y in ((self.has_input, 0.0), (self.has_output, h)):
            if enabled:
                painter.drawEllipse(QPointF(w / 2, y), PORT_R, PORT_R)

    def itemChange(self, change, value):
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged and self.scene():
            self.scene().item_dragged(self)
        return super().itemChange(change, value)


class NodeItem(PortedItem):
    """A node card drawn from a NodeLook; agents list their middleware and hooks in order."""

    def __init__(self, node_id: str, look: NodeLook) -> None:
        super().__init__()
        self.node_id = node_id
        self.look = look
        self.mark: str | None = None
        self.mark_text = ""
        flags = QGraphicsItem.GraphicsItemFlag
        self.setFlags(flags.ItemIsMovable | flags.ItemIsSelectable | flags.ItemSendsGeometryChanges)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setZValue(1)
        self._set_size(card_size(look))

    def _set_size(self, size: tuple[float, float]) -> None:
        self._size = size
        self._bounds = QRectF(-8, -8, size[0] + 16, size[1] + 16)
        """Made once: Qt asks for it several times per card per frame."""
        self._title: tuple[str, float, str] | None = None
        """(title, room, elided title)."""
        self._lines: tuple[tuple[str, ...], float, list[str]] | None = None
        """(the look's code lines, the card's width, those lines cut to it with "…")."""
        self._badge = badge_width(self.look.kind.replace("_", " "), self.look.title, size[0],
                                  TITLE_FONT, SMALL_FONT)  # fmt: skip
        """The kind badge's width without a text floor (made once: paint runs every frame)."""
        self.drawn: list[tuple[float, str]] = []
        """(scene pixels, text) of each text the last paint drew (see canvas/text_floor)."""
        w = size[0]
        header = QPainterPath()
        header.addRoundedRect(QRectF(0.7, 0.7, w - 1.4, HEADER), 7.5, 7.5)
        self._header = header

    def set_look(self, look: NodeLook) -> None:
        if look != self.look:
            self.prepareGeometryChange()
            self.look = look
            self._set_size(card_size(look))
            self.update()

    def set_mark(self, severity: str | None, text: str = "") -> None:
        if (severity, text) != (self.mark, self.mark_text):
            self.mark, self.mark_text = severity, text
            self.setToolTip(plain_tip(text))
            self.update()

    def size(self) -> tuple[float, float]:
        return self._size

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        w, h = self._size
        path.addRoundedRect(QRectF(0, -PORT_R, w, h + 2 * PORT_R), 8, 8)
        return path

    def title_rect(self) -> QRectF:
        return QRectF(30, 0, self._size[0] - 40, HEADER)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        w, h = self._size
        paints = Paints.of(KIND_COLORS.get(self.look.kind, "#555"))
        color = paints.color
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        border = MARK_COLORS.get(self.mark or "", SELECTED if selected else color)
        if lod < 0.4:  # zoomed far out: a coloured block is all anyone can see
            painter.fillRect(QRectF(0, 0, w, h), border if (self.mark or selected) else color)
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(0, 0, w, h)
        painter.setPen(paints.border(border, 3.0 if (selected or self.mark) else 1.4))
        painter.setBrush(WHITE)
        painter.drawRoundedRect(rect, 8, 8)
        painter.fillPath(self._header, paints.tint)
        painter.drawPixmap(
            QRectF(8, 6, 18, 18), icon_pixmap(self.look.kind, 36), QRectF(0, 0, 36, 36)
        )
        floor = floor_of(self)
        title_font, small_font = floored(TITLE_FONT, floor, lod), floored(SMALL_FONT, floor, lod)
        mono_font = floored(MONO_FONT, floor, lod)
        self.drawn = []
        kind = self.look.kind.replace("_", " ")
        kind_w = self._badge
        if floor:  # the badge as wide as its larger text, or left out when the title needs it
            kind_w = badge_width(kind, self.look.title, w, title_font, small_font)
        room = title_room(w) - kind_w
        if self._title is None or self._title[:2] != (self.look.title, room) or floor:
            elided = QFontMetricsF(title_font).elidedText(
                self.look.title, Qt.TextElideMode.ElideRight, room
            )
            self._title = (self.look.title, room, elided)
        self._text(painter, title_font, TEXT, QRectF(30, 0, room, HEADER),
                   Qt.AlignmentFlag.AlignVCenter, self._title[2])  # fmt: skip
        if kind_w:
            right = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight
            badge = QRectF(w - kind_w - 8, 0, kind_w, HEADER)
            self._text(painter, small_font, paints.kind_text, badge, right, kind)
        y, pitch, lines = HEADER + 4, LINE, list(self.look.lines)
        if floor:  # as many lines as fit in larger type, each cut to the card's width
            pitch = max(LINE, font_px(mono_font))
            room_h = LINE * len(lines) if self.look.middleware else h - y
            fit = int((room_h + pitch / 4) // pitch)  # a line may reach into the bottom margin
            if fit < len(lines):
                lines = lines[:fit]
                if lines:
                    lines[-1] = "…"
            metrics = QFontMetricsF(mono_font)
            lines = [metrics.elidedText(t, Qt.TextElideMode.ElideRight, w - 20) for t in lines]
        else:  # each line cut to the card's width with "…" too, not clipped mid-name
            if self._lines is None or self._lines[:2] != (self.look.lines, w):
                metrics = QFontMetricsF(mono_font)
                self._lines = (self.look.lines, w, [metrics.elidedText(
                    t, Qt.TextElideMode.ElideRight, w - 20) for t in lines])  # fmt: skip
            lines = self._lines[2]
        for line in lines:
            self._text(painter, mono_font, LINE_TEXT, QRectF(10, y, w - 20, pitch),
                       Qt.AlignmentFlag.AlignVCenter, line)  # fmt: skip
            y += pitch
        y = HEADER + 4 + LINE * len(self.look.lines)
        if self.look.middleware:
            self._paint_middleware(painter, y + 4, w, color, floored(SMALL_FONT, floor, lod))
        self.paint_ports(painter, color, paints.port_pen)
        self.paint_route_handle(painter)
        for which in self.look.breaks:
            self._paint_break(painter, which, w, h, bool(floor))
        if self.mark:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(MARK_COLORS[self.mark])
            painter.drawEllipse(QPointF(w - 2, 2), 8, 8)
            self._text(painter, title_font, QColor("white"), QRectF(w - 10, -6, 16, 16),
                       Qt.AlignmentFlag.AlignCenter, "!")  # fmt: skip

    def _text(self, painter: QPainter, face: QFont, color: QColor, rect: QRectF,
              flags: Qt.AlignmentFlag, text: str) -> None:  # fmt: skip
        painter.setFont(face)
        painter.setPen(color)
        painter.drawText(rect, flags, text)
        self.drawn.append((font_px(face), text))

    def _paint_break(self, painter: QPainter, which: str, w: float, h: float,
                     sign_only: bool = False) -> None:  # fmt: skip
        """A red pill on the top (before) or bottom (after) border: the run pauses there."""
        chip = QRectF(10, -7 if which == "before" else h - 7, 54 if which == "before" else 46, 14)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(BREAK_COLOR)
        painter.drawRoundedRect(chip, 7, 7)
        painter.setBrush(QColor("white"))  # a pause sign drawn, not a glyph some fonts lack
        for dx in (0.0, 3.5):
            painter.drawRect(QRectF(chip.left() + 7 + dx, chip.top() + 3.5, 2, 7))
        if not sign_only:  # under a text floor the word would not fit the chip: the sign says it
            self._text(painter, SMALL_FONT, QColor("white"), chip.adjusted(14, 0, 0, 0),
                       Qt.AlignmentFlag.AlignCenter, which)  # fmt: skip

    def _paint_middleware(self, painter: QPainter, y: float, w: float, color: QColor,
                          face: QFont = SMALL_FONT) -> None:  # fmt: skip
        """One row per middleware in list order: its position and name, then its hooks as chips
        (under a text floor, the names alone, cut to the card's width)."""
        painter.setPen(QPen(QColor("#D8DCE5"), 1))
        painter.drawLine(QPointF(8, y - 3), QPointF(w - 8, y - 3))
        metrics = QFontMetricsF(face)
        for i, mw in enumerate(self.look.middleware, 1):
            name = f"{i}. {mw.name}" + ("  (custom)" if mw.custom else "")
            if face is not SMALL_FONT:
                name = metrics.elidedText(name, Qt.TextElideMode.ElideRight, w - 20)
                self._text(painter, face, QColor("#1F2430"), QRectF(10, y, w - 20, MW_ROW),
                           Qt.AlignmentFlag.AlignVCenter, name)  # fmt: skip
                y += MW_ROW
                continue
            self._text(painter, face, QColor("#1F2430"), QRectF(10, y, w - 20, 13),
                       Qt.AlignmentFlag.AlignVCenter, name)  # fmt: skip
            x = 18.0
            for hook in mw.hooks:
                text = hook.replace("_call", "").replace("_", " ")
                tw = metrics.horizontalAdvance(text) + 8
                chip = QRectF(x, y + 14, tw, 12)
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QColor("#EEE6F5" if hook.startswith("wrap") else "#E3EEF9"))
                painter.drawRoundedRect(chip, 4, 4)
                ink = QColor("#5B3A7A" if hook.startswith("wrap") else "#234A73")
                self._text(painter, face, ink, chip, Qt.AlignmentFlag.AlignCenter, text)
                x += tw + 4
            y += MW_ROW


class TerminalItem(PortedItem):
    """START (output port only) or END (input port only); placed by the scene, not movable."""

    def __init__(self, node_id: str) -> None:
        super().__init__()
        self.node_id = node_id
        self.has_input = node_id != "__start__"
        self.has_output = node_id == "__start__"
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, False)
        self.setZValue(1)
        self.drawn: list[tuple[float, str]] = []

    def size(self) -> tuple[float, float]:
        return 90.0, 32.0

    def boundingRect(self) -> QRectF:
        return QRectF(-6, -8, 102, 48)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        color = QColor("#3B4252")
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawRoundedRect(QRectF(0, 0, 90, 32), 16, 16)
        painter.setPen(QColor("white"))
        face = floored(
            TITLE_FONT, floor_of(self), option.levelOfDetailFromTransform(painter.worldTransform())
        )
        painter.setFont(face)
        text = "START" if self.node_id == "__start__" else "END"
        painter.drawText(QRectF(0, 0, 90, 32), Qt.AlignmentFlag.AlignCenter, text)
        self.drawn = [(font_px(face), text)]
        self.paint_ports(painter, color)
        if self.has_output:
            self.paint_route_handle(painter)
