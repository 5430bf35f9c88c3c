"""A Pregel built by hand opens as an editable spec (issue 33): its nodes' cards say which
channels run them and which they write, the inspector rewires a node, and the run follows the
new wiring."""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit

from tests.programs.test_programs import HERE
from tests.studio.code_programs import open_program, step_to_end

PROGRAM = HERE / "lg_pregel_two_nodes.py"


def test_a_hand_built_pregel_is_drawn_wired_and_rewired_in_the_inspector(qtbot, window):
    open_program(qtbot, window, PROGRAM, "app")
    assert window.document.code is None and window.document.spec.pregel  # a spec, editable
    assert "on a" in window.scene.nodes["node1"].look.lines
    assert "writes c" in window.scene.nodes["node2"].look.lines

    step_to_end(qtbot, window, {"a": "x"})
    assert window.runner.view.values == {"b": "xx", "c": "xxxx"}

    window.scene.select_ids(["node1"])
    write_to = window.inspector.findChild(QLineEdit, "inspector_write_to")
    write_to.setText("c")  # node1 writes c, not b: node2, run by b, never runs
    write_to.editingFinished.emit()
    assert window.document.spec.node("node1").channels.write_to == ["c"]
    assert not window.editor.stack.isClean()  # an edit like any other: undoable, unsaved
    assert "writes c" in window.scene.nodes["node1"].look.lines

    step_to_end(qtbot, window, {"a": "y"})
    assert window.runner.view.values == {"c": "yy"}
