"""GraphView (objectName `canvas`): zoom, pan, fit, grid, port drags, palette drops, rename."""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPoint, QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeySequence, QPainter, QPainterPath, QPen, QShortcut
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsView, QLineEdit

from studio.canvas.items import EdgeItem, NodeItem
from studio.canvas.items.edge_item import curve
from studio.canvas.items.node_item import PortedItem
from studio.canvas.minimap import Minimap
from studio.canvas.overview import BACKGROUND, SETTLE_MS, Overview
from studio.canvas.scene import GRID, GraphScene

PALETTE_MIME = "application/x-superstep-palette"
MIN_ZOOM, MAX_ZOOM = 0.05, 4.0
GRID_MINOR, GRID_MAJOR = QPen(QColor("#ECEEF2"), 0), QPen(QColor("#DFE2E8"), 0)


class GraphView(QGraphicsView):
    palette_dropped = Signal(str, QPointF)
    """A palette entry (`node:KIND`, `note`, `middleware:NAME`) dropped at a scene position."""
    rename_finished = Signal(str, str)
    """old id, new id typed in the in-place editor."""
    released_on_canvas = Signal(str, str, QPointF, QPoint)
    """A connection ("connect") or route ("route") drag from a node (its id) let go where no
    card is: the scene position and the global position for a menu of what to add there."""
    context_requested = Signal(str, str, QPointF, QPoint)
    """A right-click: what was hit (`canvas`, `node`, `port`, `edge`), its id (node id, edge
    element id; "" on the canvas), the scene position and the global position for the menu."""

    def __init__(self, scene: GraphScene, parent=None) -> None:
        super().__init__(scene, parent)
        self.setObjectName("canvas")
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self.setAcceptDrops(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._drag: tuple[str, str] | None = None
        """("connect" | "route", source id), ("reconnect", edge element id) or ("retarget",
        conditional edge look key) while a port drag runs."""
        self._drag_line: QGraphicsPathItem | None = None
        self._pan_from: QPointF | None = None
        self._rename: QLineEdit | None = None
        self.overview = Overview(self)
        self._zoom_settle = QTimer(
            self, singleShot=True, interval=SETTLE_MS, timeout=self._zoom_settled
        )
        self.minimap = Minimap(self)
        self.minimap_wanted = True
        """The user's choice (View → Minimap); `place_minimap` may still hide it for a while."""
        self._place_timer = QTimer(self, singleShot=True, interval=30, timeout=self.place_minimap)
        scene.changed.connect(self._schedule_place)
        self.horizontalScrollBar().valueChanged.connect(self._schedule_place)
        self.verticalScrollBar().valueChanged.connect(self._schedule_place)

    # -------------------------------------------------------------- zoom, pan, fit

    def zoom(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float) -> None:
        factor = max(MIN_ZOOM / self.zoom(), min(MAX_ZOOM / self.zoom(), factor))
        zoom = self.zoom()
        self.scale(factor, factor)
        self._sync_overview()
        if not self.overview.active():  # a zoom gesture over the items (see GraphScene.set_zooming)
            # the cards in view join the scaled pictures; a zoom-out step adds the ring it brings in
            visible = self.mapToScene(self.viewport().rect()).boundingRect()
            self.scene().set_zooming(True, zoom, visible)
            self.scene().zoom_near(visible)
            self._zoom_settle.start()

    def _zoom_settled(self) -> None:
        """The zoom gesture is over: the cards paint sharp at the new scale."""
        self.scene().set_zooming(False)

    def fit(self) -> None:
        """The whole graph in view, never magnified (a small graph shows at 100%, centred). Not
        a zoom gesture: the cards draw sharp at once, none from a picture made at another
        scale (START and END were drawn cut in half until the gesture settled)."""
        rect = self.scene().itemsBoundingRect().adjusted(-40, -40, 40, 40)
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        if self.zoom() > 1.0:
            self.resetTransform()
            self.centerOn(rect.center())
        self._sync_overview()

    def shows_all(self) -> bool:
        """Every card, edge and note is in view."""
        shown = self.mapToScene(self.viewport().rect()).boundingRect()
        return shown.contains(self.scene().itemsBoundingRect())

    def _sync_overview(self) -> None:
        """Zoomed far out, the scene's items stop painting and the overview picture stands in."""
        scene = self.scene()
        if scene is not None:
            scene.set_items_paint(not self.overview.active())

    def paintEvent(self, event) -> None:
        self._sync_overview()  # whatever changed the zoom (fitInView, setTransform, ...)
        self.scene().edge_layer.sync()
        super().paintEvent(event)

    def wheelEvent(self, event) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            return super().wheelEvent(event)
        self.zoom_by(1.0015 ** event.angleDelta().y())

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        # a flat fill of the whole exposed area: antialiasing it (a scaled, fractional rectangle)
        # cost ~2.5 ms a frame at 45% for pixels nobody can tell apart
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.fillRect(rect, BACKGROUND)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if not self.scene().items_paint:
            self.overview.draw(painter)
            return
        if self.zoom() < 0.35:
            return
        left, top = int(rect.left() // GRID) * GRID, int(rect.top() // GRID) * GRID
        minor, major = [], []
        x = left
        while x < rect.right():
            (major if x % (GRID * 5) == 0 else minor).append(
                QLineF(x, rect.top(), x, rect.bottom())
            )
            x += GRID
        y = top
        while y < rect.bottom():
            (major if y % (GRID * 5) == 0 else minor).append(
                QLineF(rect.left(), y, rect.right(), y)
            )
            y += GRID
        if self.scene().zooming:  # ~4 ms a frame at 45% antialiased; sharp again once settled
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(GRID_MINOR)
        painter.drawLines(minor)
        painter.setPen(GRID_MAJOR)
        painter.drawLines(major)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)

    def resizeEvent(self, event) -> None:
        # a canvas that showed the whole graph keeps showing it when it shrinks (an interrupt's
        # answer bar above it, a dock grown): the cards below were cut off at the new bottom.
        # Lecture mode (a text floor) fits the graph its own way.
        whole = (event.oldSize().isValid() and not getattr(self.scene(), "text_floor", 0.0)
                 and self._showed_all(event.size() - event.oldSize()))  # fmt: skip
        super().resizeEvent(event)
        if whole and not self.shows_all():
            self.fit()
        self.place_minimap()

    def _showed_all(self, grown: QSize) -> bool:
        """Whether the viewport, `grown` pixels ago (it is resized before resizeEvent), showed
        every item: the scroll position and scale are still the old ones."""
        port = self.viewport().rect()
        old = QRect(0, 0, port.width() - grown.width(), port.height() - grown.height())
        return self.mapToScene(old).boundingRect().contains(self.scene().itemsBoundingRect())

    def _schedule_place(self, *_args) -> None:
        self._place_timer.start()

    def place_minimap(self) -> None:
        """The minimap takes the first corner of the canvas (bottom right first) with no card
        under it, and hides while every corner has one: it never covers a node."""
        port = self.viewport().rect()
        small = port.width() < 700 or port.height() < 420
        self.minimap.resize(150 if small else 200, 105 if small else 140)
        w, h, m = self.minimap.width(), self.minimap.height(), 12
        corners = [(port.width() - w - m, port.height() - h - m), (m, port.height() - h - m),
                   (port.width() - w - m, m), (m, m)]  # fmt: skip
        scene = self.scene()
        for x, y in corners:
            area = self.mapToScene(QRect(x - 4, y - 4, w + 8, h + 8)).boundingRect()
            if not any(isinstance(i, PortedItem) for i in scene.items(area)):
                self.minimap.move(x, y)
                self.minimap.setVisible(self.minimap_wanted)
                return
        self.minimap.setVisible(False)

    # -------------------------------------------------------------- mouse: ports and panning

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.RightButton:
            event.ignore()  # left unaccepted, the window turns it into the context menu event
            return
        pos = self.mapToScene(event.position().toPoint())
        space = event.modifiers() & Qt.KeyboardModifier.AltModifier
        if event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton and space
        ):
            self._pan_from = event.position()
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        if event.button() == Qt.MouseButton.LeftButton and not self.scene().read_only:
            drag = self._drag_at(pos)
            if (
                drag is not None
                and drag[0] == "connect"
                and event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            ):
                drag = ("route", drag[1])  # Shift-drag from the output port: a conditional route
            if drag is not None:
                self._drag = drag
                self._drag_line = QGraphicsPathItem()
                color = "#A0620A" if drag[0] in ("route", "retarget") else "#2D7FF9"
                self._drag_line.setPen(QPen(QColor(color), 2, Qt.PenStyle.DashLine))
                self._drag_line.setZValue(10)
                self.scene().addItem(self._drag_line)
                self._drag_origin = self._origin(drag, pos)
                return
        super().mousePressEvent(event)

    def _drag_at(self, pos: QPointF) -> tuple[str, str] | None:
        """An output port starts a connection, the router handle beside it a conditional route;
        the arrow end of an edge (a selected one first, when several end at the same port)
        starts a reconnection, of a dashed route a re-targeting."""
        items = self.scene().items(QRectF(pos - QPointF(8, 8), pos + QPointF(8, 8)))
        items.sort(key=lambda i: not i.isSelected())
        for item in items:
            if isinstance(item, PortedItem) and item.port_at(pos) in ("out", "route"):
                return ("connect" if item.port_at(pos) == "out" else "route", item.node_id)
            if (
                isinstance(item, EdgeItem)
                and item.near_target(pos)
                and item.look.style in ("plain", "join")
            ):
                return ("reconnect", item.element_id)
            if (
                isinstance(item, EdgeItem)
                and item.near_target(pos)
                and item.look.style == "conditional"
                and item.look.key.rpartition("#")[2].isdigit()  # one of the router's routes
            ):
                return ("retarget", item.look.key)
        return None

    def _origin(self, drag: tuple[str, str], pos: QPointF) -> QPointF:
        if drag[0] in ("connect", "route"):
            return self.scene().ported(drag[1]).port_pos("out" if drag[0] == "connect" else "route")
        return pos

    def mouseMoveEvent(self, event) -> None:
        if self._pan_from is not None:
            delta = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
            return
        if self._drag_line is not None:
            end = self.mapToScene(event.position().toPoint())
            joined = self._drag[0] in ("connect", "route")
            path = curve(self._drag_origin, end) if joined else QPainterPath(self._drag_origin)
            if not joined:
                path.lineTo(end)
            self._drag_line.setPath(path)
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self._pan_from is not None:
            self._pan_from = None
            self.unsetCursor()
            return
        if self._drag_line is not None:
            self.scene().removeItem(self._drag_line)
            self._drag_line = None
            drag, self._drag = self._drag, None
            target = self.ported_at(self.mapToScene(event.position().toPoint()))
            if target is not None and target.has_input:
                if drag[0] == "connect":
                    join = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
                    self.scene().connect_requested.emit(drag[1], target.node_id, join)
                elif drag[0] == "route":
                    self.scene().route_requested.emit(drag[1], target.node_id)
                elif drag[0] == "retarget":
                    edge_id, index = drag[1].rsplit("#", 1)
                    self.scene().retarget_requested.emit(edge_id, int(index), target.node_id)
                else:
                    self.scene().reconnect_requested.emit(drag[1], target.node_id)
            elif target is None and drag[0] in ("connect", "route"):
                at = event.position().toPoint()
                self.released_on_canvas.emit(
                    drag[0], drag[1], self.mapToScene(at), self.viewport().mapToGlobal(at)
                )
            return
        super().mouseReleaseEvent(event)

    def contextMenuEvent(self, event) -> None:
        """Right-click selects what is under the cursor (menus act on the selection), then asks
        for its menu: a port, a node (START/END are ports), an edge, or the empty canvas."""
        pos = self.mapToScene(event.pos())
        kind, element = self.hit(pos)
        scene = self.scene()
        if kind in ("node", "edge"):
            items = scene.items_for(element)
            if not any(i.isSelected() for i in items):
                scene.select_ids([element])
        elif kind == "canvas":
            scene.clearSelection()
        self.context_requested.emit(kind, element, pos, event.globalPos())

    def hit(self, pos: QPointF) -> tuple[str, str]:
        """What a click at `pos` lands on: ("port" | "node" | "edge" | "canvas", id)."""
        for item in self.scene().items(QRectF(pos - QPointF(6, 6), pos + QPointF(6, 6))):
            if isinstance(item, PortedItem) and item.port_at(pos) is not None:
                return ("port", item.node_id)
            if isinstance(item, PortedItem) and item.contains(item.mapFromScene(pos)):
                return ("node" if item.node_id in self.scene().nodes else "port", item.node_id)
        for item in self.scene().items(pos):
            if isinstance(item, EdgeItem):
                return ("edge", item.element_id)
        return ("canvas", "")

    def ported_at(self, pos: QPointF) -> PortedItem | None:
        for item in self.scene().items(QRectF(pos - QPointF(4, 4), pos + QPointF(4, 4))):
            if isinstance(item, PortedItem):
                return item
        return None

    # -------------------------------------------------------------- palette drops

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(PALETTE_MIME):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasFormat(PALETTE_MIME):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event) -> None:
        if not event.mimeData().hasFormat(PALETTE_MIME):
            return super().dropEvent(event)
        payload = bytes(event.mimeData().data(PALETTE_MIME)).decode("utf-8", "replace")
        event.acceptProposedAction()
        self.palette_dropped.emit(payload, self.mapToScene(event.position().toPoint()))

    # -------------------------------------------------------------- rename in place

    def start_rename(self, node_id: str) -> QLineEdit | None:
        item = self.scene().nodes.get(node_id)
        if item is None or self.scene().read_only:
            return None
        self.finish_rename(commit=False)
        rect = self.mapFromScene(item.mapToScene(item.title_rect()).boundingRect()).boundingRect()
        editor = QLineEdit(node_id, self.viewport())
        editor.setObjectName("renameEditor")
        editor.setGeometry(rect.adjusted(0, 3, 0, -3))
        editor.selectAll()
        editor.returnPressed.connect(lambda: self.finish_rename(commit=True))
        editor.editingFinished.connect(lambda: self.finish_rename(commit=True))
        cancel = QShortcut(QKeySequence(Qt.Key.Key_Escape), editor)
        cancel.setContext(Qt.ShortcutContext.WidgetShortcut)
        cancel.activated.connect(lambda: self.finish_rename(commit=False))
        editor.show()
        editor.setFocus()
        self._rename = editor
        self._rename_id = node_id
        return editor

    def finish_rename(self, commit: bool) -> None:
        editor, self._rename = self._rename, None
        if editor is None:
            return
        editor.hide()
        editor.deleteLater()
        text = editor.text().strip()
        if commit and text and text != self._rename_id:
            self.rename_finished.emit(self._rename_id, text)
        self.setFocus()

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape and self._rename is not None:
            self.finish_rename(commit=False)
            return
        super().keyPressEvent(event)


__all__ = ["GraphView", "PALETTE_MIME", "NodeItem"]
