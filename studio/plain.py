"""Spec text shown as written. Qt renders a QLabel's text, a tooltip or a message box as HTML
when it looks like HTML, so a node label `<img src=...>` or a finding quoting `<b>` would be
markup; these helpers keep such text plain wherever spec-provided text is shown."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel, QSizePolicy


def plain_label(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def plain_tip(text: str) -> str:
    """A tooltip showing `text` literally (tooltips have no plain-text switch: escape it)."""
    if not GuiQt.mightBeRichText(text):
        return text
    return "<qt>" + html.escape(text).replace("\n", "<br>") + "</qt>"


class LineLabel(QLabel):
    """One line high at its font: lecture mode's larger type (a style sheet) changes it."""

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.setFixedHeight(self.fontMetrics().height() + 2)


def line_label(text: str = "") -> QLabel:
    """A plain label kept to one line cut at its width, top-aligned (a long status or error
    neither widens nor heightens its dock); `set_line` puts all of it in the tooltip too."""
    label = LineLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
    label.setFixedHeight(label.fontMetrics().height() + 2)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    set_line(label, text)
    return label


def set_line(label: QLabel, text: str) -> None:
    label.setText(text)
    label.setToolTip(plain_tip(text) if text else "")
