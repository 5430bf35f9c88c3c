"""Run marks drawn over the canvas: a glow around the nodes of the running superstep, a red
frame with the exception's name on a node that raised, and after a step what passed: each edge
that carried a write gets a label with the values (the whole text as its hover card) and a
highlight, and under each node that wrote, the channels it wrote pulse. Separate items above
the cards, so the validator's marks and the edits never see them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsRectItem, QGraphicsSimpleTextItem

from engine.constants import TASKS
from engine.pregel import trace
from studio.canvas.scene import GraphScene
from studio.i18n import translate
from studio.plain import plain_tip
from studio.run.runner import is_internal
from studio.run.widgets import show

RUNNING = QColor("#FFB300")
ERROR = QColor("#D32F2F")
CARRIED = QColor("#1E88E5")
PULSE_MS = 1400
PULSE = (0.3, 0.65, 1.0, 1.0, 0.85, 0.7, 0.6, 0.7, 0.85, 1.0, 0.9, 0.8, 0.75, 0.75)
"""The written channels' opacity, frame by frame: they light up, dip, light up again, settle."""
CARRIED_AT = (0.5, 0.35, 0.65, 0.2, 0.8)
"""Where along its edge the label of what it carried may sit, best first: the first place clear
of the labels and chips already there (edges meeting in one node would stack them)."""
JOIN_AT = (0.25, 0.4, 0.15, 0.55)
"""The same along a join's source curves: they meet above the target, so nearer each source."""
LABEL_FONT = QFont()
LABEL_FONT.setPointSizeF(8.0)
LABEL_FONT.setBold(True)


