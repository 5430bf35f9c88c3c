"""Wire the teaching tools into the main window: View → Compiled runtime view (F6) and the
run toolbar's `compiledViewButton`."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QToolButton

from studio.lecture.compiled_view import CompiledView


def install(window: Any) -> None:
    view = CompiledView(window)
    window.compiled_view = view
    action = QAction("Compiled runtime &view", window)
    action.setObjectName("compiledViewAction")
    action.setCheckable(True)
    action.setShortcut(QKeySequence("F6"))
    action.setToolTip("Toggle between the graph you draw and the graph compile() builds: nodes "
                      "and channel mailboxes, no edges (F6)")  # fmt: skip
    action.toggled.connect(view.show_over_canvas)
    window.addAction(action)
    window.actions_by_name["compiled_view"] = action
    window.menus["&View"].addAction(action)
    button = QToolButton()
    button.setObjectName("compiledViewButton")
    button.setDefaultAction(action)
    button.setText("Compiled view")
    window.runner.toolbar.addSeparator()
    window.runner.toolbar.addWidget(button)
