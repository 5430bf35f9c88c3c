"""The Superstep timeline dock (`timelineDock`): the run's supersteps on a time axis, scrubbed
to show the channels, the edge data and the path taken as they were after a step, and a task's
menu to re-run the run from it.

It reads the run side's public face: the session's step reports and thread views, the recorded
calls the Tests dock hears of, the run overlay and the Channels dock; and it shows a re-run's
diff in the Tests dock's run diff. Each thread's timeline is kept while the document is open,
so choosing a thread again shows the one it ran.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QPoint, Qt, QTimer
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QInputDialog, QLabel, QSlider, QWidget

from engine.pregel import trace
from studio.i18n import translate
from studio.item_menu import SEPARATOR, Entry, entries_menu
from studio.run.runner import ChannelRow
from studio.run.widgets import button, json_object, vbox
from studio.timeline.model import TaskBar, Timeline
from studio.timeline.path_overlay import PathOverlay
from studio.timeline.view import TimelineView, seconds_text
from studio.workers import run_in_thread

CHANNELS_MS = 80
"""A scrub settles this long before the channels are read from its checkpoint (a drag across a
long run reads one, not hundreds)."""


class TimelinePanel(QWidget):
    """The step slider, its caption, zoom buttons, the path switch, and the view."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("timelinePanel")
        self.view = TimelineView()
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("timelineSlider")
        self.slider.setToolTip(
            translate(
                "timeline.dock",
                "Scrub through the supersteps (or click, drag, ← → on the timeline)",
            )
        )
        self.slider.setRange(0, 0)
        self.caption = QLabel(translate("timeline.dock", "No run yet"))
        self.caption.setObjectName("timelineCaption")
        self.path_box = QCheckBox(translate("timeline.dock", "Path"))
        self.path_box.setObjectName("timelinePath")
        self.path_box.setToolTip(translate("timeline.dock", "Draw on the canvas the nodes and edges the run went through up to the scrubbed step, with how many times"))  # fmt: skip
        self.path_box.setChecked(True)
        top = QHBoxLayout()
        top.addWidget(self.slider, 2)
        top.addWidget(self.caption, 3)
        top.addWidget(self.path_box)
        top.addWidget(button("timelineZoomOut", "−", lambda: self.view.zoom(1 / 1.5)))
        top.addWidget(button("timelineZoomIn", "+", lambda: self.view.zoom(1.5)))
        top.addWidget(button("timelineFit", translate("timeline.dock", "Fit"), self.view.fit))
        layout = vbox(self)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)


