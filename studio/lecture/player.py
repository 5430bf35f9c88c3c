"""Plays a run's supersteps phase by phase (plan, execute, barrier) at a teaching pace.

The run goes at its own speed and reports its trace events (the run session's step
reports); the player keeps their phases (PhaseBook) and shows one at a time on the drawn
canvas and on the compiled view. With lecture mode off it only keeps the reports: the book is
built from them when first read (lecture mode on, Next phase), not on every run, which cost
0.1-0.3 s of GUI time each. Next phase past the last one known steps the run one more
superstep (when it is paused or not started), so Play walks a whole run.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, QRectF, QTimer, Signal

from studio.lecture.phases import Phase, PhaseBook
from studio.lecture.readable import READABLE_PX, close_above, fit_readable
from studio.lecture.stage import Stage

BASE_MS = 2400
"""One phase on screen at speed 1×."""


class Player(QObject):
    shown = Signal(object)  # the Phase now on screen (None: cleared)

    def __init__(self, window: Any, compiled_view: Any) -> None:
        super().__init__(window)
        self.window_ = window
        self.runner = window.runner
        self.compiled_view = compiled_view
        self._book: PhaseBook | None = None
        self._unread: list[tuple[str, Any]] = []
        """Reports not yet read into the book: ("events", events) or ("failed", message)."""
        self._reports: list[tuple[str, Any]] = []
        """Every report of the thread, read again when the language changes (`retell`)."""
        self.index = -1
        self.speed = 1.0
        self.active = False
        """Lecture mode is on: phases are drawn as they come."""
        self.readable_px = READABLE_PX
        """No text on either view is drawn smaller on screen (the presenter's zoom scales it)."""
        self._thread: str | None = None
        self.canvas_stage = Stage(window.scene, self._node_on_canvas)
        compiled = compiled_view.compiled
        self.compiled_stage = Stage(compiled, compiled.node_rect, compiled.channel_rect)
        compiled_view.lecture_fit = self.fit_compiled
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.next_phase)
        self._set_interval()
        session = window.runner.session
        session.stepped.connect(self._stepped)
        session.failed.connect(self._failed)
        session.thread_ready.connect(lambda _view: self.quiet_overlay())
        window.view.installEventFilter(self)  # an interrupt panel above the canvas: fit again
        window.document.reset.connect(self.clear)

    @property
    def book(self) -> PhaseBook:
        """The phases so far, read from the reports kept while nobody looked."""
        if self._book is None:
            self._book = PhaseBook()
        for kind, item in self._unread:
            if kind == "events":
                self._book.add(item)
            else:
                self._book.failed(item)
        self._unread.clear()
        return self._book

    @property
    def phase(self) -> Phase | None:
        return self.book.phases[self.index] if 0 <= self.index < len(self.book.phases) else None

    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    def _node_on_canvas(self, name: str) -> Any:
        item = self.window_.scene.nodes.get(name)
        return item.sceneBoundingRect() if item is not None else None

    # ------------------------------------------------------------------ controls

    def play(self) -> None:
        self.timer.start()
        if self.index + 1 >= len(self.book.phases) or self.index < 0:
            self.next_phase()

    def pause(self) -> None:
        self.timer.stop()

    def set_speed(self, speed: float) -> None:
        self.speed = max(0.1, speed)
        self._set_interval()

    def _set_interval(self) -> None:
        self.timer.setInterval(int(BASE_MS / self.speed))

    def next_phase(self) -> None:
        """The next phase known; past the last, one more superstep of the run."""
        if self.index + 1 < len(self.book.phases):
            self.show_phase(self.index + 1)
        elif not self.runner.session.running and self.runner.state in ("idle", "paused"):
            self.runner.step()  # its report shows the next phase (`_stepped`)
        elif not self.runner.session.running and not self.book.phases:
            self.runner.new_thread()  # a lesson opened again on its ended run: told anew
            self.runner.step()
        elif not self.runner.session.running:
            self.pause()  # the run is over, or waits for an interrupt answer

    def show_phase(self, index: int) -> None:
        self.index = index
        phase = self.book.phases[index]
        graph = self.compiled_view.compiled.graph
        commands = (
            {(a.source, a.target) for a in graph.arrows if a.kind == "command"} if graph else set()
        )
        self.canvas_stage.commands = self.compiled_stage.commands = commands
        self.canvas_stage.kinds = {c.name: c.kind for c in graph.channels} if graph else {}
        self.canvas_stage.show(phase, self.book)
        self.compiled_stage.show(phase, self.book)
        self.compiled_view.compiled.set_versions(phase.versions)
        if self.compiled_view.isVisible():
            self.compiled_view.fit()
        self.fit_canvas()
        self.shown.emit(phase)

    def fit_canvas(self) -> None:
        """In lecture mode the class sees the graph and the phase's cards, none of their text
        under `readable_px` on screen (the cards draw theirs larger as the zoom shrinks)."""
        if not self.active:
            return
        self.window_.scene.set_text_floor(self.readable_px)
        stage = self.canvas_stage
        fit_readable(self.window_.view, self.readable_px, lambda floor: self._restage(stage, floor),
                     stage.focus)  # fmt: skip

    def fit_compiled(self) -> None:
        """The compiled view as the canvas: fitted, its text and the phase's readable."""
        compiled, stage = self.compiled_view.compiled, self.compiled_stage

        def redraw(floor: float) -> None:
            if not close_above(compiled.floor, floor) and compiled.graph is not None:
                compiled.set_floor(floor)  # the graph drawn again: the phase's cards with it
                stage.clear()
                stage.floor = -1.0
            self._restage(stage, floor)

        self.compiled_view.setSceneRect(QRectF())  # the scene's own, grown to what is drawn
        fit_readable(self.compiled_view, self.readable_px, redraw, stage.focus)

    def _restage(self, stage: Stage, floor: float) -> None:
        if not close_above(stage.floor, floor):
            stage.floor = floor
            if self.phase is not None and self.active:
                stage.show(self.phase, self.book)

    def eventFilter(self, watched: Any, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.window_.view:
            QTimer.singleShot(0, self.fit_canvas)
        return False

    def quiet_overlay(self) -> None:
        """The run view's own marks show the run's latest step; the lecture shows the phase
        on screen, which may be behind it: in lecture mode only the phase's marks show."""
        if self.active:
            self.runner.overlay.clear()

    def phases_of_step(self) -> list[int]:
        """The indexes of the shown phase's superstep (its plan, execute and barrier)."""
        phase = self.phase
        if phase is None:
            return []
        first = self.index
        while first > 0 and self.book.phases[first - 1].step == phase.step and \
                self.book.phases[first - 1].kind != "barrier":  # fmt: skip
            first -= 1
        out = [first]
        while out[-1] + 1 < len(self.book.phases) and self.book.phases[out[-1]].kind != "barrier":
            out.append(out[-1] + 1)
        return out

    def clear(self) -> None:
        self._thread = None
        self.pause()
        self._book = None
        self._unread.clear()
        self._reports.clear()
        self.index = -1
        self.canvas_stage.clear()
        self.compiled_stage.clear()
        self.shown.emit(None)

    # ------------------------------------------------------------------ the run's reports

    def retell(self) -> None:
        """The phases read again from the thread's reports, in the language now installed (their
        texts are made as they are read); the phase on screen is shown again."""
        self._book = None
        self._unread = list(self._reports)
        if self.active and self.phase is not None:
            self.show_phase(self.index)

    def previous_phase(self) -> None:
        if self.index > 0:
            self.show_phase(self.index - 1)

    def _stepped(self, report: Any) -> None:
        if report.thread_id != self._thread:  # another thread: its own story (versions seen too)
            if self._thread is not None:
                self.clear()
            self._thread = report.thread_id
        self._reports.append(("events", report.events))
        if not self.active:  # nothing shows phases now: read them when asked (`book`)
            self._unread.append(("events", report.events))
            return
        caught_up = self.index + 1 >= len(self.book.phases)
        if self.book.add(report.events) and self.active and caught_up:
            self.show_phase(self.index + 1)
        self.quiet_overlay()

    def _failed(self, failure: Any) -> None:
        self._reports.append(("failed", failure.message))
        if not self.active:
            self._unread.append(("failed", failure.message))
            return
        caught_up = self.index + 1 >= len(self.book.phases)
        if self.book.failed(failure.message) and self.active and caught_up:
            self.show_phase(self.index + 1)
        self.quiet_overlay()
