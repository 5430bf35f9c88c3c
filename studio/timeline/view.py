"""The timeline drawn: supersteps as bands on a time axis, each task a bar in a lane, its model
and tool calls as marks along the bar's foot.

Painted by hand over the visible range only: the steps on screen are found by bisecting their
axis offsets, and when more of them are on screen than the view has pixel columns, each column
draws the one step under it. So a run of 10,000 supersteps paints as fast as one of ten.
"""

from __future__ import annotations

import math
import zlib
from functools import cache

from PySide6.QtCore import QEvent, QPoint, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip

from studio.i18n import translate
from studio.timeline.model import StepSpan, TaskBar, Timeline, tokens_of

RULER = 18
"""Pixels of the time ruler at the top."""
LANE = 20
LANE_GAP = 3
TOP = RULER + 16
"""Where the first lane starts: under the ruler and the steps' names."""
MIN_BAR = 2.0
"""The narrowest a bar is drawn (a cached task takes no time)."""
CALL_COLORS = {"model": QColor("#1565C0"), "tool": QColor("#2E7D32")}
BAND = (QColor("#F7F8FA"), QColor("#EEF0F4"))
CURRENT = QColor(30, 136, 229, 45)
CURSOR = QColor("#1E88E5")
FONT = QFont()
FONT.setPointSizeF(8.0)


@cache
def node_color(name: str) -> QColor:
    """One soft colour per node name, the same in every run (callers derive, never change it)."""
    return QColor.fromHsv(zlib.crc32(name.encode()) % 360, 70, 235)


def nice_tick(seconds: float) -> float:
    """1, 2 or 5 times a power of ten, at least `seconds`."""
    if seconds <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(seconds))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= seconds)


@cache
def column_color(name: str) -> QColor:
    return node_color(name).darker(115)


def seconds_text(value: float) -> str:
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


