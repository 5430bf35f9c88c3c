"""Wire the teaching tools into the main window: View → Compiled runtime view (F6) with the
run toolbar's `compiledViewButton`, and View → Lecture mode (F11, `lectureModeAction`)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QToolButton

from studio.i18n import translate


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
    """The two toggles and the toolbar button now; the compiled view and lecture mode
    (`window.compiled_view`, `window.lecture`) are made, and their modules loaded, right after
    the window's first paint or when first used (issue 32.1)."""

    def build() -> None:
        from studio.lecture.compiled_view import CompiledView
        from studio.lecture.mode import LectureMode

        window.compiled_view = CompiledView(window)
        window.lecture = LectureMode(window, window.compiled_view)

    window.add_lazy("lecture", build, "compiled_view", "lecture")
    compiled = _toggle(window, "compiledView", translate("lecture.install", "Compiled runtime &view"), "F6",
                       translate("lecture.install", "Toggle between the graph you draw and the graph compile() builds: nodes "
                       "and channel mailboxes, no edges (F6)"), lambda on: window.compiled_view.show_over_canvas(on))  # fmt: skip
    window.actions_by_name["compiled_view"] = compiled
    button = QToolButton()
    button.setObjectName("compiledViewButton")
    button.setDefaultAction(compiled)
    button.setText(translate("lecture.install", "Compiled view"))
    window.runner.toolbar.addSeparator()
    window.runner.toolbar.addWidget(button)
    window.actions_by_name["lecture_mode"] = _toggle(
        window, "lectureMode", translate("lecture.install", "&Lecture mode"), "F11",
        translate("lecture.install", "Large type, high contrast, the superstep played phase by phase (F11)"),
        lambda on: window.lecture.set_on(on))  # fmt: skip
