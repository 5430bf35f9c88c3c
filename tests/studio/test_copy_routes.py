"""Copy, paste and duplicate carry the routers among the copied nodes, pointing at the copies;
the inspector names START and END as drawn."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit

from graphspec.compiler import compile_spec
from graphspec.templates import TEMPLATES_DIR
from tests.studio.conftest import settle


def _routers_from(win, source):
    return [e for e in win.document.spec.conditional_edges if e.source == source]


def test_duplicate_carries_the_router_and_the_copy_runs_on_its_own_nodes(window, qtbot):
    win = window
    assert win.open_path(TEMPLATES_DIR / "router.json", bundled=True)
    settle(qtbot, win)
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # select all
    QTest.keyClick(win.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)  # duplicate
    spec = win.document.spec
    copies = {n.id for n in spec.nodes} - {"a", "b", "c"}
    assert len(copies) == 3
    (new_a,) = [n for n in copies if n.startswith("a")]
    (router,) = _routers_from(win, new_a)
    (original,) = _routers_from(win, "a")
    assert original.path_map == ["b", "c"]  # the expression returns 'b' or 'c' ...
    assert set(router.path_map) == {"b", "c"}  # ... which the copy maps to the copies
    assert set(router.path_map.values()) == copies - {new_a}
    app = compile_spec(spec.model_copy(update={
        "nodes": [n for n in spec.nodes if n.id in copies],
        "edges": [e for e in spec.edges if e.target in copies],
        "conditional_edges": [router],
        "entry": [new_a],
        "finish": sorted(copies - {new_a}),
    }))  # fmt: skip
    ran = [
        name
        for part in app.stream({"total": 10, "visited": []}, stream_mode="updates")
        for name in part
    ]
    assert ran == [new_a, next(n for n in copies if n.startswith("b"))]  # total 20 > 5: b's copy
    QTest.keyClick(win.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [e.id for e in win.document.spec.conditional_edges] == [original.id]


def test_copy_and_paste_leave_behind_a_router_whose_targets_are_not_copied(window, qtbot):
    win = window
    assert win.open_path(TEMPLATES_DIR / "router.json", bundled=True)
    settle(qtbot, win)
    win.scene.select_ids(["a", "b"])  # c stays behind: a copied router would route to the original
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(win.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert len(win.document.spec.nodes) == 5 and len(win.document.spec.conditional_edges) == 1
    assert "conditional_edges" not in QApplication.clipboard().text()


def test_a_pasted_send_router_sends_to_the_pasted_target(qtbot):
    from graphspec.model import GraphSpec
    from studio.document import GraphDocument
    from studio.editor import Editor

    spec = GraphSpec.model_validate({
        "name": "fan", "state": [{"name": "items", "type": "list"}, {"name": "out", "type": "list", "reducer": "add"}],
        "nodes": [{"id": "split", "kind": "set_state"},
                  {"id": "work", "kind": "set_state", "values": {"out": "[subject]"}}],
        "entry": ["split"],
        "conditional_edges": [{"id": "fan_out", "source": "split",
                               "router": {"kind": "send", "target": "work", "over": "items", "input": {"subject": "item"}}}],
    })  # fmt: skip
    editor = Editor(GraphDocument(spec))
    ids = editor.paste(editor.copy(["split", "work"]))
    pasted = editor.document.spec.conditional_edges[-1]
    assert pasted.id != "fan_out" and pasted.source in ids and pasted.router.target in ids
    editor.stack.undo()
    assert editor.document.spec.conditional_edges == spec.conditional_edges


def test_the_inspector_names_start_and_end_as_drawn(window, qtbot):
    win = window
    assert win.open_path(TEMPLATES_DIR / "router.json", bundled=True)
    win.scene.select_ids(["entry:a"])
    win.convert_to_router()  # START's edge becomes a router after START
    (router,) = _routers_from(win, "__start__")
    win.scene.select_ids([router.id])
    after = win.inspector.findChild(QLineEdit, "inspector_source")
    assert after.text() == "START"
    after.setFocus()
    after.selectAll()
    QTest.keyClicks(after, "START")
    QTest.keyClick(after, Qt.Key.Key_Return)
    assert _routers_from(win, "__start__")  # typed START still means START
