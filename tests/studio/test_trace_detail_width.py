"""Debug at 1280×720: the trace's Superstep column was a fixed 320 px, most of it empty beside
"Plan" and "Pending writes saved", while the Detail column cut what a step wrote
(`"code: prege… pregel"`). The Superstep column is as wide as its rows in view need (at most
45% of the tree), and the Detail column has the rest."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QTreeView

from studio.run.trace_panel import FIRST_SHARE
from tests.studio.test_run_steps import run_template
from tests.studio.test_workspaces_fit import choose, sized

pytestmark = pytest.mark.gui


def shown(tree: QTreeView, parent: QModelIndex = QModelIndex()) -> list[QModelIndex]:
    """The rows the tree shows expanded (column 0)."""
    model, found = tree.model(), []
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        found.append(index)
        if tree.isExpanded(index):
            found += shown(tree, index)
    return found


def test_the_detail_column_gets_what_the_superstep_column_does_not_need(qtbot, window):
    win = sized(qtbot, window, (1280, 720))
    run_template(qtbot, win, "fanout_join")
    choose(qtbot, win, "debug")
    qtbot.wait(300)  # the newest step opened
    tree = win.findChild(QTreeView, "traceTree")
    port = tree.viewport().width()
    assert tree.columnWidth(0) <= port * FIRST_SHARE + 1
    rows = shown(tree)
    details = [i.siblingAtColumn(1).data() for i in rows]
    wrote = '"code: pregel | docs: pregel | web: pregel"'
    assert wrote in details
    room = tree.columnWidth(1) - 2 * tree.style().pixelMetric(
        tree.style().PixelMetric.PM_FocusFrameHMargin
    )
    assert tree.fontMetrics().horizontalAdvance(wrote) < room, (tree.columnWidth(1), room)
    plan = next(i for i in rows if i.data() == "Plan")  # a short label keeps its whole text
    assert tree.visualRect(plan).width() >= tree.fontMetrics().horizontalAdvance("Plan")
