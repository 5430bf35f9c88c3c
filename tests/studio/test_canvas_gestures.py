"""Build a graph with mouse and keyboard: palette drops, port drags, inspector typing, shortcuts."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit

from graphspec.io import dumps_spec
from studio.canvas.view import PALETTE_MIME
from tests.studio.conftest import settle
from tests.studio.helpers import center, click, drag

pytestmark = pytest.mark.gui


def drop_from_palette(win, payload: str, scene_pos: QPointF) -> None:
    """What a drag from the palette delivers to the canvas: the palette's own mime data."""
    item = win.palette.item_for(payload)
    mime: QMimeData = win.palette.mimeData([item])
    assert mime.hasFormat(PALETTE_MIME)
    view = win.view
    local = view.mapFromScene(scene_pos)
    actions = Qt.DropAction.CopyAction
    for cls in (QDragEnterEvent, QDragMoveEvent):
        QApplication.sendEvent(
            view.viewport(),
            cls(local, actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier),
        )
    QApplication.sendEvent(
        view.viewport(),
        QDropEvent(
            QPointF(local), actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
        ),
    )


def port(win, node_id: str, which: str) -> QPointF:
    return win.scene.ported(node_id).port_pos(which)


def test_build_a_graph_by_hand(window, qtbot):
    win = window
    win.new_graph()
    view = win.view
    drop_from_palette(win, "node:set_state", view.mapToScene(QPoint(300, 150)))
    drop_from_palette(win, "node:set_state", view.mapToScene(QPoint(300, 400)))
    drop_from_palette(win, "node:agent", view.mapToScene(QPoint(600, 400)))
    spec = win.document.spec
    assert [n.id for n in spec.nodes] == ["set_state", "set_state_2", "agent"]
    assert spec.agents[0].id == "agent"
    # middleware dropped on the agent card, in order
    for name in ("pii", "model_retry", "summarization"):
        drop_from_palette(win, f"middleware:{name}", center(win.scene.nodes["agent"]))
    assert [m.name for m in win.document.spec.agents[0].middleware] == [
        "pii",
        "model_retry",
        "summarization",
    ]
    # connect START -> set_state -> set_state_2 -> END by dragging from output ports
    drag(view, port(win, "__start__", "out"), center(win.scene.nodes["set_state"]))
    drag(view, port(win, "set_state", "out"), center(win.scene.nodes["set_state_2"]))
    drag(
        view,
        port(win, "agent", "out"),
        center(win.scene.nodes["set_state_2"]),
        Qt.KeyboardModifier.ControlModifier,
    )
    drag(view, port(win, "set_state_2", "out"), center(win.scene.terminals["__end__"]))
    spec = win.document.spec
    assert spec.entry == ["set_state"] and spec.finish == ["set_state_2"]
    assert [(e.sources, e.target) for e in spec.edges] == [(["set_state", "agent"], "set_state_2")]
    assert any(item.look.style == "join" for item in win.scene.edges.values())
    # select by clicking, then type in the inspector
    click(view, center(win.scene.nodes["set_state"]))
    assert win.scene.selected_ids() == ["set_state"]
    label = win.inspector.findChild(QLineEdit, "inspector_label")
    label.setFocus()
    QTest.keyClicks(label, "Greet")
    QTest.keyClick(label, Qt.Key.Key_Return)
    assert win.document.spec.node("set_state").label == "Greet"
    values = win.inspector.findChild(QLineEdit.__mro__[1], "inspector_values")  # a CodeEditor
    values.setFocus()
    QTest.keyClicks(values, "greeting = 'hi ' + name")
    values.commit()
    assert win.document.spec.node("set_state").values == {"greeting": "'hi ' + name"}
    # rename with the id field
    click(view, center(win.scene.nodes["set_state_2"]))
    ident = win.inspector.findChild(QLineEdit, "inspector_id")
    ident.setFocus()
    ident.selectAll()
    QTest.keyClicks(ident, "done")
    QTest.keyClick(ident, Qt.Key.Key_Return)
    spec = win.document.spec
    assert spec.finish == ["done"] and spec.edges[0].target == "done"
    # state keys through the state-schema editor
    QTest.mouseClick(
        win.state_panel.findChild(type(win.state_panel).__mro__[0].__mro__[0], "addKeyButton")
        or win.state_panel.findChildren(object, "addKeyButton")[0],
        Qt.MouseButton.LeftButton,
    )
    assert [k.name for k in win.document.spec.state] == ["key"]
    built = dumps_spec(win.document.spec)
    stack = win.editor.stack
    while stack.canUndo():
        win.actions_by_name["undo"].trigger()
    assert win.document.spec.nodes == []
    while stack.canRedo():
        win.actions_by_name["redo"].trigger()
    assert dumps_spec(win.document.spec) == built
    settle(qtbot, win)


def test_keyboard_delete_copy_paste_and_rename(window, qtbot):
    win = window
    assert win.open_path(
        win.start_page.template_items()[0].data(Qt.ItemDataRole.UserRole), bundled=True
    )
    view = win.view
    first = win.document.spec.nodes[0].id
    click(view, center(win.scene.nodes[first]))
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert f"{first}_2" in win.scene.nodes
    QTest.keyClick(view, Qt.Key.Key_Delete)
    assert f"{first}_2" not in win.scene.nodes
    QTest.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert f"{first}_2" in win.scene.nodes
    click(view, center(win.scene.nodes[first]))
    QTest.keyClick(view, Qt.Key.Key_F2)
    editor = view.findChild(QLineEdit, "renameEditor")
    assert editor is not None
    editor.selectAll()
    QTest.keyClicks(editor, "renamed")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    assert win.document.spec.node("renamed") is not None


def test_move_snaps_and_reconnect(window):
    win = window
    win.open_path("templates/router.json", bundled=True)
    view = win.view
    a = win.scene.nodes["a"]
    old = a.pos()
    drag(view, center(a), center(a) + QPointF(47, 33))
    pos = win.document.spec.node("a").position
    assert (pos.x, pos.y) != (old.x(), old.y())
    assert pos.x % 20 == 0 and pos.y % 20 == 0
    # reconnect: drag the END of the b -> END edge onto c
    edge = win.scene.edges["finish:b"]
    end = win.scene.ported("__end__").port_pos("in")
    assert edge.near_target(end)
    edge.setSelected(True)  # b and c both end at END: the selected edge is the one dragged
    drag(view, end, center(win.scene.nodes["c"]))
    assert "finish:b" not in win.scene.edges
    assert any(e.sources == ["b"] and e.target == "c" for e in win.document.spec.edges)


def test_zoom_fit_layout_and_minimap(window, qtbot):
    win = window
    win.open_path("templates/fanout_join.json", bundled=True)
    view = win.view
    before = view.zoom()
    win.actions_by_name["zoom_in"].trigger()
    assert view.zoom() > before
    win.actions_by_name["fit"].trigger()
    win.actions_by_name["layout"].trigger()
    qtbot.waitUntil(lambda: not win.editor.layout_running)
    assert win.editor.stack.count() == 1
    win.view.minimap.refresh()
    assert not win.view.minimap._pixmap.isNull()
