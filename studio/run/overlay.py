"""Run marks drawn over the canvas: a glow around the nodes of the running superstep and a red
frame with the exception's name on a node that raised. Separate items above the cards, so the
validator's marks and the edits never see them."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsSimpleTextItem

from studio.canvas.scene import GraphScene
from studio.plain import plain_tip

RUNNING = QColor("#FFB300")
ERROR = QColor("#D32F2F")
LABEL_FONT = QFont()
LABEL_FONT.setPointSizeF(8.0)
LABEL_FONT.setBold(True)


class RunOverlay:
    def __init__(self, scene: GraphScene) -> None:
        self.scene = scene
        self.running: set[str] = set()
        self.errors: dict[str, str] = {}
        """node id -> short error text (the traceback lives in the trace panel)."""
        self._items: list = []
        scene.document.changed.connect(lambda _f: self.redraw())
        scene.document.reset.connect(self.clear)

    def set_running(self, names: list[str]) -> None:
        self.running = {n for n in names if n in self.scene.nodes}
        self.redraw()

    def set_error(self, node_id: str | None, text: str) -> None:
        if node_id is not None and node_id in self.scene.nodes:
            self.errors[node_id] = text
            self.redraw()

    def clear(self) -> None:
        self.running.clear()
        self.errors.clear()
        self.redraw()

    def _frame(self, node_id: str, color: QColor, width: float, fill_alpha: int) -> None:
        item = self.scene.nodes[node_id]
        w, h = item.size()
        rect = QRectF(item.scenePos().x() - 6, item.scenePos().y() - 6, w + 12, h + 12)
        path = QPainterPath()
        path.addRoundedRect(rect, 12, 12)
        frame = QGraphicsPathItem(path)
        frame.setPen(QPen(color, width))
        fill = QColor(color)
        fill.setAlpha(fill_alpha)
        frame.setBrush(QBrush(fill))
        frame.setZValue(0.5)  # under the card, over the edges
        frame.setData(0, f"run:{node_id}")
        self.scene.addItem(frame)
        self._items.append(frame)

    def redraw(self) -> None:
        for item in self._items:
            if item.scene() is self.scene:
                self.scene.removeItem(item)
        self._items.clear()
        for node_id in sorted(self.running):
            if node_id in self.scene.nodes and node_id not in self.errors:
                self._frame(node_id, RUNNING, 4.0, 70)
        for node_id, text in sorted(self.errors.items()):
            if node_id not in self.scene.nodes:
                continue
            self._frame(node_id, ERROR, 4.0, 40)
            node = self.scene.nodes[node_id]
            label = QGraphicsSimpleTextItem(f"⚠ {text}")
            label.setFont(LABEL_FONT)
            label.setBrush(QBrush(ERROR))
            label.setPos(node.scenePos().x(), node.scenePos().y() - 24)
            label.setZValue(3)
            label.setToolTip(plain_tip(text))
            self.scene.addItem(label)
            self._items.append(label)
        for item in self._items:
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
