"""The compiled runtime view over the canvas (objectName `compiledView`), toggled with the
drawn graph by View → Compiled runtime view (F6, `compiledViewAction`) or the run toolbar's
`compiledViewButton`.

It compiles the spec the way a run does (the same trust check first) and draws the compiled
Pregel object's nodes, channels and writers; during a run the run session's step reports
(the engine's trace events and the loop's channel versions) tick its mailboxes' versions and
add the state writes the nodes made.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsView

from engine.constants import ERROR, INTERRUPT
from engine.pregel import trace
from studio.i18n import translate
from studio.lecture.compiled_scene import CompiledScene
from studio.lecture.runtime_graph import runtime_graph


class CompiledView(QGraphicsView):
    """Laid over the canvas page when toggled on (the canvas stays the current page, so the
    window's "is the editor showing" checks are unchanged); hidden on the start page."""

    def __init__(self, window: Any) -> None:
        super().__init__(window.pages)
        self.setObjectName("compiledView")
        self.window_ = window
        self.compiled = CompiledScene()
        self.setScene(self.compiled)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.message = ""
        """Why nothing is drawn (the spec cannot compile, or may not run yet)."""
        self._stale = True
        self.pinned = False
        """Lecture mode shows a phase's versions, not the run's latest: a run report leaves them."""
        self.wanted = False
        """The toggle is on (the view shows whenever the canvas page does)."""
        self.lecture_fit: Any = None
        """Lecture mode's fit (the player's), used while `pinned`."""
        self.hide()
        window.pages.installEventFilter(self)
        window.pages.currentChanged.connect(lambda _i: self._place())
        window.document.changed.connect(self._spec_changed)
        window.document.reset.connect(self._spec_changed)
        window.runner.session.stepped.connect(self.follow)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window_.pages and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.window_.pages.rect())
            if self.isVisible():
                self.fit()
        return False

    def _spec_changed(self, *_args: Any) -> None:
        self._stale = True
        if self.isVisible():
            self.refresh()

    def show_over_canvas(self, shown: bool) -> None:
        self.wanted = shown
        self._place()

    def _place(self) -> None:
        pages = self.window_.pages
        if self.wanted and pages.currentWidget() is self.window_.view:
            self.setGeometry(pages.rect())
            self.show()
            self.raise_()
            if self._stale:
                self.refresh()
            self.fit()
            QTimer.singleShot(0, self.fit)  # again once the new geometry is laid out
        else:
            self.hide()

    def fit(self) -> None:
        if self.pinned and self.lecture_fit is not None:  # lecture mode: readable, then fitted
            return self.lecture_fit()
        rect = self.compiled.itemsBoundingRect().adjusted(-30, -30, 30, 30)
        if not rect.isEmpty():
            self.setSceneRect(rect.adjusted(-400, -400, 400, 400))  # room to pan
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)

    def refresh(self) -> None:
        """Compile the spec (as a run would) and draw what compile() built."""
        self._stale = False
        window = self.window_
        blocked = window.run_blocker()
        if blocked is not None:
            return self._say(
                translate(
                    "lecture.compiled_view",
                    "The compiled view needs the graph to compile: {blocked}",
                ).format(blocked=blocked)
            )
        from studio.run.runner import RunTarget

        try:
            pregel = RunTarget(*window.run_args()).compile()
        except Exception as exc:  # a spec that does not compile: say why, draw nothing
            return self._say(
                translate(
                    "lecture.compiled_view", "The graph does not compile: {name__}: {exc}"
                ).format(name__=type(exc).__name__, exc=exc)
            )
        order = {n: item.scenePos().x() for n, item in window.scene.nodes.items()}
        self.message = ""
        self.compiled.show_graph(runtime_graph(pregel), order)
        self.fit()

    def _say(self, text: str) -> None:
        self.message = text
        self.compiled.show_message(text)
        self.fit()

    def follow(self, report: Any) -> None:
        """A step report of the run: versions from the loop's channels, the writes it made."""
        if self._stale:
            self.refresh()  # once per edit of the graph, so the view is ready when toggled
        if self.compiled.graph is None:
            return
        if not self.pinned:  # lecture mode shows its phase instead
            self.compiled.set_versions({row.name: row.version for row in report.channels})
            running = [] if report.done else report.running
            self.compiled.show_live(running, [c.channel for c in report.changes])
        for event in report.events:
            if isinstance(event, trace.StepPlanned) and not event.ns:
                for task in event.tasks:
                    if not task.trigger_versions and not task.name.startswith("__"):
                        self.compiled.mark_pushed(task.name)
            if isinstance(event, trace.TaskFinished) and not event.ns and event.error is None:
                for channel, _value in event.writes:
                    if channel not in (INTERRUPT, ERROR):
                        self.compiled.mark_written(event.name, channel)
        if self.isVisible():
            self.fit()
