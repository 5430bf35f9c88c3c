"""What the inspector's forms share: the editor to push edits through, where to say what went
wrong, and a memory of which row was selected (forms are rebuilt after every edit)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtWidgets import QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from studio.editor import Editor
from studio.panels.code_editor import CodeEditor, CodeField
from studio.plain import plain_label


@dataclass
class Host:
    editor: Editor
    say: Callable[[str], None]
    """Show a message in the inspector's error line (empty clears it)."""
    rebuild: Callable[[], None]
    """Redraw the inspector soon (another row was selected: show its fields)."""
    memory: dict[Any, Any] = field(default_factory=dict)
    """(owner id, what) -> selected row, kept across rebuilds of the form."""


def line_edit(name: str, value: str, commit: Callable[[str], bool], say: Callable[[str], None],
              placeholder: str = "") -> QLineEdit:  # fmt: skip
    """A one-line field that commits on Enter or focus-out when its text changed."""
    edit = QLineEdit(value)
    edit.setObjectName(name)
    edit.setPlaceholderText(placeholder)
    edit.setCursorPosition(0)  # a text longer than the field shows its start, not its end
    shown = {"value": value}

    def finished() -> None:
        if edit.text() != shown["value"]:
            say("")
            if commit(edit.text()):
                shown["value"] = edit.text()

    edit.editingFinished.connect(finished)
    return edit


def read_only(name: str, value: str, tip: str = "") -> QLineEdit:
    """A one-line field shown, selectable and copyable, never edited here (what the program's
    code decides, such as the library call that made a tool or node)."""
    edit = QLineEdit(value)
    edit.setObjectName(name)
    edit.setReadOnly(True)
    edit.setToolTip(tip or value)
    edit.setCursorPosition(0)
    return edit


def code_field(name: str, mode: str, value: str, commit: Callable[[str], Any],
               say: Callable[[str], None]) -> CodeField:  # fmt: skip
    editor = CodeEditor(mode, value, name)
    editor.committed.connect(commit)
    editor.refused.connect(say)
    return CodeField(editor)


def buttons(*specs: tuple[str, str, Callable[[], Any]]) -> QWidget:
    """A row of push buttons: (objectName, text, on click)."""
    row = QWidget()
    box = QHBoxLayout(row)
    box.setContentsMargins(0, 0, 0, 0)
    for name, text, action in specs:
        button = QPushButton(text)
        button.setObjectName(name)
        button.clicked.connect(lambda _=False, a=action: a())
        box.addWidget(button)
    box.addStretch(1)
    return row


def json_value(text: str) -> Any:
    """A typed value: JSON when it parses (numbers, true, lists...), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def indented_form() -> tuple[QWidget, QFormLayout]:
    """A form under its list or checkbox (the selected row's fields, say), indented."""
    page = QWidget()
    form = QFormLayout(page)
    form.setContentsMargins(12, 0, 0, 0)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    return page, form


def select_row(host: Host, key: Any, row: int) -> None:
    """Remember the row a list's user selected and redraw the form to show its fields."""
    if row >= 0 and row != host.memory.get(key):
        host.memory[key] = row
        host.rebuild()


FINDING_PATH = "findingPath"
"""A label's property: the JSON path whose validator findings it shows (InspectorPanel)."""


def problem_label(path: str) -> QLabel:
    """Where the validator's findings about `path` (and below it) show, in the form itself;
    hidden while there are none."""
    label = plain_label()
    label.setObjectName("elementProblem")
    label.setWordWrap(True)
    label.setStyleSheet("color: #B26A00")
    label.setProperty(FINDING_PATH, path)
    label.hide()
    return label


def section(title: str) -> tuple[QWidget, QFormLayout]:
    page = QWidget()
    form = QFormLayout(page)
    form.setContentsMargins(0, 6, 0, 0)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    label = QLabel(title)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    form.addRow(label)
    return page, form
