"""Wire the teaching tools into the main window: View → Compiled runtime view (F6) with the
run toolbar's `compiledViewButton`, and View → Lecture mode (F11, `lectureModeAction`)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QToolButton

from studio.i18n import translate
from studio.lecture.compiled_view import CompiledView
from studio.lecture.mode import LectureMode


def _toggle(window: Any, name: str, text: str, keys: str, tip: str, slot) -> QAction:
    action = QAction(text, window)
    action.setObjectName(f"{name}Action")
    action.setCheckable(True)
    action.setShortcut(QKeySequence(keys))
    action.setToolTip(tip)
    action.toggled.connect(slot)
    window.addAction(action)
    window.menus["&View"].addAction(action)
    return action


def install(window: Any) -> None:
    view = CompiledView(window)
    window.compiled_view = view
    compiled = _toggle(window, "compiledView", translate("lecture.install", "Compiled runtime &view"), "F6",
                       translate("lecture.install", "Toggle between the graph you draw and the graph compile() builds: nodes "
                       "and channel mailboxes, no edges (F6)"), view.show_over_canvas)  # fmt: skip
    window.actions_by_name["compiled_view"] = compiled
    button = QToolButton()
    button.setObjectName("compiledViewButton")
    button.setDefaultAction(compiled)
    button.setText(translate("lecture.install", "Compiled view"))
    window.runner.toolbar.addSeparator()
    window.runner.toolbar.addWidget(button)
    lecture = LectureMode(window, view)
    window.lecture = lecture
    window.actions_by_name["lecture_mode"] = _toggle(
        window, "lectureMode", translate("lecture.install", "&Lecture mode"), "F11",
        translate("lecture.install", "Large type, high contrast, the superstep played phase by phase (F11)"), lecture.set_on)  # fmt: skip
