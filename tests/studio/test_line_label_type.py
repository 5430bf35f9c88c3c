"""A one-line label (a panel's status, the NodeInterrupt bar's note) is one line high at the
type it is shown in: lecture mode's style sheet enlarges the type, and a label sized once, at
the usual type, showed the top half of its line."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QVBoxLayout, QWidget

from studio.plain import line_label

pytestmark = pytest.mark.gui


def test_a_line_label_grows_and_shrinks_with_its_type(qtbot):
    holder = QWidget()
    qtbot.addWidget(holder)
    label = line_label("No answer reaches it: it runs again once its state is changed")
    QVBoxLayout(holder).addWidget(label)
    holder.show()
    usual = label.height()
    holder.setStyleSheet("QWidget { font-size: 20pt; }")  # as lecture mode does, on the window
    qtbot.waitUntil(lambda: label.height() >= label.fontMetrics().height() > usual)
    holder.setStyleSheet("")
    qtbot.waitUntil(lambda: label.height() == usual)
