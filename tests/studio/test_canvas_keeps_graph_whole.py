"""The Teach workspace at 1280×720, a run waiting at an interrupt: the answer bar above the canvas
takes ~150 px of it, and the graph that was shown whole fell below the canvas's new bottom (its
END and last cards cut off, the minimap over what was left). A canvas that showed every card
keeps showing every card when it shrinks, and the minimap is over none of them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect

from studio.canvas.items.node_item import PortedItem
from tests.studio.test_run_steps import click, idle, open_template
from tests.studio.test_workspaces_fit import choose, sized

pytestmark = pytest.mark.gui


def test_the_answer_bar_leaves_the_whole_graph_in_view_at_1280x720(qtbot, window):
    win = sized(qtbot, window, (1280, 720))
    open_template(qtbot, win, "approval")
    choose(qtbot, win, "teach")
    view = win.view
    view.fit()
    assert view.shows_all()
    height = view.viewport().height()
    click(qtbot, win, "runButton")
    idle(qtbot, win)
    bar = win.runner.interrupt_panel
    qtbot.waitUntil(bar.isVisible, timeout=3000)
    qtbot.waitUntil(lambda: view.viewport().height() < height - 60, timeout=3000)
    qtbot.wait(50)  # the minimap is placed once the resizes settle
    assert view.shows_all()
    if view.minimap.isVisible():
        over = QRect(view.minimap.mapTo(view.viewport(), QPoint(0, 0)), view.minimap.size())
        area = view.mapToScene(over).boundingRect()
        assert not [i for i in win.scene.items(area) if isinstance(i, PortedItem)]
