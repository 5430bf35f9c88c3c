"""Lecture mode (View → Lecture mode, F11, `lectureModeAction`): large type everywhere, the
panels included, black on white, only the canvas (or the compiled view), the run toolbar and
the lecture panel on screen, sized for a 1280×720 projector. Off again, the window's docks and
style come back as they were."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QToolBar, QToolButton

from studio.i18n import translate
from studio.lecture.course import lesson_for
from studio.lecture.export import export_phases, export_step
from studio.lecture.panel import LecturePanel
from studio.lecture.player import Player
from studio.lecture.readable import READABLE_PX

LECTURE_QSS = """
QWidget { font-size: %(body)gpt; color: #000000; }
QMainWindow, QScrollArea, QScrollArea > QWidget > QWidget, #lecturePanel { background: #FFFFFF; }
QDockWidget { color: #FFFFFF; font-weight: bold; }
QDockWidget::title { background: #000000; padding: 4px 8px; }
QPushButton, QToolButton { font-weight: bold; border: 2px solid #000000; border-radius: 4px;
    padding: 3px 10px; background: #FFFFFF; }
QPushButton:disabled, QToolButton:disabled { color: #6B6B6B; border-color: #9E9E9E; }
QToolButton:checked { background: #FFD54F; }
QHeaderView::section { font-weight: bold; background: #E0E0E0; border: 1px solid #000000; }
#lectureLessonTitle { font-size: %(title)gpt; font-weight: bold; }
#lectureLessonText { font-size: %(body)gpt; }
#lecturePhaseTitle { font-size: %(phase)gpt; font-weight: bold; color: #E65100; }
#lecturePhaseText { font-size: %(body)gpt; }
#lecturePanel QPushButton { font-size: %(button)gpt; }
"""
"""15 pt reads from the back of a room at 1280×720; titles larger; strong borders."""
SIZES = {"body": 15, "title": 19, "phase": 23, "button": 14}
ZOOM_STEP, ZOOM_RANGE = 1.15, (0.6, 2.5)
"""The presenter's zoom (Ctrl + / Ctrl -): a step, and how far it goes either way."""


def lecture_qss(zoom: float = 1.0) -> str:
    """The lecture style with its type sizes times the presenter's zoom."""
    return LECTURE_QSS % {name: round(size * zoom, 1) for name, size in SIZES.items()}


PANEL_WIDTH = 430


class LectureMode(QObject):
    def __init__(self, window: Any, compiled_view: Any) -> None:
        super().__init__(window)
        self.window = window
        self.compiled_view = compiled_view
        self.panel = LecturePanel()
        self.dock = QDockWidget(translate("lecture.mode", "Lecture"), window)
        self.dock.setObjectName("lectureDock")
        self.dock.setWidget(self.panel)
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.NoDockWidgetFeatures)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.dock.hide()  # not one of the editor's docks: it shows in lecture mode only
        self.player = Player(window, compiled_view)
        self.on = False
        self._saved: QByteArray | None = None
        self._minimap = True
        self._hidden: list[Any] = []
        """Run toolbar actions lecture mode hides (threads, durability, breakpoints)."""
        self._size = None
        self.zoom = 1.0
        """The presenter's zoom: the canvas's smallest text and the panel's type, together."""
        self.keys: list[QAction] = []
        self._wire()
        window.installEventFilter(self)

    def _wire(self) -> None:
        p, player = self.panel, self.player
        p.play_requested.connect(lambda: (player.play(), p.set_playing(player.playing)))
        p.pause_requested.connect(lambda: (player.pause(), p.set_playing(False)))
        p.next_requested.connect(player.next_phase)
        p.speed_changed.connect(player.set_speed)
        p.export_step_requested.connect(self.ask_export_step)
        p.export_phases_requested.connect(self.ask_export_phases)
        player.shown.connect(p.show_phase)
        p.language_changed.connect(player.retell)
        player.shown.connect(lambda _phase: p.set_playing(player.playing))
        for name, keys, slot in (
            ("lectureNextAction", "PgDown", player.next_phase),  # a clicker's Page Down / Up
            ("lecturePreviousAction", "PgUp", player.previous_phase),
            ("lectureZoomInAction", QKeySequence.StandardKey.ZoomIn, self.zoom_in),
            ("lectureZoomOutAction", QKeySequence.StandardKey.ZoomOut, self.zoom_out),
        ):  # fmt: skip
            action = QAction(self.window)
            action.setObjectName(name)
            action.setShortcut(QKeySequence(keys))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.setEnabled(False)
            action.triggered.connect(slot)
            self.window.addAction(action)
            self.keys.append(action)
        p.buttons["lectureNextButton"].setToolTip(
            translate("lecture.mode", "The next phase (Page Down; Page Up goes back)")
        )
        self.window.document.reset.connect(self._lesson)
        # a run raises its docks: in lecture mode the canvas and the panel keep the screen
        self.window.runner.session.busy_changed.connect(lambda _b: self.on and self._hide_docks())
        p.set_playing(False)

    def _hide_docks(self) -> None:
        shown = [dock for dock in self.window.docks if dock.isVisible()]
        for dock in shown:
            dock.hide()
        if shown and self._size is not None:  # back to the size before they grew it
            QTimer.singleShot(0, lambda: self.on and self.window.resize(self._size))

    def eventFilter(self, watched: Any, event: QEvent) -> bool:
        """Docks a run raises, shown for a moment in large type, grow the window; the size it
        has while only the lecture shows (the projector's, or the user's) is the one kept."""
        if self.on and watched is self.window and event.type() == QEvent.Type.Resize:
            if not any(dock.isVisible() for dock in self.window.docks):
                self._size = event.size()
        return False

    def _chrome(self, shown: bool) -> None:
        """The main toolbar, and the run toolbar's thread, durability and breakpoint widgets."""
        self._main_toolbar().setVisible(shown)
        runner = self.window.runner
        if not shown:
            keep = {runner.run_button, runner.step_button, runner.continue_button,
                    runner.stop_button, self.window.findChild(QToolButton, "compiledViewButton")}  # fmt: skip
            bar = runner.toolbar
            self._hidden = [
                a for a in bar.actions() if a.isVisible() and bar.widgetForAction(a) not in keep
            ]
        for action in self._hidden:
            action.setVisible(shown)

    def _lesson(self) -> None:
        lesson = lesson_for(self.window.document.spec)
        if lesson is not None:
            self.panel.show_lesson(
                translate("lecture.course", lesson.title), translate("lecture.course", lesson.text)
            )
        else:
            spec = self.window.document.spec
            self.panel.show_lesson(
                spec.name or translate("lecture.mode", "Untitled graph"), spec.description
            )

    def set_on(self, on: bool) -> None:
        if on == self.on:
            return
        self.on = on
        window = self.window
        for action in self.keys:
            action.setEnabled(on)
        for name in ("zoom_in", "zoom_out"):  # Ctrl + and Ctrl - are the presenter's zoom now
            window.actions_by_name[name].setEnabled(not on)
        if on:
            self._saved = window.saveState()
            window.setStyleSheet(lecture_qss(self.zoom))
            self._hide_docks()
            self._size = window.size()
            self._chrome(False)
            self._minimap = self.window.actions_by_name["minimap"].isChecked()
            self.window.actions_by_name["minimap"].setChecked(False)
            self.window.toggle_minimap()
            self._lesson()
            self.dock.show()
            window.resizeDocks([self.dock], [PANEL_WIDTH], Qt.Orientation.Horizontal)
            self.compiled_view.pinned = True
            self.compiled_view.compiled.clear_live()
            self.player.active = True
            self.player.quiet_overlay()
            player = self.player
            if player.phase is not None:
                player.show_phase(player.index)
            elif player.book.phases:  # a run made before: how it ended (a conflict, say)
                self.panel.show_ended(player.book.phases[-1])
            QTimer.singleShot(0, self._fit)
        else:
            self.player.pause()
            self.player.active = False
            self.player.canvas_stage.clear()
            self.player.compiled_stage.clear()
            self.compiled_view.pinned = False
            window.scene.set_text_floor(0.0)  # text scales with the zoom again
            self.compiled_view.compiled.set_floor(0.0)
            self.player.canvas_stage.floor = self.player.compiled_stage.floor = 0.0
            window.setStyleSheet("")
            self.dock.hide()
            self._chrome(True)
            self.window.actions_by_name["minimap"].setChecked(self._minimap)
            self.window.toggle_minimap()
            if self._saved is not None:
                window.restoreState(self._saved)
            QTimer.singleShot(0, self._fit)

    def ask_export_step(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self.window, translate("lecture.mode", "Export this step"), translate("lecture.mode", "step.png"),
                                              translate("lecture.mode", "PNG image (*.png);;SVG drawing (*.svg)"))  # fmt: skip
        if path:
            self._say(
                translate("lecture.mode", "Exported {export_step}").format(
                    export_step=export_step(self.window, Path(path))
                )
            )

    def ask_export_phases(self) -> None:
        if self.player.phase is None:
            return self._say(
                translate("lecture.mode", "No superstep shown yet: Play or Next phase first")
            )
        folder = QFileDialog.getExistingDirectory(
            self.window, translate("lecture.mode", "Export the step's phases to")
        )
        if folder:
            written = export_phases(self.window, self.player, Path(folder))
            self._say(
                translate("lecture.mode", "Exported {len} images to {folder}").format(
                    len=len(written), folder=folder
                )
            )

    def _say(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 6000)

    def _main_toolbar(self) -> QToolBar:
        return self.window.findChild(QToolBar, "mainToolbar")

    def zoom_in(self) -> None:
        self.zoom_by(ZOOM_STEP)

    def zoom_out(self) -> None:
        self.zoom_by(1 / ZOOM_STEP)

    def zoom_by(self, factor: float) -> None:
        """The presenter's zoom: the panel's type and the least size of the views' text."""
        low, high = ZOOM_RANGE
        self.zoom = max(low, min(high, self.zoom * factor))
        self.window.setStyleSheet(lecture_qss(self.zoom))
        self.player.readable_px = READABLE_PX * self.zoom
        self._fit()

    def _fit(self) -> None:
        if self.on:
            self.player.fit_canvas()
        else:
            self.window.view.fit()
        if self.compiled_view.isVisible():
            self.compiled_view.fit()
