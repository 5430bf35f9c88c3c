"""Zoomed far out the canvas draws one cached overview picture: clicking, rubber band, dragging
and edits must work as when the items paint themselves, and the picture must show the edits."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem

from bench.canvas import generated_spec
from studio.canvas.items import EdgeItem
from studio.canvas.items.node_item import KIND_COLORS, SELECTED
from studio.canvas.overview import OVERVIEW_ZOOM
from tests.studio.helpers import center, click, drag
from tests.studio.test_canvas_gestures import drop_from_palette

pytestmark = pytest.mark.gui
NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents


@pytest.fixture
def big(window, qtbot):
    """A generated 200-node graph, fitted: far below the overview zoom."""
    window._start_editing(generated_spec(200, 300), None, trusted=True)
    window.view.fit()
    qtbot.wait(10)
    assert window.view.zoom() < OVERVIEW_ZOOM
    return window


def pixel(view, scene_pos: QPointF) -> QColor:
    return view.viewport().grab().toImage().pixelColor(view.mapFromScene(scene_pos))


def near(color: QColor, *wanted: QColor | str) -> bool:
    """The pixel is one of the wanted colours, give or take antialiasing."""
    return any(max(abs(color.red() - QColor(w).red()), abs(color.green() - QColor(w).green()),
                   abs(color.blue() - QColor(w).blue())) <= 12 for w in wanted)  # fmt: skip


def frame_pixel(node) -> QPointF:
    """A point on the top edge of a card, where the overview draws its selection frame."""
    return QPointF(node.sceneBoundingRect().center().x(), node.pos().y())


def test_zoomed_out_items_do_not_paint_and_the_overview_stands_in(big):
    scene, view = big.scene, big.view
    assert not scene.items_paint
    assert all(item.flags() & NO_CONTENTS for item in scene.projected())
    node = scene.nodes["n7"]
    assert near(pixel(view, center(node)), KIND_COLORS["set_state"])
    assert scene.edge_layer.flags() & NO_CONTENTS
    # zoomed back in, the items paint themselves again (the edges through the edge layer)
    view.zoom_by(1.0 / view.zoom())
    assert scene.items_paint
    assert not any(
        item.flags() & NO_CONTENTS for item in scene.projected() if not isinstance(item, EdgeItem)
    )
    assert not scene.edge_layer.flags() & NO_CONTENTS
    view.fit()
    assert not scene.items_paint and scene.edge_layer.flags() & NO_CONTENTS


def test_click_selects_a_node_while_zoomed_far_out(big):
    scene, view = big.scene, big.view
    click(view, center(scene.nodes["n45"]))
    assert scene.selected_ids() == ["n45"]
    assert big.inspector.isVisible()
    # the selection shows on the overview at once: the card's frame turns blue
    edge = frame_pixel(scene.nodes["n45"])
    assert near(pixel(view, edge), SELECTED)
    click(view, view.mapToScene(QPoint(4, 4)))  # empty canvas
    assert scene.selected_ids() == []
    assert not near(pixel(view, edge), SELECTED)


def test_rubber_band_selects_while_zoomed_far_out(big):
    scene, view = big.scene, big.view
    start = view.mapToScene(QPoint(3, 3))  # empty canvas above the graph
    end = scene.nodes["n41"].sceneBoundingRect().bottomRight() + QPointF(4, 4)
    drag(view, start, end, steps=6)
    picked = {i for i in scene.selected_ids() if i in scene.nodes}
    assert {"n0", "n1", "n40", "n41"} <= picked
    assert "n199" not in picked and "n43" not in picked
    assert near(pixel(view, frame_pixel(scene.nodes["n40"])), SELECTED)
    assert not near(pixel(view, frame_pixel(scene.nodes["n199"])), SELECTED)


def test_drag_a_node_while_zoomed_far_out(big):
    scene, view = big.scene, big.view
    node = scene.nodes["n120"]
    old = big.document.spec.node("n120").position
    drag(view, center(node), center(node) + QPointF(0, 300))
    pos = big.document.spec.node("n120").position
    assert (pos.x, pos.y) != (old.x, old.y) and pos.y > old.y
    # the card is ~4 px tall at this zoom: its centre row may be an antialiased edge pixel
    at = center(scene.nodes["n120"])
    assert any(near(pixel(view, at + QPointF(0, dy / view.zoom())), KIND_COLORS["set_state"], SELECTED)
               for dy in (-1, 0, 1))  # fmt: skip


def test_an_edit_while_zoomed_out_shows_on_the_overview(big, qtbot):
    scene, view = big.scene, big.view
    renders = view.overview.renders
    below = scene.nodes["n199"].sceneBoundingRect().bottomLeft() + QPointF(0, 600)
    assert pixel(view, below + QPointF(100, 24)) == QColor("#F6F7F9")
    drop_from_palette(big, "node:agent", below)
    added = [n for n in scene.nodes if n.startswith("agent")]
    assert added
    scene.clearSelection()
    qtbot.wait(10)
    assert near(pixel(view, center(scene.nodes[added[0]])), KIND_COLORS["agent"])
    assert view.overview.renders > renders
    # undo takes it off the picture again
    big.editor.stack.undo()
    qtbot.wait(10)
    assert added[0] not in scene.nodes
    assert pixel(view, below + QPointF(100, 24)) == QColor("#F6F7F9")


def test_pan_and_zoom_reuse_the_picture(big):
    view = big.view
    view.viewport().repaint()
    renders = view.overview.renders
    bar = view.horizontalScrollBar()
    for step in (30, -30, 30):
        bar.setValue(bar.value() + step)
        view.viewport().repaint()
    for _ in range(3):
        view.zoom_by(1.1)
        view.viewport().repaint()
    assert view.overview.renders == renders
    view.overview._settled()  # the zoom settled: one sharp picture at the new scale
    view.viewport().repaint()
    assert view.overview.renders == renders + 1


def test_export_draws_the_items_themselves_while_zoomed_out(big):
    scene = big.scene
    image = QImage(400, 300, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    scene.render(painter, QRectF(0, 0, 400, 300), scene.nodes["n0"].sceneBoundingRect())
    painter.end()
    assert not scene.items_paint  # back to the overview afterwards
    colors = {image.pixelColor(x, y).name() for x in range(0, 400, 7) for y in range(0, 300, 7)}
    assert len(colors) > 3  # a card with its header, text and border, not a flat block
