"""What every run panel shares: how values are shown, and small widget builders."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QPushButton,
    QTableWidget,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from engine.pregel.trace_format import to_json
from studio.i18n import translate

CHANGED = QColor("#FFF2B3")
INTERNAL = QColor("#7A8290")
MONO = QFont("DejaVu Sans Mono")
MONO.setStyleHint(QFont.StyleHint.Monospace)


def show(value: Any, limit: int = 160) -> str:
    text = to_json(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown_or_dash(value: Any, limit: int = 160) -> str:
    """A value, or `—` for none (an empty channel, or a mailbox like `branch:to:X` that carries
    no payload)."""
    return "—" if value is None else show(value, limit)


def pretty(value: Any, indent: int | None = 2) -> str:
    """`value` as JSON text, indented (`indent=None`: on one line)."""
    return json.dumps(json.loads(to_json(value)), indent=indent, ensure_ascii=False)


def vbox(widget: QWidget) -> QVBoxLayout:
    layout = QVBoxLayout(widget)
    layout.setContentsMargins(4, 4, 4, 4)
    layout.setSpacing(4)
    return layout


def button(name: str, text: str, slot, tip: str = "") -> QPushButton:
    made = QPushButton(text)
    made.setObjectName(name)
    made.setToolTip(tip)
    made.clicked.connect(slot)
    return made


def combo(name: str, slot, items: tuple[str, ...] = ()) -> QComboBox:
    combo = QComboBox()
    combo.setObjectName(name)
    combo.addItems(list(items))
    combo.currentIndexChanged.connect(slot)
    return combo


def json_object(text: str, what: str) -> tuple[dict | None, str]:
    """Parse `text` as a JSON object: (value, "") or (None, why not)."""
    try:
        value = json.loads(text or "{}")
    except ValueError as exc:
        return None, translate("run.widgets", "{what} is not JSON: {exc}").format(
            what=what, exc=exc
        )
    if not isinstance(value, dict):
        return None, translate("run.widgets", "{what} must be a JSON object").format(what=what)
    return value, ""


def rows_view(name: str, model: Any, selection: QAbstractItemView.SelectionMode,
               edit: QAbstractItemView.EditTrigger) -> QTreeView:  # fmt: skip
    """A tree view of whole rows over `model` (rows drawn only as they scroll into view)."""
    view = QTreeView()
    view.setObjectName(name)
    view.setModel(model)
    view.setUniformRowHeights(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(selection)
    view.setEditTriggers(edit)
    return view


def table(name: str, columns: list[str]) -> QTableWidget:
    made = QTableWidget(0, len(columns))
    made.setObjectName(name)
    made.setHorizontalHeaderLabels([translate("headers", c) for c in columns])  # keys: English
    made.verticalHeader().setVisible(False)
    made.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    made.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    made.horizontalHeader().setStretchLastSection(True)
    made.setWordWrap(False)
    made.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    made.verticalHeader().setDefaultSectionSize(22)
    return made