class TimelineView(QAbstractScrollArea):
    """`scrubbed(index)` when the user picks a step (click, drag, arrow keys);
    `menu_requested(bar, global point)` on a right-click on a task's bar."""

    scrubbed = Signal(int)
    menu_requested = Signal(object, QPoint)

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("timelineView")
        self.timeline = Timeline()
        self.scale = 400.0
        """Pixels per second of axis."""
        self.current = -1
        self.following = True
        """Fitting a growing run to the view (until the user zooms or scrolls)."""
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setMinimumHeight(TOP + 2 * (LANE + LANE_GAP))
        self.horizontalScrollBar().valueChanged.connect(self.viewport().update)
        self.verticalScrollBar().valueChanged.connect(self.viewport().update)
        self.horizontalScrollBar().sliderPressed.connect(self._stop_following)

    # ------------------------------------------------------------------ data and zoom

    def set_timeline(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.current = -1
        self.following = True
        self.refresh()

    def refresh(self) -> None:
        """The timeline grew: fit it while following, else keep the view where it is."""
        if self.following:
            self.fit()
        else:
            self._ranges()
        self.viewport().update()

    def fit(self) -> None:
        width = max(self.viewport().width() - 8, 50)
        self.scale = width / self.timeline.length if self.timeline.length > 0 else 400.0
        self._ranges()
        self.horizontalScrollBar().setValue(0)
        self.viewport().update()

    def zoom(self, factor: float, anchor: float | None = None) -> None:
        """Scale the axis by `factor` around the pixel `anchor` (the view's middle)."""
        self.following = False
        anchor = self.viewport().width() / 2 if anchor is None else anchor
        at = (self.horizontalScrollBar().value() + anchor) / self.scale
        self.scale = min(max(self.scale * factor, 1e-3), 1e7)
        self._ranges()
        self.horizontalScrollBar().setValue(round(at * self.scale - anchor))
        self.viewport().update()

    def _stop_following(self) -> None:
        self.following = False

    def _ranges(self) -> None:
        total = math.ceil(self.timeline.length * self.scale) + 8
        bar = self.horizontalScrollBar()
        bar.setRange(0, max(0, total - self.viewport().width()))
        bar.setPageStep(self.viewport().width())
        lanes = max((self.timeline.lay_out(s) for s in self._visible_spans()), default=1)
        height = TOP + lanes * (LANE + LANE_GAP)
        self.verticalScrollBar().setRange(0, max(0, height - self.viewport().height()))
        self.verticalScrollBar().setPageStep(self.viewport().height())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.refresh()

    # ------------------------------------------------------------------ geometry

    def _x(self, axis: float) -> float:
        return axis * self.scale - self.horizontalScrollBar().value()

    def _axis(self, x: float) -> float:
        return (x + self.horizontalScrollBar().value()) / self.scale

    def _visible(self) -> tuple[int, int]:
        """First and last index of the steps on screen (last < first: none)."""
        steps = self.timeline.steps
        if not steps:
            return 0, -1
        first = max(0, self.timeline.index_at(self._axis(0)))
        last = min(
            len(steps) - 1, max(0, self.timeline.index_at(self._axis(self.viewport().width())))
        )
        return first, last

    def _visible_spans(self) -> list[StepSpan]:
        first, last = self._visible()
        if last - first + 1 > self.viewport().width():
            return []  # drawn a column at a time: one lane
        return self.timeline.steps[first : last + 1]

    def _bar_rect(self, span: StepSpan, bar: TaskBar) -> QRectF:
        x0 = self._x(span.axis(bar.start))
        x1 = self._x(span.axis(bar.end if bar.end is not None else span.end))
        y = TOP + bar.lane * (LANE + LANE_GAP) - self.verticalScrollBar().value()
        return QRectF(x0, y, max(x1 - x0, MIN_BAR), LANE)

    def step_rect(self, index: int) -> QRectF:
        span = self.timeline.steps[index]
        x0, x1 = self._x(span.offset), self._x(span.offset + span.duration)
        return QRectF(x0, 0, max(x1 - x0, 1.0), self.viewport().height())

    def bar_at(self, pos: QPoint) -> tuple[int, TaskBar] | None:
        """The step index and task bar under `pos` (viewport pixels)."""
        index = self.timeline.index_at(self._axis(pos.x()))
        if index < 0:
            return None
        span = self.timeline.steps[index]
        self.timeline.lay_out(span)
        rects = [(self._bar_rect(span, bar), bar) for bar in span.tasks]
        hits = [(abs(r.center().x() - pos.x()), i) for i, (r, _b) in enumerate(rects)
                if r.adjusted(-2, 0, 2, 0).contains(pos.x(), pos.y())]  # fmt: skip
        return (index, rects[min(hits)[1]][1]) if hits else None  # bars a pixel apart: the nearest

    def bar_center(self, bar: TaskBar) -> QPoint:
        """Where a bar is drawn (scrolled into view first), for tests and keyboard menus."""
        index = self.timeline.index_of(bar.step) if not bar.ns else None
        if index is None:
            index = next(i for i, s in enumerate(self.timeline.steps) if bar in s.tasks)
        span = self.timeline.steps[index]
        if bar.duration * self.scale < 12:  # too thin to point at: zoom in on it
            self.scale = min(12 / max(bar.duration, 1e-6), 1e7)
            self._ranges()
            self.horizontalScrollBar().setValue(round(span.axis(bar.start) * self.scale - 100))
            self.following = False
        self.ensure_visible(index)
        self.timeline.lay_out(span)
        return self._bar_rect(span, bar).center().toPoint()

    def ensure_visible(self, index: int) -> None:
        span = self.timeline.steps[index]
        left, right = self._x(span.offset), self._x(span.offset + span.duration)
        if left < 0 or right > self.viewport().width():
            self.following = False
            bar = self.horizontalScrollBar()
            bar.setValue(round(span.offset * self.scale - self.viewport().width() / 3))
        self.viewport().update()

    # ------------------------------------------------------------------ painting

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self.viewport())
        painter.setFont(FONT)
        painter.fillRect(self.viewport().rect(), QColor("#FFFFFF"))
        self._ruler(painter)
        first, last = self._visible()
        if last < first:
            painter.setPen(QColor("#5F6B7A"))
            painter.drawText(self.viewport().rect().adjusted(8, TOP, -8, 0),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
                             translate("timeline.view", "No run yet: Run or Step draws its supersteps here."))  # fmt: skip
            return
        if last - first + 1 > self.viewport().width():
            self._columns(painter)
        else:
            for index in range(first, last + 1):
                self._step(painter, index)
        if 0 <= self.current < len(self.timeline.steps):
            rect = self.step_rect(self.current)
            painter.fillRect(rect, CURRENT)
            painter.setPen(QPen(CURSOR, 2))
            painter.drawLine(rect.topRight(), rect.bottomRight())
        painter.end()

    def _ruler(self, painter: QPainter) -> None:
        width = self.viewport().width()
        tick = nice_tick(90 / self.scale)
        start = math.floor(self._axis(0) / tick) * tick
        painter.setPen(QColor("#8A94A3"))
        value = start
        while self._x(value) < width:
            x = self._x(value)
            painter.drawLine(round(x), RULER - 5, round(x), RULER)
            painter.drawText(round(x) + 3, RULER - 6, seconds_text(value) if value else "0")
            value += tick
        painter.drawLine(0, RULER, width, RULER)

    def _columns(self, painter: QPainter) -> None:
        """More steps than pixels: each pixel column shows the step under it, one lane high."""
        steps = self.timeline.steps
        for x in range(self.viewport().width()):
            index = self.timeline.index_at(self._axis(x))
            if index < 0:
                continue
            span = steps[index]
            if self._axis(x) > span.offset + span.duration + 1 / self.scale:
                continue  # a pause between steps
            name = span.tasks[0].name if span.tasks else ""
            painter.setPen(column_color(name))
            painter.drawLine(x, TOP, x, TOP + LANE)

    def _step(self, painter: QPainter, index: int) -> None:
        span = self.timeline.steps[index]
        band = self.step_rect(index)
        painter.fillRect(band.adjusted(0, RULER + 1, 0, 0), BAND[index % 2])
        if band.width() > 44:
            painter.setPen(QColor("#8A94A3"))
            painter.drawText(band.adjusted(3, RULER + 1, 0, 0).topLeft() + QPoint(0, 11),
                             translate("timeline.view", "step {step}").format(step=span.step))  # fmt: skip
        self.timeline.lay_out(span)
        for bar in span.tasks:
            self._bar(painter, span, bar)

    def _bar(self, painter: QPainter, span: StepSpan, bar: TaskBar) -> None:
        rect = self._bar_rect(span, bar)
        fill = node_color(bar.name)
        if bar.cached:
            fill = QColor("#E0E0E0")
        painter.fillRect(rect, fill)
        edge = (
            QColor("#C62828")
            if bar.error
            else QColor("#B45F06")
            if bar.interrupts
            else fill.darker(140)
        )
        pen = QPen(edge, 2 if bar.error or bar.interrupts else 1)
        if bar.cached:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawRect(rect)
        for call in bar.calls:
            if call.started is None or call.ended is None:
                continue
            x0, x1 = self._x(span.axis(call.started)), self._x(span.axis(call.ended))
            painter.fillRect(QRectF(x0, rect.bottom() - 5, max(x1 - x0, MIN_BAR), 4),
                             CALL_COLORS.get(call.kind, CURSOR))  # fmt: skip
        if rect.width() > 24:
            painter.setPen(QColor("#1F2933"))
            painter.drawText(rect.adjusted(3, 0, -2, -4), Qt.AlignmentFlag.AlignVCenter,
                             bar_label(bar))  # fmt: skip

    # ------------------------------------------------------------------ input

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.button() == Qt.MouseButton.LeftButton:
            self._scrub_to(event.position().x())
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._scrub_to(event.position().x())
        super().mouseMoveEvent(event)

    def _scrub_to(self, x: float) -> None:
        index = self.timeline.index_at(self._axis(x))
        if self.timeline.steps:
            self.scrubbed.emit(min(max(index, 0), len(self.timeline.steps) - 1))

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt's name
        moves = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}
        if event.key() in moves and self.timeline.steps:
            index = min(max(self.current + moves[event.key()], 0), len(self.timeline.steps) - 1)
            self.scrubbed.emit(index)
            return
        super().keyPressEvent(event)

    def wheelEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Ctrl+wheel zooms around the mouse; the wheel alone scrolls along the axis."""
        steps = event.angleDelta().y() / 120
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.zoom(1.25**steps, event.position().x())
        else:
            self.following = False
            bar = self.horizontalScrollBar()
            bar.setValue(bar.value() - round(steps * self.viewport().width() / 8))
        event.accept()

    def contextMenuEvent(self, event) -> None:  # noqa: N802 - Qt's name
        found = self.bar_at(event.pos())
        if found is not None:
            self.scrubbed.emit(found[0])
            self.menu_requested.emit(found[1], event.globalPos())

    def viewportEvent(self, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.ToolTip:
            found = self.bar_at(event.pos())
            if found is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), bar_tip(*found, self.timeline), self)
            return True
        return super().viewportEvent(event)


def bar_label(bar: TaskBar) -> str:
    marks = [bar.name]
    if bar.retries:
        marks.append(f"↻{bar.retries}")
    if bar.cached:
        marks.append(translate("timeline.view", "cached"))
    if bar.interrupts:
        marks.append("⏸")
    if bar.error:
        marks.append("✕")
    return " ".join(marks)


def bar_tip(index: int, bar: TaskBar, timeline: Timeline) -> str:
    """A task's card: where and when it ran, what happened, and each call's latency and tokens."""
    span = timeline.steps[index]
    step = (translate("timeline.view", "superstep {step} (in {graph})").format(step=bar.step, graph=bar.where.rsplit(" › ", 1)[0])
            if bar.ns else translate("timeline.view", "superstep {step}").format(step=bar.step))  # fmt: skip
    lines = [bar.where, step,
             translate("timeline.view", "start {start}, took {took}").format(
                 start=seconds_text(span.axis(bar.start)), took=seconds_text(bar.duration))]  # fmt: skip
    if bar.retries:
        lines.append(
            translate("timeline.view", "retried {count} time(s)").format(count=bar.retries)
        )
    if bar.cached:
        lines.append(translate("timeline.view", "cache hit: read from the node's cache, not run"))
    if bar.interrupts:
        lines.append(
            translate("timeline.view", "interrupted ({count})").format(count=bar.interrupts)
        )
    if bar.error:
        lines.append(translate("timeline.view", "raised {error}").format(error=bar.error))
    for call in bar.calls:
        text = translate("timeline.view", "{kind} call {index}").format(
            kind=call.kind, index=call.call_index + 1
        )
        if call.latency is not None:
            text += f": {seconds_text(call.latency)}"
        if (tokens := tokens_of(call)) is not None:
            text += (
                ", "
                + ", ".join(f"{v} {k.split('_')[0]}" for k, v in tokens.items())
                + translate("timeline.view", " tokens")
            )
        if call.served != "live":
            text += f" ({call.served})"
        lines.append(text)
    return "\n".join(lines)
