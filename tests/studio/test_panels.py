"""Panels on their own: code/expression editors mark errors; the state-schema editor edits keys."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QComboBox, QLineEdit

from graphspec.templates import TEMPLATES_DIR
from studio.panels.code_editor import CodeEditor, check, parse_assignments

pytestmark = pytest.mark.gui


@pytest.mark.parametrize(("mode", "text", "line"), [
    ("expression", "__import__('os')", 1),
    ("expression", "total +", 1),
    ("python", "def f(state):\n    return {\n", 2),
    ("assignments", "a = 1\nb = open('x')", 2),
    ("assignments", "just words", 1),
])  # fmt: skip
def test_errors_are_marked_on_their_line(qtbot, mode, text, line):
    editor = CodeEditor(mode, text)
    qtbot.addWidget(editor)
    assert editor.problem is not None and editor.problem[0] == line
    assert editor.extraSelections()
    editor.setPlainText("total + 1" if mode != "python" else "x = 1\n")
    if mode == "assignments":
        editor.setPlainText("total = total + 1")
    assert editor.problem is None and not editor.extraSelections()


def test_a_bad_text_is_never_committed(qtbot):
    editor = CodeEditor("expression", "1")
    qtbot.addWidget(editor)
    seen = []
    editor.committed.connect(seen.append)
    editor.setPlainText("import os")
    editor.commit()
    editor.setPlainText("total > 3")
    editor.commit()
    assert seen == ["total > 3"]
    assert check("text", "anything at all") is None
    assert parse_assignments("a = 1\n\nb = a + 2") == {"a": "1", "b": "a + 2"}


def test_inspector_tooltips_are_the_spec_field_descriptions(window):
    from graphspec.model import GraphSpec, InterruptNode

    win = window
    win.open_path(TEMPLATES_DIR / "router.json", bundled=True)
    win.inspector.show_ids([])  # the graph's own fields
    limit = win.inspector.findChild(QLineEdit, "inspector_recursion_limit")
    assert limit.toolTip() == GraphSpec.model_fields["recursion_limit"].description != ""
    assert InterruptNode.model_fields["resume_key"].description  # a docstring reaches the model


def test_state_schema_editor_edits_keys(window):
    win = window
    win.open_path(TEMPLATES_DIR / "router.json", bundled=True)
    panel = win.state_panel
    combo = panel.findChild(QComboBox, "state_reducer_0")
    combo.setCurrentText("add")
    assert win.document.spec.state[0].reducer == "add"
    panel.table.item(0, 4).setCheckState(panel.table.item(0, 4).checkState().__class__.Unchecked)
    panel.table.item(0, 3).setCheckState(panel.table.item(0, 3).checkState().__class__.Unchecked)
    key = win.document.spec.state[0]
    assert not key.input and not key.output
    assert panel.table.item(0, 5).text() == "yes"  # private
    assert panel.set_default("total", "7")
    assert win.document.spec.state[0].default == 7
    panel.table.setCurrentCell(1, 0)
    assert panel.move_key(-1)
    assert [k.name for k in win.document.spec.state] == ["visited", "total"]
    panel.table.item(0, 0).setText("not valid!")
    assert [k.name for k in win.document.spec.state] == ["visited", "total"]  # refused
    while win.editor.stack.canUndo():
        win.editor.stack.undo()
    assert (
        win.document.spec.state[0].name == "total" and win.document.spec.state[0].reducer == "none"
    )
