"""All the edges drawn by one item, from paths batched by pen.

A pan over a big graph at 45% crosses hundreds of long edges, and each EdgeItem.paint() was a
Python call with its own painter state: ~60 us an edge, 30 ms a frame for the curves alone. The
edge items now have no contents (they stay in the scene's index, so clicking, hovering, the
rubber band and reconnect drags find them by their shape as before) and this one item, at the
edges' z value, draws them: one stroke per pen for the curves, one fill per colour for the arrow
heads and join dots, then the route labels in view. The raster engine clips the batched paths to
the exposed rectangle, so a frame costs a few milliseconds at any zoom, and it stays sharp while
zooming (no cached pixmap to scale).

The batches are rebuilt on the next paint after the scene's `picture_version` moves (edits,
drags, marks: every change goes through GraphScene.touch, which also repaints this item) or the
selection changes. The bounds follow the edges (synced before the view paints and before the
scene measures its items), so itemsBoundingRect and fit() do not change.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from studio.canvas.items.edge_item import EdgeItem

TILE = 1200.0
"""Edges are batched per pen and per tile of the scene (by the centre of their bounds): a frame
strokes only the batches near the exposed area, not every curve in the graph."""
DETAIL_ZOOM = 0.4
"""Below this scale (exports only: the view draws the overview there) curves only, as
EdgeItem.paint does."""


class Batch:
    """Edges sharing a pen: their curves as one path, arrows and join dots as one fill."""

    __slots__ = ("pen", "color", "curves", "arrows", "dots", "labelled", "bounds")

    def __init__(self, color, pen) -> None:
        self.color, self.pen = color, pen
        self.bounds = QRectF()
        self.curves = QPainterPath()
        self.arrows = QPainterPath()
        self.arrows.setFillRule(Qt.FillRule.WindingFill)  # arrows at one port overlap
        self.dots = QPainterPath()
        self.dots.setFillRule(Qt.FillRule.WindingFill)
        self.labelled: list[EdgeItem] = []


class EdgeLayer(QGraphicsItem):
    def __init__(self, scene) -> None:
        super().__init__()
        self._graph = scene
        self.setZValue(0)  # where the edges are: above notes, below the run glow and the cards
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._rect = QRectF()
        self._stale = False
        self._zooming = False
        self._full = True
        """Rebuild every batch on the next paint (else only those holding `_dirty` edges)."""
        self._dirty: dict[int, EdgeItem] = {}
        self._batches: dict[tuple, Batch] = {}
        self._members: dict[tuple, dict[int, EdgeItem]] = {}
        """batch key -> its edges, in order."""
        self._key_of: dict[int, tuple] = {}
        self.rebuilds = 0
        """How many times every batch was rebuilt (for tests and the benchmark)."""
        self._chosen: set[int] = set()
        """ids of the selected edge items the batches were built with."""
        scene.selectionChanged.connect(self._selection_changed)

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        return QPainterPath()  # never hit: clicks go to the edge items underneath

    def invalidate(self, moved: list[EdgeItem] | None = None, old: QRectF | None = None) -> None:
        """Edges changed how they look or where they are: rebuild on the next paint. With
        `moved` (a drag re-routed those edges; `old` is where they were) only their batches are
        rebuilt and only where they were and are repainted, so a drag in a big graph stays
        cheap. Without it, everything (a layout moving a thousand nodes calls this for each)."""
        if moved is None or self._full:
            self._full = True
            if not self._stale:
                self._stale = True
                self.update()
            return
        dirty = QRectF(old) if old is not None else QRectF()
        for item in moved:
            self._dirty[id(item)] = item
            dirty = dirty.united(item.boundingRect())
            if item.look.label:
                dirty = dirty.united(item.label_rect())
        if not self._rect.contains(dirty):
            self.prepareGeometryChange()
            self._rect = self._rect.united(dirty)  # shrinks at the next full rebuild
        self.update(dirty)

    def set_zooming(self, on: bool) -> None:
        """A zoom gesture: a device cache would be redrawn at every step, so paint directly, and
        without antialiasing (a sharp repaint follows when the zoom settles)."""
        self._zooming = on
        mode = QGraphicsItem.CacheMode
        self.setCacheMode(mode.NoCache if on else mode.DeviceCoordinateCache)
        if not on:
            self.update()

    def _selection_changed(self) -> None:
        """Selecting nodes leaves the edges as they are: rebuild only when the selected edges
        changed."""
        try:
            chosen = {id(i) for i in self._graph.selectedItems() if isinstance(i, EdgeItem)}
        except RuntimeError:  # the scene is being deleted
            return
        if chosen != self._chosen:
            self._chosen = chosen
            self.invalidate()

    def sync(self, force: bool = False) -> None:
        """Bring the bounds up to date (before the view paints or the scene measures its items)."""
        if not (self._stale or force):
            return
        self._stale = False
        rect = QRectF()
        for item in self._graph.edges.values():
            if item.isVisible():
                rect = rect.united(item.boundingRect())
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
            self.update()

    @staticmethod
    def _key(item: EdgeItem) -> tuple:
        chosen = item.isSelected()
        color, pen = item._pen(chosen)
        center = item.boundingRect().center()
        # the selected edges sort last: drawn on top
        return (
            chosen,
            color.rgba(),
            pen.widthF(),
            pen.style().value,
            int(center.x() // TILE),
            int(center.y() // TILE),
        )

    def _batched(self) -> list[Batch]:
        if self._full:
            self._full = False
            self._dirty.clear()
            self._members.clear()
            self._key_of.clear()
            self._batches.clear()
            for item in self._graph.edges.values():
                if item.isVisible():
                    key = self._key_of[id(item)] = self._key(item)
                    self._members.setdefault(key, {})[id(item)] = item
            for key in self._members:
                self._batches[key] = self._build(key)
            self.rebuilds += 1
        elif self._dirty:
            keys = set()
            for ident, item in self._dirty.items():
                old = self._key_of.pop(ident, None)
                if old is not None:
                    self._members[old].pop(ident, None)
                    keys.add(old)
                if item.scene() is self._graph and item.isVisible():
                    key = self._key_of[ident] = self._key(item)
                    self._members.setdefault(key, {})[ident] = item
                    keys.add(key)
            self._dirty.clear()
            for key in keys:
                if self._members.get(key):
                    self._batches[key] = self._build(key)
                else:
                    self._members.pop(key, None)
                    self._batches.pop(key, None)
        return [self._batches[k] for k in sorted(self._batches, key=lambda k: k[0])]

    def _build(self, key: tuple) -> Batch:
        items = list(self._members[key].values())
        color, pen = items[0]._pen(key[0])
        batch = Batch(color, pen)
        for item in items:
            batch.bounds = batch.bounds.united(item.boundingRect())
            batch.curves.addPath(item._path)
            batch.arrows.addPolygon(item._arrow)
            batch.arrows.closeSubpath()
            if item.look.style == "join":
                batch.dots.addEllipse(item._join, 5, 5)
            if item.look.label:
                batch.labelled.append(item)
        return batch

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        batches = self._batched()
        exposed = option.exposedRect if not option.exposedRect.isEmpty() else self._rect
        detailed = painter.worldTransform().m11() >= DETAIL_ZOOM
        if detailed:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, not self._zooming)
        painter.setClipRect(exposed, Qt.ClipOperation.IntersectClip)
        batches = [b for b in batches if b.bounds.intersects(exposed)]
        for batch in batches:
            painter.setPen(batch.pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(batch.curves)
            if not detailed:
                continue
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(batch.color))
            painter.drawPath(batch.arrows)
            if not batch.dots.isEmpty():
                painter.drawPath(batch.dots)
        if detailed:
            for batch in batches:
                for item in batch.labelled:
                    if item.label_rect().intersects(exposed):
                        item._paint_label(painter, batch.color)
