"""A superstep's phase drawn over a scene: the drawn canvas or the compiled view.

The scene gives where its nodes are and, on the compiled view, where each channel's mailbox
is; on the drawn canvas the stage draws a small mailbox column beside the graph for the
channels a phase touches. Every item is named in `data(0)` (`lecture:<what>:<where>`), so
tests and exports find what a class sees: plan glows and why each node fired, pending packets
beside their channels, the barrier's merges, version ticks and conflicts, checkpoints with
their pending writes, Send payloads, Command goto, interrupts and namespaces.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QEasingCurve, QRectF, Qt, QVariantAnimation
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsScene, QGraphicsSimpleTextItem

from studio.canvas.text_floor import at_least, font_px
from studio.i18n import translate
from studio.lecture.compiled_scene import font
from studio.lecture.phases import Phase, PhaseBook, short_ns, vtext
from studio.run.widgets import show, shown_or_dash

PLAN, RUN, PACKET = QColor("#E65100"), QColor("#2E7D32"), QColor("#1565C0")
MERGE, CONFLICT, HALT = QColor("#00695C"), QColor("#B71C1C"), QColor("#AD1457")
INK = QColor("#111111")
Rect = Callable[[str], QRectF | None]
DROP_MS, DROP_PX = 600, 60.0
"""How long and from how high a new checkpoint drops into the history strip."""
FOCUS = ("lecture:plan:", "lecture:run:", "lecture:applied:", "lecture:conflict",
         "lecture:namespace")  # fmt: skip
"""The items a view too small for the whole drawing centres on."""
MAILBOX_W, MAILBOX_H = 220.0, 46.0
"""A mailbox the stage draws beside the drawn canvas."""


def wrap(text: str, face: QFont, width: float) -> str:
    """`text` with its lines broken between words to fit `width` pixels in `face`."""
    metrics = QFontMetricsF(face)
    out = []
    for line in text.split("\n"):
        current = ""
        for word in line.split(" "):
            joined = f"{current} {word}" if current else word
            if current and metrics.horizontalAdvance(joined) > width:
                out.append(current)
                current = word
            else:
                current = joined
        out.append(current)
    return "\n".join(out)


class Stage:
    """Draws one phase at a time on `scene`; `node_rect`/`channel_rect` place it."""

    def __init__(self, scene: QGraphicsScene, node_rect: Rect, channel_rect: Rect | None = None):
        self.scene = scene
        self.node_rect = node_rect
        self.channel_rect = channel_rect
        self.items: list[Any] = []
        self.kinds: dict[str, str] = {}
        """channel -> its class or reducer (from the compiled graph), shown on the mailboxes."""
        self.commands: set[tuple[str, str]] = set()
        """(node, channel) pairs the compiled graph writes through a Command's goto."""
        self._column: dict[str, QRectF] = {}
        self._row = False
        self._versions: dict[str, Any] = {}
        self._animation: QVariantAnimation | None = None
        self._stacks: dict[str, float] = {}
        self.floor = 0.0
        """Scene pixels no text is drawn below (lecture mode: readable on a projector)."""

    def clear(self) -> None:
        self.settle()
        for item in self.items:  # the compiled view's redraw may have deleted them already
            if shiboken6.isValid(item) and item.scene() is self.scene:
                self.scene.removeItem(item)
        self.items.clear()
        self._column.clear()
        self._stacks.clear()

    def focus(self) -> QRectF | None:
        """What the phase is about: the nodes it runs, the channels it moves or collides in."""
        rect = QRectF()
        for item in self.items:
            if shiboken6.isValid(item) and str(item.data(0) or "").startswith(FOCUS):
                rect = rect.united(item.sceneBoundingRect())
        return None if rect.isEmpty() else rect

    def named(self, prefix: str) -> list[Any]:
        return [i for i in self.items if str(i.data(0) or "").startswith(prefix)]

    # ------------------------------------------------------------------ drawing

    def show(self, phase: Phase, book: PhaseBook) -> None:
        self.clear()
        self._graph = self._graph_rect()
        self._versions = phase.versions
        self._row = self._graph.width() > self._graph.height() * 1.2
        self._caption(phase)
        {"plan": self._plan, "execute": self._execute, "barrier": self._barrier}[phase.kind](phase)
        self._history(phase, book)
        for item in self.items:
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def _graph_rect(self) -> QRectF:
        # the scene's own bounds (this stage's items are cleared): never a walk over
        # scene.items(), whose fresh wrappers of items nobody keeps delete them when dropped
        return self.scene.itemsBoundingRect()

    def _face(self, size: float, bold: bool = False) -> QFont:
        return at_least(font(size, bold), self.floor)

    def _wide(self) -> float:
        """How wide a card under or beside a node wraps: some 14 characters or more."""
        return max(220.0, 14 * font_px(self._face(13, True)))

    def _caption(self, phase: Phase) -> None:
        note_h = QFontMetricsF(self._face(15, True)).height()
        y = self._graph.top() - QFontMetricsF(self._face(26, True)).height() - note_h - 14
        title = self._text(phase.title, self._graph.left(), y, 26, True, INK)
        title.setData(0, f"lecture:caption:{phase.kind}")
        self._note_y = self._graph.top() - note_h - 6

    def _plan(self, phase: Phase) -> None:
        for node in phase.tasks:
            self._frame(self.node_rect(node), PLAN, f"lecture:plan:{node}")
        for node, woke in phase.woke.items():
            lines = [translate("lecture.stage", "{ch} now {vtext}, it saw {value}").format(ch=ch, vtext=vtext(v), value=vtext(s) if s is not None else 'none')
                     for ch, v, s in woke]  # fmt: skip
            self._below(
                node,
                translate("lecture.stage", "woken: ") + "; ".join(lines),
                PLAN,
                f"lecture:woke:{node}",
            )
            for ch, _v, _s in woke:
                self._frame(self._channel(ch), PLAN, f"lecture:trigger:{ch}")
        for node, payloads in phase.sends.items():
            text = translate("lecture.stage", "Send packets, a task each:\n") + "\n".join(
                show(p, 40) for p in payloads
            )
            self._below(node, text, PACKET, f"lecture:send:{node}")
        for node in phase.resumed:
            self._below(
                node,
                translate("lecture.stage", "resumed: runs again from its start"),
                HALT,
                f"lecture:resumed:{node}",
            )

    def _execute(self, phase: Phase) -> None:
        for node in phase.tasks:
            self._frame(self.node_rect(node), RUN, f"lecture:run:{node}")
        for packet in phase.packets:
            kind, text = {"send": "sendpacket"}.get(packet.kind, "packet"), packet.text()
            where = packet.channel
            if packet.kind == "goto":
                where = packet.channel[len("branch:to:") :]
                command = (packet.task, packet.channel) in self.commands
                kind = "goto" if command else "branch"
                text = (
                    translate("lecture.stage", "Command goto {where}").format(where=where)
                    if command
                    else translate("lecture.stage", "write {channel}").format(
                        channel=packet.channel
                    )
                )
            self._beside(packet.channel, f"✉ {packet.task}: {text}",
                         HALT if kind == "goto" else PACKET, f"lecture:{kind}:{packet.task}:{where}")  # fmt: skip
        for node, values in phase.interrupts.items():
            text = translate(
                "lecture.stage", "⚡ interrupt({show})\n↑ GraphInterrupt bubbles up: run stops"
            ).format(show=show(values[0], 40))
            self._below(node, text, HALT, f"lecture:interrupt:{node}")
        for node, error in phase.errors.items():
            self._below(node, f"✖ {error[:70]}", CONFLICT, f"lecture:error:{node}")
        for node, spaces in phase.namespaces.items():
            self._namespace(node, spaces, phase.inner.get(node, []),
                            phase.inner_channels.get(node, {}))  # fmt: skip
        if phase.packets:
            note = translate(
                "lecture.stage", "pending until the barrier: sibling tasks cannot see these writes"
            )
            self._text(note, self._graph.left(), self._note_y, 15, True, PACKET).setData(
                0, "lecture:pending-note"
            )

    def _namespace(self, node: str, spaces: list[str], steps: list[str],
                   channels: dict[str, dict[str, tuple[Any, Any]]]) -> None:  # fmt: skip
        """The subgraph's task opened up: its node framed with what ran inside it, labelled
        with the checkpoint namespace, its inner supersteps, and its channels under that
        namespace (`lecture:namespace:<node>`, `lecture:inner-step:<node>:<i>`,
        `lecture:inner-channel:<node>:<channel>`)."""
        rect = self.node_rect(node)
        if rect is None:
            return
        beside = self.channel_rect is not None or not self._row  # rows of mailboxes lie below
        x, y = (rect.right() + 48, rect.top()) if beside else (rect.left() - 10, rect.bottom() + 30)
        width = self._wide() if beside else rect.width() + 20
        first = len(self.items)
        label = "\n".join(
            translate("lecture.stage", "namespace {ns}").format(ns=short_ns(ns)) for ns in spaces
        )
        title = translate(
            "lecture.stage", "inside {node}: a graph of its own, checkpoints under {label}"
        ).format(node=node, label=label)
        cards = [(title, MERGE, f"lecture:namespace:{node}")]
        cards += [(step, QColor("#00897B"), f"lecture:inner-step:{node}:{i}")
                  for i, step in enumerate(steps[-4:])]  # fmt: skip
        for ns in spaces:
            for channel, (version, value) in channels.get(ns, {}).items():
                text = f"✉ {short_ns(ns)} › {channel}  {vtext(version)}\n= {show(value, 30)}"
                cards.append((text, PACKET, f"lecture:inner-channel:{node}:{channel}"))
        for text, color, name in cards:
            y = self._card(x, y, text, color, name, 13, width).bottom() + 4
        self._stacks[f"node:{node}"] = y
        inside = QRectF()
        for item in self.items[first:]:  # the cards just drawn: the node's inside, opened up
            inside = inside.united(item.sceneBoundingRect())
        panel = inside.adjusted(-8, -8, 8, 8)
        if panel.left() >= rect.right():  # a callout from the node to its inside
            corners = [rect.topRight(), panel.topLeft(), panel.bottomLeft(), rect.bottomRight()]
        else:
            corners = [rect.bottomLeft(), panel.topLeft(), panel.topRight(), rect.bottomRight()]
        wedge = QPainterPath()
        wedge.addPolygon(QPolygonF([*corners, corners[0]]))
        fill = QColor(MERGE)
        fill.setAlpha(28)
        for path, name in ((wedge, "callout"), (None, "subgraph-frame")):
            if path is None:
                path = QPainterPath()
                path.addRoundedRect(panel, 10, 10)
            item = QGraphicsPathItem(path)
            item.setPen(
                QPen(MERGE, 2.5, Qt.PenStyle.DashLine if path is wedge else Qt.PenStyle.SolidLine)
            )
            item.setBrush(QBrush(fill))
            item.setData(0, f"lecture:{name}:{node}")
            self._add(item, 0.7)

    def _barrier(self, phase: Phase) -> None:
        for change in phase.changes:
            text = f"{vtext(change.old_version)} → {vtext(change.new_version)}"
            if change.old_value is not None or change.new_value is not None:  # not a mailbox flag
                text += f"\n{shown_or_dash(change.old_value, 24)} → {shown_or_dash(change.new_value, 30)}"
            self._frame(self._channel(change.channel), MERGE, f"lecture:applied:{change.channel}")
            self._beside(change.channel, text, MERGE, f"lecture:tick:{change.channel}")
        for channel, packets in phase.merges.items():
            if phase.conflict is not None and phase.conflict[0] == channel:
                continue
            parts = "\n+ ".join(show(p.value, 24) for p in packets)
            self._beside(channel, translate("lecture.stage", "reducer merges {len} writes:\n  {parts}").format(len=len(packets), parts=parts), MERGE,
                         f"lecture:merge:{channel}")  # fmt: skip
        if phase.conflict is not None:
            self._conflict(*phase.conflict, phase.merges.get(phase.conflict[0], []))

    def _conflict(self, channel: str, message: str, packets: list[Any]) -> None:
        """Both writes arrive at the one mailbox; it takes one value a step, so the barrier
        raises langgraph's InvalidUpdateError (its text as the run reported it) and applies
        nothing."""
        self._frame(self._channel(channel), CONFLICT, f"lecture:conflict-frame:{channel}")
        for packet in packets:
            self._beside(channel, f"✉ {packet.task}: {channel} = {show(packet.value, 24)}",
                         PACKET, f"lecture:collide:{packet.task}:{channel}", wide=True)  # fmt: skip
        error = message.split("\n")[0]  # the troubleshooting link on its next line is left out
        text = translate("lecture.stage", "✖ {count} writes collide in {channel}: a LastValue takes one value per step\nInvalidUpdateError: {error}").format(count=len(packets), channel=channel, error=error)  # fmt: skip
        self._beside(channel, text, CONFLICT, f"lecture:conflict:{channel}", wide=True)

    def _history(self, phase: Phase, book: PhaseBook) -> None:
        """The checkpoints saved so far, each with the tasks whose pending writes it holds;
        the one this barrier saved drops in highlighted."""
        bottom = max([self._graph.bottom(), *(i.sceneBoundingRect().bottom() for i in self.items)])
        y, x = bottom + 30, self._graph.left()
        limit = phase.step if phase.kind == "barrier" else phase.step - 1
        for step, checkpoint_id, source in [c for c in book.checkpoints if c[0] <= limit][-6:]:
            new = phase.checkpoint is not None and phase.checkpoint[0] == checkpoint_id
            color = MERGE if new else QColor("#455A64")
            pending = [task for at, task in book.pending.get(checkpoint_id, [])
                       if at < phase.step or (at == phase.step and phase.kind != "plan")]  # fmt: skip
            lines = translate("lecture.stage", "checkpoint · step {step}").format(step=step)
            lines += f"\n{source} · …{checkpoint_id[-6:]}"
            if pending:
                lines += translate("lecture.stage", "\npending writes: ") + ", ".join(pending)[:40]
            card = self._card(x, y, lines, color, f"lecture:checkpoint:{step}", 13)
            if new:  # the checkpoint this barrier saved drops into the history
                self._drop(self.items[-2:])
            x = card.right() + 14

    def _drop(self, items: list[Any]) -> None:
        self.settle()
        drop = QVariantAnimation()
        drop.setDuration(DROP_MS)
        drop.setStartValue(-DROP_PX)
        drop.setEndValue(0.0)
        drop.setEasingCurve(QEasingCurve.Type.OutBounce)
        starts = [item.pos() for item in items]

        def moved(dy: float) -> None:
            for item, start in zip(items, starts, strict=True):
                if shiboken6.isValid(item):
                    item.setPos(start.x(), start.y() + dy)
                    item.setOpacity(1.0 - abs(dy) / (DROP_PX * 1.5))

        drop.valueChanged.connect(moved)
        moved(-DROP_PX)
        drop.start()
        self._animation = drop

    def settle(self) -> None:
        """End a running animation at its last frame (before an export grabs the scene)."""
        if self._animation is not None:
            self._animation.setCurrentTime(self._animation.duration())
            self._animation.stop()
            self._animation = None

    # ------------------------------------------------------------------ shapes

    def _channel(self, name: str) -> QRectF | None:
        """The channel's mailbox: the scene's own, else one beside the graph (in a column to
        its right, or in a row under a graph wider than tall), with its version."""
        rect = self.channel_rect(name) if self.channel_rect is not None else None
        if rect is not None:
            return rect
        if name in self._column:
            return self._column[name]
        title = f"✉ {name}  {vtext(self._versions.get(name))}"
        kind = self.kinds.get(name)  # its merge rule: LastValue, reducer: add...
        title_face, kind_face = self._face(11, True), self._face(10)
        line, small = QFontMetricsF(title_face), QFontMetricsF(kind_face)
        width = max(MAILBOX_W, line.horizontalAdvance(title) + 16,
                    small.horizontalAdvance(kind or "") + 16)  # fmt: skip
        height = max(MAILBOX_H, line.height() + (small.height() if kind else 0) + 12)
        if self._row:
            x = self._graph.left() + sum(r.width() + 30 for r in self._column.values())
            rect = QRectF(x, self._graph.bottom() + 40, width, height)
        else:
            y = self._graph.top() + sum(r.height() + 70 for r in self._column.values())
            rect = QRectF(self._graph.right() + self._wide() + 70, y, width, height)  # past cards
        self._column[name] = rect
        box = self._shape(rect, QColor("#0D47A1"), QColor("#FFFFFF"), f"lecture:mailbox:{name}")
        box.setZValue(5)
        self._text(title, rect.left() + 8, rect.top() + 5, 11, True, QColor("#0D47A1"))
        if kind:
            at = rect.top() + 5 + line.height()
            self._text(kind, rect.left() + 8, at, 10, False, INK).setData(0, f"lecture:kind:{name}")
        return rect

    def _beside(self, channel: str, text: str, color: QColor, name: str,
                wide: bool = False) -> None:  # fmt: skip
        """A card by the channel's mailbox, stacked after the earlier ones: under a state key's
        on the compiled view (right of it in the canvas's column), over the lower edge of a
        mailbox among the nodes (branch:to:X, a join), clear of its neighbours."""
        rect = self._channel(channel)
        if rect is None:
            return
        key = f"{rect.x()},{rect.y()}"
        compiled = self.channel_rect is not None
        inline = compiled and channel.startswith(("branch:to:", "join:", "__"))
        under = compiled or self._row
        if inline:
            x, top = rect.left() + 8, rect.bottom() - 4  # over its edge, under its version
        elif under:  # rows of mailboxes leave room under each
            x, top = rect.left() + 8, rect.bottom() + 6
        else:
            x, top = rect.right() + 12, rect.top()
        y = self._stacks.get(key, top)
        width = rect.width() - 16 if under else self._wide()  # within its column
        if wide:  # a long text (an error): as wide as a node's card, over the gap beside it
            width = max(width, self._wide())
        card = self._card(x, y, text, color, name, 12 if inline else 13 if under else 14, width)
        self._stacks[key] = card.bottom() + 4

    def _below(self, node: str, text: str, color: QColor, name: str) -> None:
        rect = self.node_rect(node)
        if rect is None:
            return
        key = f"node:{node}"
        if self.channel_rect is None and not self._row:  # a tall drawing: right of the node
            x, top, width = rect.right() + 12, rect.top(), self._wide()
        else:  # as wide as the node and a little more: parallel nodes' cards stay apart
            x, top, width = rect.left() - 10, rect.bottom() + 8, rect.width() + 20
        y = self._stacks.get(key, top)
        card = self._card(x, y, text, color, name, 13, width)
        self._stacks[key] = card.bottom() + 4

    def _card(self, x: float, y: float, text: str, color: QColor, name: str,
              size: float = 14, width: float | None = None) -> QRectF:  # fmt: skip
        """A filled card with white text, wrapped at `width` (its whole text in `data(1)`)."""
        face = self._face(size, True)
        label = QGraphicsSimpleTextItem(wrap(text, face, width) if width else text)
        label.setData(1, text)
        label.setFont(face)
        label.setBrush(QBrush(QColor("#FFFFFF")))
        r = label.boundingRect()
        rect = QRectF(x, y, r.width() + 16, r.height() + 10)
        self._shape(rect, color, color, name).setZValue(6)
        label.setPos(x + 8, y + 5)
        label.setData(0, f"{name}:text")
        self._add(label, 6.5)
        return rect

    def _frame(self, rect: QRectF | None, color: QColor, name: str) -> None:
        if rect is None:
            return
        fill = QColor(color)
        fill.setAlpha(45)
        self._shape(rect.adjusted(-7, -7, 7, 7), color, fill, name, 4.5).setZValue(0.8)

    def _shape(self, rect: QRectF, pen: QColor, brush: QColor, name: str,
               width: float = 2.0) -> QGraphicsPathItem:  # fmt: skip
        path = QPainterPath()
        path.addRoundedRect(rect, 8, 8)
        item = QGraphicsPathItem(path)
        item.setPen(QPen(pen, width))
        item.setBrush(QBrush(brush))
        item.setData(0, name)
        return self._add(item, 5)

    def _text(self, text: str, x: float, y: float, size: float, bold: bool,
              color: QColor) -> QGraphicsSimpleTextItem:  # fmt: skip
        item = QGraphicsSimpleTextItem(text)
        item.setFont(self._face(size, bold))
        item.setBrush(QBrush(color))
        item.setPos(x, y)
        return self._add(item, 6.5)

    def _add(self, item: Any, z: float) -> Any:
        item.setZValue(z)
        self.scene.addItem(item)
        self.items.append(item)
        return item
