"""The zoomed-out canvas: one cached picture instead of thousands of item paints.

Below OVERVIEW_ZOOM a card is a few pixels wide, yet every item's paint() is a Python call: a
frame of a 1,000-node graph took 50-100 ms. There the scene turns item painting off (the items get
ItemHasNoContents: they stay in the index, so clicks, hover, rubber band and drags work as
before) and the view draws the graph from a pixmap rendered from a plain snapshot - node blocks
coloured by kind, edges batched by style into one path each, validation marks as outlines - with
the selection as a second pixmap on top. A frame is then one or two blits.

The snapshot is rebuilt when the scene's `picture_version` moves (every edit, drag, mark), the
selection layer when the selection changes, and a zoom draws the last pixmap scaled until the
zoom settles, then renders it again at the new scale. Items the scene does not project (the run
overlay's glows and labels, a port drag's line) are painted by Qt as usual, above the picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QPointF, QRectF, QSizeF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPixmap

from studio.canvas.items.edge_item import COLORS, DASHES, EdgeItem
from studio.canvas.items.node_item import KIND_COLORS, MARK_COLORS, SELECTED, NodeItem, TerminalItem
from studio.canvas.items.note_item import NoteItem

OVERVIEW_ZOOM = 0.4
"""Below this zoom the view draws the overview picture and items do not paint."""
MAX_PIXELS = 6_000_000
"""A picture of the whole graph up to this size; past it, the visible area and a margin."""
SETTLE_MS = 180
BACKGROUND = QColor("#F6F7F9")


def _pen(color: QColor | str, width: float, style=Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(QColor(color), width, style)
    pen.setCosmetic(True)
    return pen


@dataclass
class Snapshot:
    """What the items look like at a glance, grouped so a handful of painter calls draw it."""

    notes: list[QRectF] = field(default_factory=list)
    edges: dict[tuple[str, float, int], QPainterPath] = field(default_factory=dict)
    """(colour, width, pen style) -> every edge drawn with that pen, as one path."""
    nodes: dict[str, list[QRectF]] = field(default_factory=dict)
    """fill colour -> cards."""
    marks: dict[str, list[QRectF]] = field(default_factory=dict)
    """mark colour -> cards outlined with it."""
    terminals: list[QRectF] = field(default_factory=list)
    bounds: QRectF = field(default_factory=QRectF)


def _rect(item) -> QRectF:
    pos = item.pos()
    w, h = item.size()
    return QRectF(pos.x(), pos.y(), w, h)


def snapshot(scene) -> Snapshot:
    snap = Snapshot()
    bounds = QRectF()
    for item in scene.notes.values():
        if item.isVisible():
            snap.notes.append(_rect(item))
    for item in scene.edges.values():
        if not item.isVisible():
            continue
        color = {"error": "#D32F2F", "warning": "#EF8F00"}.get(
            item.mark or "", COLORS[item.look.style]
        )
        key = (
            color,
            2.5 if item.mark else 1.0,
            DASHES.get(item.look.style, Qt.PenStyle.SolidLine).value,
        )
        path = snap.edges.get(key)
        if path is None:
            path = snap.edges[key] = QPainterPath()
        path.addPath(item._path)
    for item in scene.nodes.values():
        if not item.isVisible():
            continue
        rect = _rect(item)
        snap.nodes.setdefault(KIND_COLORS.get(item.look.kind, "#555"), []).append(rect)
        if item.mark:
            snap.marks.setdefault(MARK_COLORS[item.mark].name(), []).append(rect)
    for item in scene.terminals.values():
        if item.isVisible():
            snap.terminals.append(_rect(item))
    for rect in [*snap.notes, *snap.terminals, *(r for rs in snap.nodes.values() for r in rs)]:
        bounds = bounds.united(rect)
    for path in snap.edges.values():
        bounds = bounds.united(path.boundingRect())
    snap.bounds = bounds.adjusted(-12, -12, 12, 12) if not bounds.isEmpty() else QRectF()
    return snap


def paint_snapshot(painter: QPainter, snap: Snapshot) -> None:
    """Draw the snapshot in scene coordinates (the painter's transform maps the scene)."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if snap.notes:
        painter.setPen(_pen("#E0C65A", 1))
        painter.setBrush(QColor("#FFF4B8"))
        painter.drawRects(snap.notes)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for (color, width, style), path in snap.edges.items():
        painter.setPen(_pen(color, width, Qt.PenStyle(style)))
        painter.drawPath(path)
    painter.setPen(Qt.PenStyle.NoPen)
    for color, rects in snap.nodes.items():
        painter.setBrush(QColor(color))
        painter.drawRects(rects)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for color, rects in snap.marks.items():
        painter.setPen(_pen(color, 2.5))
        painter.drawRects(rects)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#3B4252"))
    for rect in snap.terminals:
        painter.drawRoundedRect(rect, 16, 16)


def paint_selection(painter: QPainter, items: list) -> None:
    """The selected items as the overview shows them: blue edges, blue-framed cards."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    path, rects = QPainterPath(), []
    for item in items:
        if isinstance(item, EdgeItem):
            path.addPath(item._path)
        elif isinstance(item, (NodeItem, NoteItem, TerminalItem)):
            rects.append(_rect(item))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    if not path.isEmpty():
        painter.setPen(_pen(SELECTED, 2.5))
        painter.drawPath(path)
    if rects:
        painter.setPen(_pen(SELECTED, 3))
        painter.drawRects(rects)


class Overview(QObject):
    """The view's cached overview: a base pixmap, a selection pixmap, and where they sit. A child
    of the view, so the scene's selectionChanged (the scene may outlive the view) lets go of it."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        self._snap: Snapshot | None = None
        self._version = -1
        self._base = QPixmap()
        self._selection = QPixmap()
        self._selection_dirty = True
        self._origin = QPointF()
        """Scene point at the pixmaps' top-left corner."""
        self._zoom = 0.0
        """The view's zoom they were rendered at."""
        self._covers_all = False
        self.renders = 0
        """How many times the base picture was rendered (for tests and the benchmark)."""
        self._settle = QTimer(self, singleShot=True, interval=SETTLE_MS, timeout=self._settled)
        view.scene().selectionChanged.connect(self._selection_changed)

    def active(self) -> bool:
        return self.view.zoom() < OVERVIEW_ZOOM

    def snapshot(self) -> Snapshot:
        """The snapshot of the scene as it is now (cached until its picture_version moves)."""
        scene = self.view.scene()
        if self._snap is None or self._version != scene.picture_version:
            self._snap = snapshot(scene)
            self._version = scene.picture_version
            self._base = QPixmap()
        return self._snap

    def _selection_changed(self) -> None:
        self._selection_dirty = True
        if self.active():
            self.view.viewport().update()

    def _settled(self) -> None:
        if self.active() and self._zoom != self.view.zoom():
            self._base = QPixmap()
            self.view.viewport().update()

    # -------------------------------------------------------------- drawing

    def draw(self, painter: QPainter) -> None:
        """Draw the overview in drawBackground (the painter maps scene coordinates)."""
        snap = self.snapshot()
        if snap.bounds.isEmpty():
            return
        zoom = self.view.zoom()
        ratio = zoom / self._zoom if self._zoom else 0.0
        if self._base.isNull() or not 0.4 <= ratio <= 2.5 or not self._covers(snap):
            self._render(snap)
            ratio = 1.0
        if self._selection_dirty:
            self._render_selection()
        painter.save()
        if ratio == 1.0:
            # the pixmap is at device scale: an unscaled blit at a whole-pixel position
            device = self.view.viewportTransform().map(self._origin)
            painter.resetTransform()
            painter.drawPixmap(QPointF(round(device.x()), round(device.y())), self._base)
            if not self._selection.isNull():
                painter.drawPixmap(QPointF(round(device.x()), round(device.y())), self._selection)
        else:
            # zooming: the last picture scaled, and a sharp one once the zoom settles
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            dpr = self._base.devicePixelRatio()
            size = QSizeF(
                self._base.width() / dpr / self._zoom, self._base.height() / dpr / self._zoom
            )
            target = QRectF(self._origin, size)
            painter.drawPixmap(target, self._base, QRectF(self._base.rect()))
            if not self._selection.isNull():
                painter.drawPixmap(target, self._selection, QRectF(self._selection.rect()))
            self._settle.start()
        painter.restore()

    def _visible(self) -> QRectF:
        return self.view.mapToScene(self.view.viewport().rect()).boundingRect()

    def _covers(self, snap: Snapshot) -> bool:
        if self._covers_all:
            return True
        dpr = self._base.devicePixelRatio()
        size = QSizeF(self._base.width() / dpr / self._zoom, self._base.height() / dpr / self._zoom)
        covered = QRectF(self._origin, size)
        return covered.contains(self._visible().intersected(snap.bounds))

    def _render(self, snap: Snapshot) -> None:
        view = self.view
        zoom = view.zoom()
        dpr = view.viewport().devicePixelRatioF()
        area = snap.bounds
        self._covers_all = area.width() * area.height() * (zoom * dpr) ** 2 <= MAX_PIXELS
        if not self._covers_all:
            visible = self._visible()
            w, h = visible.width(), visible.height()
            area = visible.adjusted(-w, -h, w, h).intersected(snap.bounds)
        # start on a whole device pixel, so later frames at this zoom blit without scaling
        transform = view.viewportTransform()
        device = transform.map(area.topLeft())
        self._origin = transform.inverted()[0].map(
            QPointF(math.floor(device.x()), math.floor(device.y()))
        )
        width = math.ceil((area.right() - self._origin.x()) * zoom) + 2
        height = math.ceil((area.bottom() - self._origin.y()) * zoom) + 2
        self._base = QPixmap(int(width * dpr), int(height * dpr))
        self._base.setDevicePixelRatio(dpr)
        self._base.fill(BACKGROUND)
        painter = QPainter(self._base)
        painter.scale(zoom, zoom)
        painter.translate(-self._origin)
        paint_snapshot(painter, snap)
        painter.end()
        self._zoom = zoom
        self._selection_dirty = True
        self.renders += 1

    def _render_selection(self) -> None:
        self._selection_dirty = False
        items = self.view.scene().selectedItems()
        if not items:
            self._selection = QPixmap()
            return
        self._selection = QPixmap(self._base.size())
        self._selection.setDevicePixelRatio(self._base.devicePixelRatio())
        self._selection.fill(Qt.GlobalColor.transparent)
        painter = QPainter(self._selection)
        painter.scale(self._zoom, self._zoom)
        painter.translate(-self._origin)
        paint_selection(painter, items)
        painter.end()