class TimelineDock(QObject):
    """The timeline of the window's runs, scrubbing, and re-runs from a task."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.runner = window.runner
        self.panel = TimelinePanel()
        self.view = self.panel.view
        self.path = PathOverlay(window.scene)
        self.timelines: dict[str, Timeline] = {}
        self._early: dict[str, list] = {}
        """thread -> calls recorded before the first steps of its run reached the GUI."""
        self.index = -1
        """The step scrubbed to (a position in the shown timeline's steps)."""
        self._channels = QTimer(self)
        self._channels.setSingleShot(True)
        self._channels.setInterval(CHANNELS_MS)
        self._channels.timeout.connect(self._show_channels)
        self.panel.slider.valueChanged.connect(self._slid)
        self.view.scrubbed.connect(self.scrub)
        self.view.menu_requested.connect(self._menu)
        self.panel.path_box.toggled.connect(lambda _on: self._show_path())
        session = self.runner.session
        session.stepped.connect(self._stepped)
        session.thread_ready.connect(lambda view: self._thread_shown(view.thread_id))
        # a new thread comes with no thread view: the selector is refilled (its own signals
        # blocked, its model's not)
        self.runner.thread_selector.model().rowsInserted.connect(
            lambda *_: self._thread_shown(self.runner.thread_id)
        )
        window.calls_relay.recorded.connect(self._call)  # the Tests dock's recorder's calls
        window.document.reset.connect(self._reset)

    @property
    def timeline(self) -> Timeline:
        return self.view.timeline

    # ------------------------------------------------------------------ the run, as it goes

    def _stepped(self, report: Any) -> None:
        timeline = self.timelines.get(report.thread_id)
        first = next((e.step for e in report.events
                      if not e.ns and isinstance(e, trace.StepPlanned)), None)  # fmt: skip
        if timeline is None or (first is not None and timeline.index_of(first) is not None):
            # a new thread, or a run from an earlier checkpoint (a replay, a fork): a new line,
            # with the calls that arrived before its first steps
            early = self._early.pop(report.thread_id, [])
            if timeline is not None:
                early += [c for calls in timeline.orphan_calls.values() for c in calls]
            timeline = self.timelines[report.thread_id] = Timeline()
            timeline.thread_id = report.thread_id
            for call in early:
                timeline.add_call(call)
            self.path.clear()
        timeline.add_events(report.events)
        if timeline is not self.timeline:
            self._show(timeline)
        else:
            self._grown()

    def _call(self, call: Any) -> None:
        timeline = self.timelines.get(call.thread_id)
        if timeline is None:  # its run's first steps are on their way
            self._early.setdefault(call.thread_id, []).append(call)
            return
        timeline.add_call(call)
        if timeline is self.timeline:
            self.view.viewport().update()

    def _thread_shown(self, thread_id: str) -> None:
        """Another thread chosen: its timeline, or none (runs are drawn as they are made)."""
        found = self.timelines.get(thread_id)
        if found is None and self.timeline.thread_id != thread_id:
            found = Timeline()
            found.thread_id = thread_id
        if found is not None and found is not self.timeline:
            self._show(found)

    def _reset(self) -> None:
        self.timelines.clear()
        self._early.clear()
        self.path.clear()
        self._show(Timeline())

    def _show(self, timeline: Timeline) -> None:
        self.index = -1
        self.path.clear()  # another run's path
        self.view.set_timeline(timeline)
        self._grown()

    def _grown(self) -> None:
        """New steps: the slider reaches them; a view that follows the run moves with it."""
        count = len(self.timeline)
        slider = self.panel.slider
        slider.blockSignals(True)
        slider.setRange(0, max(count - 1, 0))
        if self.view.following or self.index < 0:
            slider.setValue(max(count - 1, 0))
        slider.blockSignals(False)
        self.view.refresh()
        if self.index < 0 or self.view.following:
            self._caption(count - 1)

    # ------------------------------------------------------------------ scrubbing

    def _slid(self, index: int) -> None:
        if index != self.index:
            self.scrub(index)

    def scrub(self, index: int) -> None:
        """Show the run as it was after step `index` (a position in the timeline): the view's
        cursor, the canvas's edge data and path, and (once the scrub settles) the channels."""
        if not 0 <= index < len(self.timeline):
            return
        self.index = index
        self.view.current = index
        self.view.ensure_visible(index)
        slider = self.panel.slider
        if slider.value() != index:
            slider.blockSignals(True)
            slider.setValue(index)
            slider.blockSignals(False)
        self._caption(index)
        span = self.timeline.steps[index]
        self.runner.overlay.show_writes(span.events())
        self._show_path()
        self._channels.start()

    def _caption(self, index: int) -> None:
        if index < 0:
            thread = self.timeline.thread_id
            self.panel.caption.setText(translate("timeline.dock", "No run of thread {thread} in this session: Run, Step or a re-run draws one").format(thread=thread)
                                       if thread else translate("timeline.dock", "No run yet"))  # fmt: skip
            return
        span = self.timeline.steps[index]
        names = ", ".join(dict.fromkeys(b.name for b in span.tasks if not b.ns)) or translate(
            "timeline.dock", "nothing"
        )
        self.panel.caption.setText(translate("timeline.dock", "Step {step} ({at} of {count}): ran {names} in {seconds}").format(
            step=span.step, at=index + 1, count=len(self.timeline), names=names, seconds=seconds_text(span.duration)))  # fmt: skip

    def _show_path(self) -> None:
        if self.panel.path_box.isChecked() and self.index >= 0:
            self.path.show(*self.timeline.path(self.index))
        else:
            self.path.clear()

    def _show_channels(self) -> None:
        """The channels after the scrubbed step: its checkpoint read on the run's worker, or,
        not saved (durability "exit") or while a run goes, what the barriers applied."""
        if self.index < 0 or self.index >= len(self.timeline):
            return
        span = self.timeline.steps[self.index]
        runner = self.runner
        if (
            span.checkpoint is not None
            and not runner.session.running
            and self.window.run_blocker() is None
        ):
            runner.session.checkpoint_channels(runner.target(), span.checkpoint)
            return
        state = self.timeline.state_after(self.index)
        rows = [ChannelRow(name, "—", value, version, True)
                for name, (value, version) in sorted(state.items()) if not name.startswith("__")]  # fmt: skip
        runner.channels.show_rows(rows, caption=translate("timeline.dock", "After step {step}: the channels the run changed up to it (its checkpoint is not saved)").format(step=span.step))  # fmt: skip

    # ------------------------------------------------------------------ re-run from a task

    def _menu(self, bar: TaskBar, at: QPoint) -> None:
        entries = self.menu_entries(bar)
        entries_menu(self.view, entries).popup(at)

    def menu_entries(self, bar: TaskBar) -> list:
        why = self._why_not(bar)
        tip = why or translate("timeline.dock", "Fork the run from the checkpoint before this task, on a new thread")  # fmt: skip
        where = bar.where
        entries = [
            Entry("rerunLiveAction", translate("timeline.dock", "Re-run from {where}: calls live").format(where=where),
                  lambda: self.rerun(bar, "live"), why is None, tip),
            Entry("rerunRecordedAction", translate("timeline.dock", "Re-run from {where}: calls from the recording").format(where=where),
                  lambda: self.rerun(bar, "recorded"), why is None, tip),
        ]  # fmt: skip
        if not bar.ns:
            entries += [SEPARATOR, Entry("rerunEditedAction", translate("timeline.dock", "Re-run from {where} with edited state…").format(where=where),
                                         lambda: self._ask_edits(bar), why is None, tip)]  # fmt: skip
        return entries

    def _why_not(self, bar: TaskBar) -> str | None:
        if self.runner.session.running:
            return translate("timeline.dock", "A run is in progress: re-run when it has finished")
        if self.timeline.checkpoint_before(bar) is None:
            return translate("timeline.dock", "The checkpoint before this task is not in this run (not saved with durability \"exit\", or copied into a re-run's thread)")  # fmt: skip
        return None

    def _ask_edits(self, bar: TaskBar) -> None:
        text, ok = QInputDialog.getMultiLineText(
            self.panel, translate("timeline.dock", "Re-run with edited state"),
            translate("timeline.dock", "State updates applied before {where} runs again (a JSON object):").format(where=bar.where), "{}")  # fmt: skip
        if ok:
            updates, error = json_object(text, translate("timeline.dock", "The state edits"))
            if updates is None:
                self._say(error)
            else:
                self.rerun(bar, "live", updates)

    def rerun(self, bar: TaskBar, mode: str, updates: dict | None = None) -> None:
        """Re-run the shown run from `bar` on a new thread; the run diff opens in Tests."""
        why = self._why_not(bar)
        if why is not None:
            self._say(why)
            return
        if (blocked := self.window.run_blocker()) is not None:
            self._say(blocked)
            return
        from studio.timeline.rerun import RerunPoint, rerun

        source = self.timeline.thread_id
        point = RerunPoint(source, bar.where, tuple(self.timeline.checkpoint_before(bar)),
                           self.timeline.run_again_before(bar))  # fmt: skip
        db, target = Path(self.runner.db_path()), self.runner.target()

        def work() -> Any:
            from engine.checkpoint.sqlite import SqliteSaver
            from engine.record.replay import free_thread_id
            from engine.record.store import RecordingStore
            from graphspec.compiler import run_config
            from graphspec.providers import keyless_models

            with SqliteSaver.from_conn_string(str(db)) as saver:
                into = free_thread_id(saver, f"{source}-rerun")
                with keyless_models():  # calls served from the recording need no key
                    graph = target.compile(saver)
                result = rerun(graph, point, into, mode=mode, updates=updates,
                               config=run_config(target.spec), store=RecordingStore.for_saver(saver))  # fmt: skip
                return result

        calls = {"live": translate("timeline.dock", "Re-running thread {source} from {where} (step {step}), calls live…"),
                 "recorded": translate("timeline.dock", "Re-running thread {source} from {where} (step {step}), calls recorded…")}  # fmt: skip
        self._say(calls[mode].format(source=source, where=bar.where, step=bar.step))
        run_in_thread(work, lambda result, error: self._rerun_done(bar, result, error))

    def _rerun_done(self, bar: TaskBar, result: Any, error: BaseException | None) -> None:
        if error is not None:
            self._say(translate("timeline.dock", "Re-run from {where} failed: {kind}: {error}").format(
                where=bar.where, kind=type(error).__name__, error=error))  # fmt: skip
            return
        thread = result.thread_id
        timeline = self.timelines[thread] = Timeline()
        timeline.thread_id = thread
        timeline.add_events(result.events)
        for call in result.calls:
            timeline.add_call(call)
        tests = self.window.replay_dock.panel
        tests.diff.show_diff(result.diff)
        tests.failure.setPlainText("\n".join([result.summary(),
                                              *(d.describe() for d in result.report.changed)]))  # fmt: skip
        ran = ", ".join(
            dict.fromkeys(b.where for s in timeline.steps for b in s.tasks)
        ) or translate("timeline.dock", "nothing")
        self._say(translate("timeline.dock", "Re-ran {where} and what follows as thread {thread} (ran {ran}): ").format(
            where=bar.where, thread=thread, ran=ran) + result.summary())  # fmt: skip
        dock = self.window.dock("testsDock")
        dock.show()
        dock.raise_()
        self._show(timeline)
        self.scrub(len(timeline) - 1)  # the canvas shows the path the re-run took
        self.runner.choose_thread(thread)

    def _say(self, text: str) -> None:
        self.window.replay_dock.panel.say(text)
        self.window.statusBar().showMessage(text, 8000)


def install(window: Any) -> TimelineDock:
    """The Superstep timeline dock (tabbed with the trace)."""
    dock = TimelineDock(window)
    window.add_dock("timelineDock", translate("timeline.dock", "Timeline"), dock.panel, Qt.DockWidgetArea.BottomDockWidgetArea,
                    tab_with="traceDock")  # fmt: skip
    window.timeline_dock = dock
    return dock
