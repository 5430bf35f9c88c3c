"""Edges as curves: plain, join (several sources meet at a dot above the target), conditional
(dashed, labelled with the route) and goto (dotted: a node's Command destinations). An edge from a
node back to itself is a loop around the card's right side; edges between the same two ends
each get a lane, so their curves and labels do not lie on top of each other."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QGraphicsItem, QStyle, QStyleOptionGraphicsItem

from studio.canvas.looks import EdgeLook
from studio.canvas.text_floor import floor_of, floored, font_px

COLORS = {"plain": "#5B6475", "join": "#5B6475", "conditional": "#A0620A", "goto": "#7A5BA8"}
DASHES = {"conditional": Qt.PenStyle.DashLine, "goto": Qt.PenStyle.DotLine}
LABEL_FONT = QFont()
LABEL_FONT.setPointSizeF(7.5)
JOIN_GAP = 26.0
LANE = 44.0
"""How far apart (sideways) the curves of edges between the same two ends bow."""
LOOP_REACH = 36.0
"""How far beside the cards it goes around a loop or detour runs (each further one further out)."""
LABEL_AT = (0.55, 0.4, 0.7, 0.3, 0.8, 0.2, 0.9)
"""Where along its curve a label may sit, best first (see place_label)."""


def curve(start: QPointF, end: QPointF, shift: float = 0.0) -> QPainterPath:
    """A vertical S-curve from an output port down (or around) to an input port, its middle
    bowed `shift` to the side."""
    dy = end.y() - start.y()
    bend = max(40.0, abs(dy) / 2) if dy > 0 else 90.0 + abs(dy) / 6
    path = QPainterPath(start)
    path.cubicTo(start + QPointF(shift, bend), end + QPointF(shift, -bend), end)
    return path


def loop(start: QPointF, end: QPointF, x: float) -> QPainterPath:
    """From an output port (a card's bottom) out and along `x`, beside the cards, and into an
    input port (a card's top): a card's edge back to itself, or one around the cards between
    its ends."""
    mid = (start.y() + end.y()) / 2
    path = QPainterPath(start)
    path.cubicTo(start + QPointF(0, 40), QPointF(x, start.y() + 40), QPointF(x, mid))
    path.cubicTo(QPointF(x, end.y() - 40), end - QPointF(0, 40), end)
    return path


class EdgeItem(QGraphicsItem):
    """One edge: its shape for clicks, selection and reconnect drags. In a GraphScene it has no
    contents and the scene's EdgeLayer draws it with the others (paint() draws it alone)."""

    def __init__(self, look: EdgeLook) -> None:
        super().__init__()
        self.look = look
        self.mark: str | None = None
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(0)
        self._path = QPainterPath()
        self._end = QPointF()
        self._join = QPointF()
        self._label_at = QPointF()
        self._label_path = QPainterPath()
        """The curve the label sits on (a join's: its first source's)."""
        self._rect = QRectF()
        self._arrow = QPolygonF()
        self._pens_key: tuple | None = None
        self._pens: tuple[QColor, QPen] | None = None
        self.beside: float | None = None
        """The x it runs along around cards (set_ends's), None when it goes straight."""

    @property
    def element_id(self) -> str:
        return self.look.element_id

    def line_from(self, start: QPointF) -> QPainterPath:
        """The line from one of its sources (`start`: that source's port) as drawn, around the
        cards it goes around (a join's: that source's curve to the target): what the run's and
        the timeline's overlays follow."""
        return QPainterPath(self._path) if len(self.look.sources) == 1 else curve(start, self._end)

    def set_ends(self, sources: list[QPointF], target: QPointF, lane: tuple[int, int] = (0, 1),
                 beside: float | None = None) -> None:  # fmt: skip
        """Recompute the curves for new port positions. `lane` is (this edge's place, how many)
        among the edges between the same ends; `beside` is the x the edge runs along when it
        goes around cards (its own card's, back to itself; the cards a straight curve would
        cross) instead of straight to its target."""
        place, count = lane
        self.beside = beside
        self.prepareGeometryChange()
        path = QPainterPath()
        if self.look.style == "join":
            self._join = target - QPointF(0, JOIN_GAP)
            for s in sources:
                path.addPath(curve(s, self._join))
            path.moveTo(self._join)
            path.lineTo(target - QPointF(0, 6))
            self._label_path = curve(sources[0], target)
        elif beside is not None:
            path = self._label_path = loop(sources[0], target, beside)
        else:
            path = self._label_path = curve(sources[0], target, (place - (count - 1) / 2) * LANE)
        self._label_at = self._label_path.pointAtPercent(LABEL_AT[0])
        self._path = path
        self._end = target
        self._rect = path.boundingRect().adjusted(-60, -14, 60, 14)
        self._arrow = QPolygonF([target, target + QPointF(-5, -10), target + QPointF(5, -10)])

    def set_mark(self, severity: str | None) -> None:
        if severity != self.mark:
            self.mark = severity
            self.update()

    def near_target(self, scene_pos: QPointF) -> bool:
        return (self.mapToScene(self._end) - scene_pos).manhattanLength() < 14

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        stroker = QPainterPathStroker()
        stroker.setWidth(10)
        return stroker.createStroke(self._path)

    def _pen(self, selected: bool) -> tuple[QColor, QPen]:
        """The colour and pen for a state, made once (paint runs for every edge in every frame)."""
        key = (selected, self.mark)
        if self._pens_key != key:
            color = QColor(
                {"error": "#D32F2F", "warning": "#EF8F00"}.get(
                    self.mark or "", COLORS[self.look.style]
                )
            )
            if selected:
                color = QColor("#2D7FF9")
            # A 1-pixel cosmetic pen takes the raster engine's fast stroker: several times cheaper
            # than a wide pen on long curves, which is what a pan over a big graph repaints.
            pen = QPen(
                color,
                2.5 if selected or self.mark else 1.0,
                DASHES.get(self.look.style, Qt.PenStyle.SolidLine),
            )
            pen.setCosmetic(True)
            self._pens_key, self._pens = key, (color, pen)
        return self._pens

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        color, pen = self._pen(bool(option.state & QStyle.StateFlag.State_Selected))
        detailed = painter.worldTransform().m11() >= 0.4  # the level of detail (no rotation here)
        if detailed:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._path)
        if not detailed:
            return
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawPolygon(self._arrow)
        if self.look.style == "join":
            painter.drawEllipse(self._join, 5, 5)
        if self.look.label:
            self._paint_label(painter, color)

    def place_label(self, taken: list[QRectF]) -> QRectF:
        """Put the label at the first place along the curve (LABEL_AT) clear of the `taken`
        labels, else at the first; returns where it is."""
        for percent in LABEL_AT:
            self._label_at = self._label_path.pointAtPercent(percent)
            rect = self.label_rect()
            if not any(rect.intersects(other) for other in taken):
                break
        else:
            self._label_at = self._label_path.pointAtPercent(LABEL_AT[0])
            rect = self.label_rect()
        if not self._rect.contains(rect):
            self.prepareGeometryChange()
            self._rect = self._rect.united(rect)
        return rect

    def label_rect(self) -> QRectF:
        w = QFontMetricsF(LABEL_FONT).horizontalAdvance(self.look.label) + 10
        return QRectF(self._label_at.x() - w / 2, self._label_at.y() - 8, w, 16)

    def _paint_label(self, painter: QPainter, color: QColor) -> None:
        rect = self.label_rect()
        face = floored(LABEL_FONT, floor_of(self), painter.worldTransform().m11())
        if face is not LABEL_FONT:  # under a text floor: a pill around the larger text
            metrics = QFontMetricsF(face)
            w, h = metrics.horizontalAdvance(self.look.label) + 10, metrics.height() + 2
            rect = QRectF(self._label_at.x() - w / 2, self._label_at.y() - h / 2, w, h)
        painter.setPen(QPen(color, 1))
        painter.setBrush(QColor("#FFFBF2") if self.look.style == "conditional" else QColor("white"))
        painter.drawRoundedRect(rect, 7, 7)
        painter.setFont(face)
        painter.setPen(color.darker(130))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.look.label)
        self.drawn = [(font_px(face), self.look.label)]
