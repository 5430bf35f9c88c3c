"""Spec text shown as written. Qt renders a QLabel's text, a tooltip or a message box as HTML
when it looks like HTML, so a node label `<img src=...>` or a finding quoting `<b>` would be
markup; these helpers keep such text plain wherever spec-provided text is shown."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel


def plain_label(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def plain_tip(text: str) -> str:
    """A tooltip showing `text` literally (tooltips have no plain-text switch: escape it)."""
    if not GuiQt.mightBeRichText(text):
        return text
    return "<qt>" + html.escape(text).replace("\n", "<br>") + "</qt>"
