"""Edges are drawn by the scene's edge layer (one item, batched paths, a device cache) while the
edge items stay in the index with no contents: clicking, selecting, deleting, dragging and zoom
gestures must look and work as when every edge painted itself."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QGraphicsItem

from bench.canvas import generated_spec
from studio.canvas.items.node_item import SELECTED
from studio.canvas.overview import BACKGROUND
from tests.studio.helpers import click

pytestmark = pytest.mark.gui
NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
CACHE = QGraphicsItem.CacheMode


@pytest.fixture
def graph(window, qtbot):
    window._start_editing(generated_spec(200, 300), None, trusted=True)
    qtbot.wait(10)
    return window


def at_zoom(win, zoom: float) -> None:
    view = win.view
    view.zoom_by(zoom / view.zoom())
    view._zoom_settle.stop()
    view._zoom_settled()


def lone_edge_point(scene):
    """An edge and a point on its curve with nothing else near (no card, no other edge)."""
    for edge in scene.edges.values():
        for t in (0.5, 0.35, 0.65):
            p = edge._path.pointAtPercent(t)
            near = scene.items(QRectF(p - QPointF(8, 8), p + QPointF(8, 8)))
            if near == [edge]:
                return edge, p
    raise AssertionError("no edge stands alone")


def around(view, scene_pos: QPointF, radius: int = 2) -> list[QColor]:
    image = view.viewport().grab().toImage()
    c = view.mapFromScene(scene_pos)
    return [image.pixelColor(c.x() + dx, c.y() + dy) for dx in range(-radius, radius + 1)
            for dy in range(-radius, radius + 1)]  # fmt: skip


def inked(colors: list[QColor]) -> bool:
    """Something darker than the background and the grid is drawn there (a 1-px curve)."""
    return any(c.red() + c.green() + c.blue() < 3 * 200 for c in colors)


def alike(a: QImage, b: QImage, tolerance: int = 8) -> bool:
    """The same picture, give or take antialiasing rounding (a device cache keeps the fraction of
    a pixel its item sat at when it was made; a missing or extra curve differs by 60 and more)."""
    if a.size() != b.size():
        return False
    pa, pb = bytes(a.constBits()), bytes(b.constBits())
    return pa == pb or max(abs(x - y) for x, y in zip(pa, pb, strict=True)) <= tolerance


def bluish(colors: list[QColor]) -> bool:
    return any(abs(c.red() - SELECTED.red()) < 50 and abs(c.green() - SELECTED.green()) < 50
               and abs(c.blue() - SELECTED.blue()) < 50 for c in colors)  # fmt: skip


@pytest.mark.parametrize("zoom", [0.45, 1.0])
def test_click_selects_an_edge_the_layer_draws(graph, zoom):
    scene, view = graph.scene, graph.view
    at_zoom(graph, zoom)
    edge, p = lone_edge_point(scene)
    view.centerOn(p)
    assert scene.items_paint and edge.flags() & NO_CONTENTS
    assert not scene.edge_layer.flags() & NO_CONTENTS
    assert scene.edge_layer not in scene.items(p)  # the layer is never hit
    assert inked(around(view, p)) and not bluish(around(view, p))
    click(view, p)
    assert scene.selected_ids() == [edge.element_id]
    assert bluish(around(view, p))  # drawn selected at once
    scene.clearSelection()
    assert not bluish(around(view, p))


def test_delete_and_undo_repaint_the_edge_layer(graph, qtbot):
    scene, view = graph.scene, graph.view
    at_zoom(graph, 1.0)
    edge, p = lone_edge_point(scene)
    element = edge.element_id
    view.centerOn(p)
    click(view, p)
    graph.delete_selection()
    assert element not in {e.element_id for e in scene.edges.values()}
    assert not inked(around(view, p))
    graph.editor.stack.undo()
    assert element in {e.element_id for e in scene.edges.values()}
    assert inked(around(view, p))


def test_dragging_a_node_redraws_only_its_edges(graph):
    scene, view = graph.scene, graph.view
    at_zoom(graph, 1.0)
    edge, p = lone_edge_point(scene)
    view.centerOn(p)
    view.viewport().repaint()
    rebuilds = scene.edge_layer.rebuilds
    target = scene.nodes[edge.look.target]
    target.moveBy(60, 40)  # what a mouse drag does before the release makes it an edit
    view.viewport().repaint()
    assert scene.edge_layer.rebuilds == rebuilds  # only the batches of the moved edges
    moved = edge._path.pointAtPercent(0.5)
    assert moved != p
    assert inked(around(view, moved, 3))
    # the frame equals one drawn from scratch
    before = view.viewport().grab().toImage()
    scene.touch()
    view.viewport().repaint()
    assert scene.edge_layer.rebuilds == rebuilds + 1
    assert alike(view.viewport().grab().toImage(), before)


def test_a_zoom_gesture_scales_cached_cards_then_settles_sharp(graph, qtbot):
    scene, view = graph.scene, graph.view
    at_zoom(graph, 1.0)
    view.centerOn(scene.nodes["n45"])
    view.zoom_by(1.1)
    assert scene.zooming
    assert scene.nodes["n45"].cacheMode() == CACHE.ItemCoordinateCache
    assert scene.edge_layer.cacheMode() == CACHE.NoCache
    view.viewport().repaint()
    qtbot.waitUntil(lambda: not scene.zooming, timeout=2000)
    assert scene.nodes["n45"].cacheMode() == CACHE.DeviceCoordinateCache
    assert scene.edge_layer.cacheMode() == CACHE.DeviceCoordinateCache
    view.viewport().repaint()
    settled = view.viewport().grab().toImage()
    # what a view that never zoomed interactively draws at this transform
    scene.touch()
    for item in scene.nodes.values():
        item.update()
    view.viewport().repaint()
    assert alike(view.viewport().grab().toImage(), settled)


def test_export_draws_the_edges_while_zoomed_in(graph):
    scene = graph.scene
    at_zoom(graph, 1.0)
    edge, p = lone_edge_point(scene)
    image = QImage(200, 200, QImage.Format.Format_ARGB32)
    image.fill(BACKGROUND)
    painter = QPainter(image)
    scene.render(painter, QRectF(0, 0, 200, 200), QRectF(p - QPointF(50, 50), p + QPointF(50, 50)))
    painter.end()
    colors = [image.pixelColor(x, y) for x in range(96, 105) for y in range(96, 105)]
    assert inked(colors)


def test_zooming_out_extends_the_scaled_cards_to_what_comes_into_view(graph):
    scene, view = graph.scene, graph.view
    at_zoom(graph, 1.0)
    view.centerOn(scene.nodes["n45"])
    for _ in range(6):
        view.zoom_by(1 / 1.12)  # 100% -> ~51%, still above the overview
        view.viewport().repaint()
    assert scene.zooming
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    shown = [n for n in scene.nodes.values() if n.sceneBoundingRect().intersects(visible)]
    assert shown and all(n.cacheMode() == CACHE.ItemCoordinateCache for n in shown)
    view._zoom_settle.stop()
    view._zoom_settled()
    assert all(n.cacheMode() == CACHE.DeviceCoordinateCache for n in scene.nodes.values())


def test_the_run_glow_shows_between_the_edges_and_the_cards(graph):
    from studio.run.overlay import RUNNING, RunOverlay

    scene, view = graph.scene, graph.view
    at_zoom(graph, 1.0)
    node = scene.nodes["n45"]
    view.centerOn(node)
    overlay = RunOverlay(scene)
    overlay.set_running(["n45"])
    left = QPointF(
        node.pos().x() - 4, node.sceneBoundingRect().center().y()
    )  # inside the glow's rim
    colors = around(view, left, 1)
    assert any(abs(c.red() - RUNNING.red()) < 40 and abs(c.green() - RUNNING.green()) < 60
               and c.blue() < 140 for c in colors)  # fmt: skip
    overlay.clear()
    assert not any(c.blue() < 140 for c in around(view, left, 1))
