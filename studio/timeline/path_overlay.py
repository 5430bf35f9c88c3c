"""The path a run took, drawn over the canvas up to the superstep scrubbed to: each node that ran
framed in green with how many times (`×3`), each edge its writes went along traced in green with
how many times. Separate items under the run marks; the edits and the validator never see them."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsRectItem, QGraphicsSimpleTextItem

from studio.canvas.scene import GraphScene
from studio.i18n import translate
from studio.run.overlay import LABEL_FONT

PATH = QColor("#2E7D32")


class PathOverlay:
    def __init__(self, scene: GraphScene) -> None:
        self.scene = scene
        self.nodes: Counter = Counter()
        self.edges: Counter = Counter()
        self._items: list = []
        scene.document.changed.connect(lambda _f: self.redraw())
        scene.document.reset.connect(self.clear)

    def show(self, nodes: Counter, edges: Counter) -> None:
        self.nodes, self.edges = nodes, edges
        self.redraw()

    def clear(self) -> None:
        self.show(Counter(), Counter())

    def redraw(self) -> None:
        for item in self._items:
            if item.scene() is self.scene:
                self.scene.removeItem(item)
        self._items.clear()
        for node_id, count in sorted(self.nodes.items()):
            if (node := self.scene.nodes.get(node_id)) is not None:
                self._node(node_id, node, count)
        for edge in self.scene.edges.values():
            look = edge.look
            for source in look.sources:
                count = self.edges.get((source, look.target))
                start, end = self.scene.ported(source), self.scene.ported(look.target)
                if count and start is not None and end is not None:
                    self._edge(source, look.target, edge.line_from(start.port_pos("out")), count)
        for item in self._items:
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def _add(self, item, z: float, name: str):
        item.setZValue(z)
        item.setData(0, name)
        self.scene.addItem(item)
        self._items.append(item)
        return item

    def _node(self, node_id: str, node, count: int) -> None:
        w, h = node.size()
        x, y = node.scenePos().x(), node.scenePos().y()
        frame = QPainterPath()
        frame.addRoundedRect(QRectF(x - 3, y - 3, w + 6, h + 6), 10, 10)
        ring = QGraphicsPathItem(frame)
        ring.setPen(QPen(PATH, 2.5))
        self._add(ring, 0.45, f"path:{node_id}")
        self._badge(x + w - 6, y - 10, f"×{count}", f"path:{node_id}:count",
                    translate("timeline.path_overlay", "{node} ran {count} time(s) up to this superstep").format(
                        node=node_id, count=count))  # fmt: skip

    def _edge(self, source: str, target: str, path: QPainterPath, count: int) -> None:
        line = QGraphicsPathItem(path)
        line.setPen(QPen(PATH, 3.5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        line.setOpacity(0.6)
        self._add(line, 0.42, f"path:{source}->{target}")
        at = path.pointAtPercent(0.3 if source == target else 0.6)  # a loop's top is the card's
        self._badge(at.x() - 12, at.y() - 8, f"×{count}", f"path:{source}->{target}:count",
                    translate("timeline.path_overlay", "{source} → {target} taken {count} time(s) up to this superstep").format(
                        source=source, target=target, count=count))  # fmt: skip

    def _badge(self, x: float, y: float, text: str, name: str, tip: str) -> None:
        label = QGraphicsSimpleTextItem(text)
        label.setFont(LABEL_FONT)
        label.setBrush(QBrush(QColor("#FFFFFF")))
        rect = label.boundingRect()
        back = QGraphicsRectItem(QRectF(x, y, rect.width() + 8, rect.height() + 2))
        back.setBrush(QBrush(PATH))
        back.setPen(QPen(Qt.PenStyle.NoPen))
        back.setToolTip(tip)
        label.setPos(x + 4, y + 1)
        label.setToolTip(tip)
        self._add(back, 3.7, name)
        self._add(label, 3.8, name)
