"""The compiled runtime view: nodes and channel mailboxes as `compile()` builds them.

Rows follow the triggers: a node sits one row below the node whose write can wake it, its
trigger channels (`branch:to:X`, a join's barrier, `__start__`) just above it; the state keys
stand in rows under the nodes, the tasks Topic after them. Arrows run from a channel to the
nodes it triggers and from a node to the channels it writes (dashed: only when its Command or
router picks that one). A node's state writes are known only when it returns, so they are
drawn as a run makes them. Items carry `data(0)` names: `compiled:node:<name>`,
`compiled:channel:<name>`, `compiled:arrow:<kind>:<source>-><target>`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsPathItem,
    QGraphicsPolygonItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
)

from engine.pregel.trace_format import short_version
from studio.canvas.text_floor import at_least, font_px
from studio.i18n import translate
from studio.lecture.runtime_graph import RuntimeGraph, layers

NODE_W, NODE_H = 190.0, 56.0
BOX_W, BOX_H = 230.0, 66.0
ROW, COLUMN = 215.0, 250.0
ROLE_COLORS = {"state": "#0D47A1", "branch": "#6A1B9A", "join": "#00695C", "start": "#37474F",
               "tasks": "#BF360C", "other": "#37474F"}  # fmt: skip
"""Strong, dark colours: they stay readable on a projector (white text on them)."""
INK = QColor("#111111")
ARROW = {"trigger": QColor("#263238"), "write": QColor("#263238"), "declared": QColor("#6A1B9A"),
         "command": QColor("#AD1457"), "wrote": QColor("#1565C0"), "pushed": QColor("#BF360C")}  # fmt: skip


def font(size: float, bold: bool = False) -> QFont:
    f = QFont()
    f.setPointSizeF(size)
    f.setBold(bold)
    return f


def arrow_path(start: QPointF, end: QPointF, loop: bool = False) -> tuple[QPainterPath, QPolygonF]:
    """A gentle curve from `start` to `end` and its arrowhead at `end`; `loop` bows it out to
    the right (a write back up to a channel above)."""
    path = QPainterPath(start)
    dx, dy = end.x() - start.x(), end.y() - start.y()
    if loop:
        path.cubicTo(QPointF(start.x() + 90, start.y()), QPointF(end.x() + 90, end.y()), end)
    elif abs(dy) >= abs(dx):
        path.cubicTo(
            QPointF(start.x(), start.y() + dy / 2), QPointF(end.x(), end.y() - dy / 2), end
        )
    else:
        path.cubicTo(
            QPointF(start.x() + dx / 2, start.y()), QPointF(end.x() - dx / 2, end.y()), end
        )
    tip = path.pointAtPercent(1.0)
    back = path.pointAtPercent(0.94)
    vx, vy = tip.x() - back.x(), tip.y() - back.y()
    length = max((vx * vx + vy * vy) ** 0.5, 1e-6)
    ux, uy = vx / length, vy / length
    left = QPointF(tip.x() - 12 * ux + 6 * uy, tip.y() - 12 * uy - 6 * ux)
    right = QPointF(tip.x() - 12 * ux - 6 * uy, tip.y() - 12 * uy + 6 * ux)
    return path, QPolygonF([tip, left, right, tip])


class CompiledScene(QGraphicsScene):
    """Draws one RuntimeGraph; `versions` and `wrote` follow a run."""

    def __init__(self) -> None:
        super().__init__()
        self.graph: RuntimeGraph | None = None
        self.rects: dict[str, QRectF] = {}
        """node or channel name -> its box (node names and channel names may be equal:
        `__start__` is both, so channels are keyed `channel:<name>` and nodes by name)."""
        self.versions: dict[str, Any] = {}
        self.wrote: set[tuple[str, str]] = set()
        self._version_items: dict[str, QGraphicsSimpleTextItem] = {}
        self._kept: list[Any] = []
        self.floor = 0.0
        """Scene pixels no text is drawn below (lecture mode: readable on a projector)."""
        self.box_w, self.box_h, self.row, self.column = BOX_W, BOX_H, ROW, COLUMN
        """A mailbox's size, a row's height and a column's width, larger when a text floor
        makes the text larger."""
        self._order: dict[str, float] = {}
        self._live: list[Any] = []
        """Every item drawn: a wrapper PySide makes anew (scene.items()) for an item no Python
        object holds deletes the item when it is dropped, so each keeps its first wrapper."""
        self.setBackgroundBrush(QBrush(QColor("#FFFFFF")))

    # ------------------------------------------------------------------ building

    def show_graph(self, graph: RuntimeGraph, order: dict[str, float] | None = None) -> None:
        """Draw `graph`; `order` puts a row's nodes in the drawn canvas's left-to-right order."""
        self.forget()
        self.graph, self._order = graph, order or {}
        line = font_px(self._face(12, True)) * 1.25
        self.box_h = max(BOX_H, 3 * line + 8)  # title, kind and version
        self.row = ROW + self.box_h - BOX_H
        kinds, titles = QFontMetricsF(self._face(11.5)), QFontMetricsF(self._face(12, True))
        widest = max((max(kinds.horizontalAdvance(c.kind) + 24,
                          titles.horizontalAdvance(self._short(c.name)) + 60)
                      for c in graph.channels), default=0.0)  # fmt: skip
        self.box_w = min(2 * BOX_W, max(BOX_W, widest))  # names and kinds whole, if they can be
        self.column = COLUMN + self.box_w - BOX_W
        self._place(graph, self._order)
        for c in graph.channels:
            if f"channel:{c.name}" in self.rects:
                self._mailbox(c.name, c.kind, c.role)
        for n in graph.nodes:
            self._node(n.name, n.routes)
        for a in graph.arrows:
            self._arrow(a.source, a.target, a.kind, a.label)
        self._legend()

    def set_floor(self, px: float) -> None:
        """Draw the graph again with no text under `px` scene pixels, keeping its versions and
        the writes the run made."""
        if self.graph is None or px == self.floor:
            self.floor = px
            return
        self.floor = px
        versions, wrote = self.versions, self.wrote
        self.show_graph(self.graph, self._order)
        self.set_versions(versions)
        for node, channel in wrote:
            self.mark_written(node, channel) if node != "__pregel_tasks" else self.mark_pushed(
                channel
            )

    def _face(self, size: float, bold: bool = False) -> QFont:
        return at_least(font(size, bold), self.floor)

    def forget(self) -> None:
        """Nothing drawn, nothing remembered of it: every item goes, and with them the names
        and boxes that pointed at them (a version set on a deleted item raised)."""
        self.clear()
        self._kept, self._live = [], []
        self.graph, self.rects, self._version_items = None, {}, {}
        self.versions, self.wrote = {}, set()

    def show_message(self, text: str) -> None:
        """Why no graph is drawn, in its place."""
        self.forget()
        self._text(text, 0, 0, 13, True, INK).setData(0, "compiled:message")

    def _legend(self) -> None:
        """What each arrow means, in a free corner beside the top row (else above it)."""
        lines = (("trigger", translate("lecture.compiled_scene", "triggers / always writes")), ("declared", translate("lecture.compiled_scene", "router may write")),
                 ("command", translate("lecture.compiled_scene", "Command goto may write")), ("wrote", translate("lecture.compiled_scene", "written in this run")),
                 ("pushed", translate("lecture.compiled_scene", "Send packet → its task")))  # fmt: skip
        face = self._face(10)
        pitch = max(22.0, font_px(face) * 1.3)
        text_w = max(QFontMetricsF(face).horizontalAdvance(t) for _k, t in lines)
        width, height = max(218.0, 62 + text_w), len(lines) * pitch + 12
        placed = list(self.rects.values())
        left, top = min(r.left() for r in placed), min(r.top() for r in placed)
        row = [r for r in placed if r.top() == top]
        right = max(r.right() for r in placed)
        y = top
        if min(r.left() for r in row) - left < width + 10:  # no room on the left
            if right - max(r.right() for r in row) >= width + 10:
                left = right - width  # room on the right (a chain above wide state rows)
            else:
                y = top - height - 30
        box = QPainterPath()
        box.addRoundedRect(QRectF(left, y, width, height), 6, 6)
        frame = self._add(QGraphicsPathItem(box), 0.2, "compiled:legend")
        frame.setPen(QPen(QColor("#B0BEC5"), 1))
        frame.setBrush(QBrush(QColor("#FAFAFA")))
        for i, (kind, text) in enumerate(lines):
            at = y + 10 + i * pitch
            line = QPainterPath(QPointF(left + 8, at + pitch / 2 - 2))
            line.lineTo(left + 44, at + pitch / 2 - 2)
            sample = self._add(QGraphicsPathItem(line), 0.3)
            pen = QPen(ARROW[kind], 3)
            if kind in ("declared", "command", "pushed"):
                pen.setStyle(Qt.PenStyle.DashLine)
            sample.setPen(pen)
            self._text(text, left + 52, at, 10, False, INK)

    def _place(self, graph: RuntimeGraph, order: dict[str, float]) -> None:
        row_of = layers(graph)
        rows: dict[int, list[str]] = {}
        for n in graph.nodes:
            rows.setdefault(row_of[n.name], []).append(n.name)
        width = max((len(r) for r in rows.values()), default=1)
        for depth, names in rows.items():
            names.sort(key=lambda n: (order.get(n, 0.0), n))
            left = (width - len(names)) * self.column / 2
            for i, name in enumerate(names):
                x, y = left + i * self.column, depth * self.row + self.box_h + 50
                self.rects[name] = QRectF(x, y, NODE_W, NODE_H)
        for n in graph.nodes:  # each node's trigger mailboxes just above it
            node = self.rects[n.name]
            mine = [t for t in n.triggers if f"channel:{t}" not in self.rects]
            for i, t in enumerate(mine):
                at = (i - (len(mine) - 1) / 2) * (self.box_w + 14)
                x = node.center().x() - self.box_w / 2 + at
                self.rects[f"channel:{t}"] = QRectF(
                    x, node.top() - self.box_h - 44, self.box_w, self.box_h
                )
        placed = list(self.rects.values())
        left, bottom = min(r.left() for r in placed), max(r.bottom() for r in placed) + 110
        side = [c for c in graph.channels if f"channel:{c.name}" not in self.rects]
        side.sort(key=lambda c: c.role != "state")  # the state keys first, the tasks Topic after
        per_row = max(width, 4)
        for i, c in enumerate(side):  # rows under the nodes, room below each for its packets
            row, col = divmod(i, per_row)
            x, y = left + col * self.column, bottom + row * (self.box_h + 150)
            self.rects[f"channel:{c.name}"] = QRectF(x, y, self.box_w, self.box_h)

    def _mailbox(self, name: str, kind: str, role: str) -> None:
        rect = self.rects[f"channel:{name}"]
        color = QColor(ROLE_COLORS.get(role, "#37474F"))
        path = QPainterPath()
        path.addRoundedRect(rect, 8, 8)
        box = self._add(
            QGraphicsPathItem(path),
            1,
            f"compiled:channel:{name}",
        )
        box.setPen(QPen(color, 2.5))
        box.setBrush(QBrush(QColor("#FFFFFF")))
        flap = QPainterPath()  # the mailbox's envelope flap: a channel holds what was written
        flap.moveTo(rect.left() + 6, rect.top() + 4)
        flap.lineTo(rect.left() + 22, rect.top() + 14)
        flap.lineTo(rect.left() + 38, rect.top() + 4)
        self._add(QGraphicsPathItem(flap), 1.1).setPen(QPen(color, 2))
        room = rect.width() - 50  # the flap on the left, a margin on the right
        text, size = self._short(name), 12.0
        while size > 9 and QFontMetricsF(self._face(size, True)).horizontalAdvance(text) > room:
            size -= 0.5  # a long name in smaller type before it is cut
        face = self._face(size, True)
        text = QFontMetricsF(face).elidedText(text, Qt.TextElideMode.ElideMiddle, room)
        title = self._text(text, rect.left() + 44, rect.top() + 3, size, True, color)
        title.setToolTip(name)
        pitch = (rect.height() - 8) / 3
        kind = QFontMetricsF(self._face(11.5)).elidedText(
            kind, Qt.TextElideMode.ElideRight, rect.width() - 20
        )
        self._text(kind, rect.left() + 10, rect.top() + 3 + pitch, 11.5, False, INK).setData(
            0, f"compiled:kind:{name}"
        )
        at = rect.top() + 3 + 2 * pitch
        version = self._text(
            translate("lecture.compiled_scene", "v —"),
            rect.left() + 10,
            at,
            11,
            True,
            QColor("#37474F"),
        )
        version.setData(0, f"compiled:version:{name}")
        self._version_items[name] = version

    @staticmethod
    def _short(name: str) -> str:
        return "join → " + name.rsplit(":", 1)[-1] if name.startswith("join:") else name

    def _node(self, name: str, routes: bool) -> None:
        rect = self.rects[name]
        path = QPainterPath()
        path.addRoundedRect(rect, 12, 12)
        item = self._add(
            QGraphicsPathItem(path),
            1,
            f"compiled:node:{name}",
        )
        item.setPen(QPen(INK, 2.5))
        item.setBrush(QBrush(QColor("#ECEFF1") if name.startswith("__") else QColor("#FFFDE7")))
        shown = QFontMetricsF(self._face(14, True)).elidedText(
            name, Qt.TextElideMode.ElideMiddle, rect.width() - 12
        )
        text = self._text(shown, 0, 0, 14, True, INK)
        r = text.boundingRect()
        text.setPos(rect.center().x() - r.width() / 2, rect.center().y() - r.height() / 2)
        if routes:
            self._text(
                translate("lecture.compiled_scene", "⑂ router"),
                rect.left() + 6,
                rect.bottom() + 2,
                9,
                True,
                QColor("#6A1B9A"),
            )

    def _arrow(self, source: str, target: str, kind: str, label: str | None) -> QGraphicsPathItem:
        if kind in ("trigger", "pushed"):
            a, b = self.rects.get(f"channel:{source}"), self.rects.get(target)
        else:
            a, b = self.rects.get(source), self.rects.get(f"channel:{target}")
        if a is None or b is None:
            return None
        start, end = _anchors(a, b)
        loop = b.bottom() <= a.top() + 4
        line, tip = arrow_path(start, end, loop)
        item = self._add(
            QGraphicsPathItem(line),
            0.5,
            f"compiled:arrow:{kind}:{source}->{target}",
        )
        pen = QPen(ARROW[kind], 2.4 if kind != "wrote" else 3.0)
        if kind in ("declared", "command", "pushed"):
            pen.setStyle(Qt.PenStyle.DashLine)
        item.setPen(pen)
        head = QGraphicsPolygonItem(tip, item)
        self._kept.append(head)
        head.setPen(QPen(ARROW[kind], 1.0))
        head.setBrush(QBrush(ARROW[kind]))
        if label and label != target.removeprefix("branch:to:"):
            mid = item.path().pointAtPercent(0.5)
            self._text(label, mid.x() + 6, mid.y() - 10, 9, False, ARROW[kind])
        return item

    def _text(self, text: str, x: float, y: float, size: float, bold: bool, color: QColor,
              z: float = 2) -> QGraphicsSimpleTextItem:  # fmt: skip
        item = QGraphicsSimpleTextItem(text)
        item.setFont(self._face(size, bold))
        item.setBrush(QBrush(color))
        item.setPos(x, y)
        return self._add(item, z)

    def _add(self, item: Any, z: float, name: str | None = None) -> Any:
        item.setZValue(z)
        if name is not None:
            item.setData(0, name)
        self.addItem(item)
        self._kept.append(item)
        return item

    # ------------------------------------------------------------------ a run

    def set_versions(self, versions: dict[str, Any]) -> None:
        """Each mailbox's channel version as the run left it."""
        self.versions = dict(versions)
        for name, item in self._version_items.items():
            v = versions.get(name)
            item.setText(
                translate("lecture.compiled_scene", "v{short_version}").format(
                    short_version=short_version(v)
                )
                if v is not None
                else translate("lecture.compiled_scene", "v —")
            )

    def mark_written(self, node: str, channel: str) -> None:
        """A write the run made that no static writer declares (a state key, a router's pick)."""
        if (node, channel) in self.wrote or self.graph is None:
            return
        if any(a.source == node and a.target == channel for a in self.graph.arrows):
            return
        self.wrote.add((node, channel))
        self._arrow(node, channel, "wrote", None)

    def show_live(self, running: list[str], changed: list[str]) -> None:
        """Outside lecture mode, the run's last step: its tasks glow, the mailboxes its barrier
        moved are framed (`compiled:live-node:<name>`, `compiled:live-channel:<name>`)."""
        self.clear_live()
        for name in running:
            if name in self.rects:
                self._live.append(
                    self._glow(self.rects[name], "#FFB300", f"compiled:live-node:{name}")
                )
        for name in changed:
            if (rect := self.channel_rect(name)) is not None:
                self._live.append(self._glow(rect, "#2E7D32", f"compiled:live-channel:{name}"))

    def clear_live(self) -> None:
        for item in self._live:
            if item.scene() is self:
                self.removeItem(item)
        self._live = []

    def _glow(self, rect: QRectF, color: str, name: str) -> QGraphicsPathItem:
        path = QPainterPath()
        path.addRoundedRect(rect.adjusted(-6, -6, 6, 6), 12, 12)
        fill = QColor(color)
        fill.setAlpha(60)
        item = QGraphicsPathItem(path)  # held by `_live` (not `_kept`: a long run makes many)
        item.setZValue(0.8)
        item.setData(0, name)
        self.addItem(item)
        item.setPen(QPen(QColor(color), 4))
        item.setBrush(QBrush(fill))
        return item

    def mark_pushed(self, node: str) -> None:
        """A Send packet in the tasks Topic became a task of `node` (no trigger names it)."""
        if ("__pregel_tasks", node) not in self.wrote and self.graph is not None:
            self.wrote.add(("__pregel_tasks", node))
            self._arrow("__pregel_tasks", node, "pushed", None)

    def node_rect(self, name: str) -> QRectF | None:
        return self.rects.get(name)

    def channel_rect(self, name: str) -> QRectF | None:
        return self.rects.get(f"channel:{name}")

    def named(self, name: str) -> list[Any]:
        return [i for i in self.items() if i.data(0) == name]


def _anchors(a: QRectF, b: QRectF) -> tuple[QPointF, QPointF]:
    """Where an arrow from box `a` to box `b` leaves and arrives: bottom to top when `b` is
    below, else side to side."""
    if b.top() >= a.bottom() - 4:
        return QPointF(a.center().x(), a.bottom()), QPointF(b.center().x(), b.top())
    if b.bottom() <= a.top() + 4:  # back up: out of the right side, into the right side
        return QPointF(a.right(), a.center().y()), QPointF(b.right(), b.center().y())
    if b.left() >= a.right():
        return QPointF(a.right(), a.center().y()), QPointF(b.left(), b.center().y())
    return QPointF(a.left(), a.center().y()), QPointF(b.right(), b.center().y())