class RunOverlay:
    def __init__(self, scene: GraphScene) -> None:
        self.scene = scene
        self.running: set[str] = set()
        self.errors: dict[str, str] = {}
        """node id -> short error text (the traceback lives in the trace panel)."""
        self.carried: dict[tuple[str, str], str] = {}
        """(source node, target) -> what passed along that edge in the last step."""
        self.wrote: dict[str, list[str]] = {}
        """node -> the state channels it wrote in the last step."""
        self._items: list = []
        # ten frames a second, not an animation's sixty: each frame repaints the canvas, and
        # during a run that repaint competes with the worker for the GIL
        self._pulse = QTimer()
        self._pulse.setInterval(PULSE_MS // len(PULSE))
        self._pulse.timeout.connect(self._pulsed)
        self._pulse_at = 0
        self._pulsing: list = []
        scene.document.changed.connect(lambda _f: self.redraw())
        scene.document.reset.connect(self.clear)

    def set_running(self, names: list[str]) -> None:
        running = {d for n in names if (d := self._drawn(n)) is not None}
        if running != self.running:  # a loop runs the same node batch after batch: no redraw
            self.running = running
            self.redraw()

    def set_error(self, node_id: str | None, text: str) -> None:
        if node_id is not None and (node_id := self._drawn(node_id)) is not None:
            self.errors[node_id] = text
            self.redraw()

    def _drawn(self, task: str) -> str | None:
        """The canvas node a task runs in (a graph that is one agent runs its parts in it)."""
        node_id = self.scene.document.spec.drawn_node(task)
        return node_id if node_id in self.scene.nodes else None

    def clear(self) -> None:
        self.running.clear()
        self.errors.clear()
        self.carried.clear()
        self.wrote.clear()
        self.redraw()

    def show_writes(self, events: list[Any]) -> None:
        """What the root graph's last step in `events` wrote: along which edges, and which channels."""
        from engine.types import Send  # loaded with the run's engine, not with the window

        root = [e for e in events if not e.ns]
        steps = [e.step for e in root if isinstance(e, trace.StepPlanned)]
        if not steps:
            return
        carried: dict[tuple[str, str], str] = {}
        wrote: dict[str, list[str]] = {}
        for e in root:
            if (
                not isinstance(e, trace.TaskFinished)
                or e.step != steps[-1]
                or e.error
                or e.interrupts
            ):
                continue
            state = [(ch, v) for ch, v in e.writes if not is_internal(ch)]
            text = ", ".join(f"{ch} = {show(v, 400)}" for ch, v in state)
            for ch, value in e.writes:
                if ch.startswith("branch:to:"):
                    carried[(e.name, ch[len("branch:to:") :])] = text or translate(
                        "run.overlay", "(no state written)"
                    )
                elif ch.startswith("join:"):
                    carried[(e.name, ch.rsplit(":", 1)[-1])] = text or translate(
                        "run.overlay", "(no state written)"
                    )
                elif ch == TASKS and isinstance(value, Send):
                    before = carried.get((e.name, value.node))
                    packet = f"Send {show(value.arg, 400)}"
                    carried[(e.name, value.node)] = f"{before}\n{packet}" if before else packet
            if state and (node_id := self._drawn(e.name)) is not None:
                chips = wrote.setdefault(node_id, [])
                chips += [ch for ch, _ in state if ch not in chips]
        self.carried, self.wrote = carried, wrote
        self.redraw()
        if self._pulsing and not self._pulse.isActive():  # a run's batches do not restart it
            self._pulse_at = 0
            self._pulse.start()

    def _pulsed(self) -> None:
        if self._pulse_at >= len(PULSE):
            self._pulse.stop()
            return
        for item in self._pulsing:
            if item.scene() is self.scene:
                item.setOpacity(PULSE[self._pulse_at])
        self._pulse_at += 1

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
        self._pulsing = []
        taken = [e.label_rect() for e in self.scene.edges.values() if e.look.label]
        self._draw_wrote(taken)
        self._draw_carried(taken)
        for item in self._items:
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def _add(self, item: Any, z: float) -> Any:
        item.setZValue(z)
        self.scene.addItem(item)
        self._items.append(item)
        return item

    def _draw_carried(self, taken: list[QRectF]) -> None:
        for edge in self.scene.edges.values():
            look = edge.look
            for source in look.sources:
                text = self.carried.get((source, look.target))
                start, end = self.scene.ported(source), self.scene.ported(look.target)
                if text is None or start is None or end is None:
                    continue
                path = edge.line_from(start.port_pos("out"))
                glow = QGraphicsPathItem(path)
                glow.setPen(QPen(CARRIED, 5.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
                glow.setOpacity(0.45)
                glow.setData(0, f"carried:{source}->{look.target}")
                self._add(glow, 0.4)
                spots = [path.pointAtPercent(p)
                         for p in (JOIN_AT if len(look.sources) > 1 else CARRIED_AT)]  # fmt: skip
                self._label(spots, text.split("\n")[0], text, f"edge:{source}->{look.target}",
                            taken)  # fmt: skip

    def _label(self, spots: list[QPointF], text: str, tip: str, name: str,
               taken: list[QRectF]) -> None:  # fmt: skip
        """A small label with a white card behind it, beside the first of `spots` where it
        overlaps nothing `taken` and no node's card (else the first clear of what is `taken`,
        else below what is in the way at the first), which it joins; the whole text on hover."""
        short = text if len(text) <= 48 else text[:47] + "…"
        label = QGraphicsSimpleTextItem(short)
        label.setFont(LABEL_FONT)
        label.setBrush(QBrush(CARRIED.darker(140)))
        rect = label.boundingRect()
        boxes = [rect.adjusted(-4, -2, 4, 2).translated(at.x() + 8, at.y() - rect.height() / 2)
                 for at in spots]  # fmt: skip
        cards = [n.sceneBoundingRect() for n in self.scene.nodes.values()]
        box = next(
            (b for b in boxes if not any(b.intersects(t) for t in taken + cards)),
            next((b for b in boxes if not any(b.intersects(t) for t in taken)), boxes[0]),
        )
        for _ in taken:  # nowhere along the edge is clear: step down past what is in the way
            if not any(box.intersects(t) for t in taken):
                break
            box.translate(0, box.height() + 2)
        taken.append(box)
        label.setPos(box.topLeft() + QPointF(4, 2))
        card = QGraphicsRectItem(box)
        card.setBrush(QBrush(QColor(255, 255, 255, 235)))
        card.setPen(QPen(CARRIED, 1.0))
        card.setToolTip(plain_tip(tip))
        label.setToolTip(plain_tip(tip))
        card.setData(0, name)
        label.setData(0, name)
        self._add(card, 3.5)
        self._add(label, 3.6)

    def _draw_wrote(self, taken: list[QRectF]) -> None:
        for node_id, channels in sorted(self.wrote.items()):
            node = self.scene.nodes.get(node_id)
            if node is None:
                continue
            w, h = node.size()
            x = node.scenePos().x()
            for channel in channels:
                chip = QGraphicsSimpleTextItem(f"✎ {channel}")
                chip.setFont(LABEL_FONT)
                chip.setBrush(QBrush(QColor("#FFFFFF")))
                rect = chip.boundingRect()
                back = QGraphicsRectItem(
                    QRectF(x, node.scenePos().y() + h + 4, rect.width() + 10, rect.height() + 4)
                )
                back.setBrush(QBrush(CARRIED))
                back.setPen(QPen(Qt.PenStyle.NoPen))
                back.setData(0, f"wrote:{node_id}:{channel}")
                back.setToolTip(
                    plain_tip(
                        translate(
                            "run.overlay", "{node_id} wrote {channel} in the last step"
                        ).format(node_id=node_id, channel=channel)
                    )
                )
                chip.setPos(x + 5, node.scenePos().y() + h + 6)
                self._add(back, 3.2)
                taken.append(back.rect())
                self._add(chip, 3.3)
                self._pulsing += [back, chip]
                x += rect.width() + 14
                if x > node.scenePos().x() + w + 120:
                    break
