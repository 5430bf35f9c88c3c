"""The compare view's chart: each scorer's score distribution before and after, side by side
(how many examples scored 0-0.2, ..., 0.8-1), drawn from `Comparison.distributions`."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QWidget

from graphspec.evals.compare import BUCKETS, Comparison

BEFORE, AFTER = QColor("#9AA3AF"), QColor("#2F6FDB")
LABEL_WIDTH, ROW_HEIGHT, AXIS, BAR = 150, 46, 14, 20


class ScoreChart(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("scoreChart")
        self.distributions: dict[str, tuple[list[int], list[int]]] = {}

    def show_comparison(self, comparison: Comparison) -> None:
        self.distributions = comparison.distributions()
        self.setMinimumHeight(self.sizeHint().height())
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(600, AXIS + ROW_HEIGHT * max(1, len(self.distributions)))

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        width = max(1, self.width() - LABEL_WIDTH - 8)
        slot = width / BUCKETS
        painter.setPen(self.palette().text().color())
        for i in range(BUCKETS):  # the ranges, on top
            painter.drawText(QRectF(LABEL_WIDTH + i * slot, 0, slot, AXIS),
                             Qt.AlignmentFlag.AlignCenter,
                             f"{i / BUCKETS:.1f}–{(i + 1) / BUCKETS:.1f}")  # fmt: skip
        for i, (label, color) in enumerate((("before", BEFORE), ("after", AFTER))):
            painter.fillRect(QRectF(4 + i * 64, 3, 9, 9), color)
            painter.drawText(QRectF(16 + i * 64, 0, 50, AXIS), Qt.AlignmentFlag.AlignVCenter,
                             label)  # fmt: skip
        most = max((max(b + a) for b, a in self.distributions.values()), default=1) or 1
        for row, (name, (before, after)) in enumerate(self.distributions.items()):
            top = AXIS + row * ROW_HEIGHT
            painter.setPen(self.palette().text().color())
            painter.drawText(QRectF(0, top + 10, LABEL_WIDTH - 6, ROW_HEIGHT - 14),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, name)  # fmt: skip
            for i in range(BUCKETS):
                for j, (counts, color) in enumerate(((before, BEFORE), (after, AFTER))):
                    height = (ROW_HEIGHT - 20) * counts[i] / most  # room for the count
                    x = LABEL_WIDTH + i * slot + slot / 2 - BAR - 1 + j * (BAR + 2)
                    rect = QRectF(x, top + ROW_HEIGHT - 4 - height, BAR, height)
                    painter.fillRect(rect, color)
                    if counts[i]:
                        painter.drawText(QRectF(x - 4, rect.top() - 14, BAR + 8, 13),
                                         Qt.AlignmentFlag.AlignCenter, str(counts[i]))  # fmt: skip
        painter.end()
