"""The run side of the main window: toolbar, docks, interrupt panel, canvas marks.

`RunController(window)` adds (objectNames): toolbar `runToolbar` with `runButton`, `stepButton`,
`continueButton`, `stopButton`, `threadSelector`, `newThreadButton`, `runStatus`,
`runProgress`; docks `channelsDock`, `traceDock`, `historyDock`, `eventsDock`, `runInputDock`;
`interruptPanel` above the canvas. Checkpoints live in `<spec>.checkpoints.sqlite` beside a saved
spec, or under the studio's folder (`runs/`) for unsaved ones.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QStyle,
    QToolBar,
)

from engine.pregel import trace
from engine.types import Command
from studio.paths import studio_home
from studio.run.overlay import RunOverlay
from studio.run.panels import (
    ChannelsPanel,
    EventsPanel,
    HistoryPanel,
    InterruptPanel,
    RunInputPanel,
    TracePanel,
)
from studio.run.runner import (
    HistoryEntry,
    RunFailure,
    RunSession,
    StepReport,
    ThreadView,
    db_path_for,
)


class RunController:
    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        self.document = window.document
        self.session = RunSession()
        self.session.setParent(window)
        self.overlay = RunOverlay(window.scene)
        self.paused = False
        """A run is in flight between supersteps (Step or Stop left it there)."""
        self.view: ThreadView | None = None
        self.last_failure: RunFailure | None = None
        self.threads: list[str] = []
        self._build_toolbar()
        self._build_docks()
        self.interrupt_panel = InterruptPanel()
        window.centralWidget().layout().insertWidget(2, self.interrupt_panel)
        self._wire()
        self._set_busy(False)

    # ------------------------------------------------------------------ layout

    def _button(self, bar: QToolBar, name: str, text: str, tip: str, slot, icon=None) -> QPushButton:
        button = QPushButton(text)
        if icon is not None:
            button.setIcon(self.window.style().standardIcon(icon))
        button.setObjectName(name)
        button.setToolTip(tip)
        button.clicked.connect(lambda _=False: slot())
        bar.addWidget(button)
        return button

    def _build_toolbar(self) -> None:
        bar = self.window.addToolBar("Run")
        bar.setObjectName("runToolbar")
        self.toolbar = bar
        sp = QStyle.StandardPixmap
        self.run_button = self._button(bar, "runButton", "Run", "Start a run with the input and run it to the end (F5)",
                                       self.run, sp.SP_MediaPlay)  # fmt: skip
        self.step_button = self._button(bar, "stepButton", "Step", "Run one superstep (F10)", self.step,
                                        sp.SP_MediaSkipForward)  # fmt: skip
        self.continue_button = self._button(bar, "continueButton", "Continue",
                                            "Run the paused run (or a breakpoint) to the end", self.carry_on,
                                            sp.SP_MediaSeekForward)  # fmt: skip
        self.stop_button = self._button(bar, "stopButton", "Stop", "Stop after the current superstep", self.stop,
                                        sp.SP_MediaStop)  # fmt: skip
        self.run_button.setShortcut("F5")
        self.step_button.setShortcut("F10")
        bar.addSeparator()
        bar.addWidget(QLabel(" Thread "))
        self.thread_selector = QComboBox()
        self.thread_selector.setObjectName("threadSelector")
        self.thread_selector.setEditable(True)
        self.thread_selector.setMinimumWidth(120)
        self.thread_selector.setToolTip("The thread runs write checkpoints to; pick one to see its history")
        self.thread_selector.addItem("main")
        bar.addWidget(self.thread_selector)
        self._button(bar, "newThreadButton", "New thread", "A fresh thread with no history", self.new_thread)
        self.progress = QProgressBar()
        self.progress.setObjectName("runProgress")
        self.progress.setMaximumWidth(110)
        self.progress.setMaximumHeight(14)
        self.progress.setTextVisible(False)
        self.status = QLabel("Ready to run")
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # node names and errors, never HTML
        self.status.setObjectName("runStatus")
        self.window.statusBar().addPermanentWidget(self.status)
        self.window.statusBar().addPermanentWidget(self.progress)

    def _build_docks(self) -> None:
        w = self.window
        left, right, bottom = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                               Qt.DockWidgetArea.BottomDockWidgetArea)  # fmt: skip
        self.input_panel = RunInputPanel()
        self.channels = ChannelsPanel()
        self.history = HistoryPanel()
        self.trace = TracePanel()
        self.events = EventsPanel()
        docks = {
            "runInputDock": ("Run input", self.input_panel, left),
            "channelsDock": ("Channels", self.channels, right),
            "historyDock": ("Checkpoints", self.history, right),
            "traceDock": ("Superstep trace", self.trace, bottom),
            "eventsDock": ("Events", self.events, bottom),
        }
        self.docks = {name: w._dock(name, title, widget, area) for name, (title, widget, area) in docks.items()}
        inspector, state, problems = (w.findChild(type(self.docks["traceDock"]), n)
                                      for n in ("inspectorDock", "stateDock", "problemsDock"))  # fmt: skip
        w.tabifyDockWidget(inspector, self.docks["channelsDock"])
        w.tabifyDockWidget(state, self.docks["historyDock"])
        w.removeDockWidget(problems)  # the trace goes first: it is the widest reader
        w.addDockWidget(bottom, self.docks["traceDock"])
        w.splitDockWidget(self.docks["traceDock"], problems, Qt.Orientation.Horizontal)
        w.tabifyDockWidget(problems, self.docks["eventsDock"])
        w.splitDockWidget(w.findChild(type(problems), "paletteDock"), self.docks["runInputDock"],
                          Qt.Orientation.Vertical)  # fmt: skip
        for dock in (inspector, state, problems, self.docks["traceDock"]):
            dock.show()
            dock.raise_()
        w.docks.extend(self.docks.values())
        w.resizeDocks([inspector], [430], Qt.Orientation.Horizontal)
        w.resizeDocks([self.docks["traceDock"], problems], [760, 420], Qt.Orientation.Horizontal)
        w.resizeDocks([self.docks["traceDock"]], [230], Qt.Orientation.Vertical)
        w.resizeDocks([inspector, state], [340, 400], Qt.Orientation.Vertical)

    def _wire(self) -> None:
        s = self.session
        s.stepped.connect(self._stepped)
        s.thread_ready.connect(self._thread_ready)
        s.threads_ready.connect(self._threads_ready)
        s.channels_ready.connect(self._checkpoint_channels)
        s.failed.connect(self._failed)
        s.busy_changed.connect(self._set_busy)
        s.message.connect(self._say)
        self.document.reset.connect(self._spec_loaded)
        self.document.changed.connect(self._spec_edited)
        self.history.replay_requested.connect(self.replay)
        self.history.fork_requested.connect(self.fork)
        self.history.chosen.connect(self._checkpoint_chosen)
        self.interrupt_panel.answered.connect(self.answer)
        self.thread_selector.activated.connect(lambda _i: self.show_thread())

    # ------------------------------------------------------------------ state

    @property
    def thread_id(self) -> str:
        return self.thread_selector.currentText().strip() or "main"

    def _say(self, text: str) -> None:
        self.status.setText(text)

    def _set_busy(self, busy: bool) -> None:
        """Progress shows while the worker works; the run buttons wait only for a run."""
        running = self.session.running
        self.progress.setRange(0, 0)
        self.progress.setVisible(busy)
        for button in (self.run_button, self.step_button, self.continue_button):
            button.setEnabled(not running)
        self.stop_button.setEnabled(running or self.paused)

    def db_path(self) -> Path:
        return db_path_for(self.document.path, self.document.spec.name, studio_home())

    def _spec_loaded(self) -> None:
        self.paused = False
        self.view = None
        self.input_panel.set_inputs(self.document.spec.inputs)
        self.trace.clear()
        self.events.clear()
        self.channels.show_rows([], caption="No run yet: Step or Run to see the channels.")
        self.history.show_thread(ThreadView("—", []))
        self.interrupt_panel.show_interrupts([])
        self.session.open(self.db_path())
        self.session.list_threads()

    def _spec_edited(self, fields: frozenset) -> None:
        if "inputs" in fields:
            self.input_panel.set_inputs(self.document.spec.inputs)

    def _threads_ready(self, threads: list[str]) -> None:
        self.threads = threads
        current = self.thread_selector.currentText()
        self.thread_selector.blockSignals(True)
        self.thread_selector.clear()
        self.thread_selector.addItems(threads)
        if self.view is None:  # a spec just opened: start on a thread with no history
            current = "main" if "main" not in threads else self._fresh_thread()
        self.thread_selector.setCurrentText(current)
        self.thread_selector.blockSignals(False)

    def _fresh_thread(self) -> str:
        n = len(self.threads) + 1
        while f"run-{n}" in self.threads:
            n += 1
        return f"run-{n}"

    def new_thread(self) -> None:
        self.paused = False
        self.thread_selector.setCurrentText(self._fresh_thread())
        self.history.show_thread(ThreadView(self.thread_id, []))
        self.interrupt_panel.show_interrupts([])
        self._say(f"New thread {self.thread_id}")

    # ------------------------------------------------------------------ commands

    def _may_run(self) -> bool:
        if (blocked := self.window.run_blocker()) is not None:  # trust, re-checked on each run
            self._say(blocked)
            return False
        if self.session.running:
            self._say("A run is in progress: Stop it first")
            return False
        self.session.open(self.db_path())
        return True

    def _args(self) -> tuple:
        return self.window.run_args()

    def _new_run(self, run_input: Any, steps: int | None, clear: bool = True) -> None:
        if clear:
            self.trace.clear()
            self.events.clear()
        self.trace.clear_error()
        self.overlay.clear()
        self.last_failure = None
        self.interrupt_panel.hide()
        self.paused = False
        self._raise_run_docks()
        self.session.start(*self._args(), self.thread_id, run_input, steps)

    def run(self) -> None:
        if self._may_run() and (value := self.input_panel.value()) is not None:
            self._say(f"Running on thread {self.thread_id}…")
            self._new_run(value, None)

    def step(self) -> None:
        if not self._may_run():
            return
        if self.paused:
            self.session.advance(1)
        elif (value := self.input_panel.value()) is not None:
            self._new_run(value, 1)

    def carry_on(self) -> None:
        if not self._may_run():
            return
        if self.paused:
            self.session.advance(None)
        elif self.view is not None and self.view.interrupts:
            self.interrupt_panel.show()
            self._say("The run waits for an interrupt answer: answer it in the panel above the canvas")
        elif self.view is not None and self.view.pending and self.view.thread_id == self.thread_id:
            self._new_run(None, None, clear=False)  # past a breakpoint, or a run cut short
        else:
            self._say("Nothing to continue: Run or Step starts a run")

    def stop(self) -> None:
        if self.session.running:
            self.session.stop()
            self._say("Stopping after this superstep…")
        elif self.paused:
            self.paused = False
            self.session.forget_graph()
            self.overlay.set_running([])
            self._set_busy(False)
            self._say("Run abandoned (its checkpoints stay in the history)")

    def answer(self, interrupt_id: str | None, value: Any) -> None:
        if not self._may_run():
            self.interrupt_panel.show()
            return
        resume = value if interrupt_id is None else {interrupt_id: value}
        self._say("Resuming…")
        self._new_run(Command(resume=resume), None, clear=False)

    def replay(self, entry: HistoryEntry) -> None:
        if self._may_run():
            self._start_from(entry, None)

    def fork(self, entry: HistoryEntry, updates: dict) -> None:
        if self._may_run():
            self._start_from(entry, updates)

    def _start_from(self, entry: HistoryEntry, updates: dict | None) -> None:
        self.trace.clear()
        self.overlay.clear()
        self.interrupt_panel.hide()
        self.paused = False
        thread = entry.config["configurable"]["thread_id"]
        self.thread_selector.setCurrentText(thread)
        what = "Forking" if updates else "Replaying"
        self._say(f"{what} from step {entry.step} ({entry.checkpoint_id[-8:]})…")
        self.session.resume_from(*self._args(), entry.config, updates, None)

    def show_thread(self) -> None:
        """Show the chosen thread's history and channels (compiles the spec)."""
        if self._may_run():
            self.paused = False
            self.session.refresh(*self._args(), self.thread_id)

    def _checkpoint_chosen(self, entry: HistoryEntry) -> None:
        if not self.session.running and self.window.run_blocker() is None:
            self.session.checkpoint_channels(*self._args(), entry.config)

    def _checkpoint_channels(self, found: tuple) -> None:
        rows, changes = found
        entry = self.history.current()
        where = f" at step {entry.step} ({entry.checkpoint_id[-8:]})" if entry else ""
        self.channels.show_rows(rows, changes, caption=f"Thread {self.thread_id}{where}; "
                                "highlighted: what that step changed (old → new)")  # fmt: skip

    def _raise_run_docks(self) -> None:
        for name in ("channelsDock", "historyDock", "traceDock", "eventsDock"):
            self.docks[name].show()
            self.docks[name].raise_()

    # ------------------------------------------------------------------ results

    def _stepped(self, report: StepReport) -> None:
        self.trace.add_events(report.events)
        self.events.add_parts(report.chunks)
        barriers = [e for e in report.events if isinstance(e, trace.BarrierApplied) and not e.ns]
        steps = [e.step for e in report.events if isinstance(e, trace.StepPlanned) and not e.ns]
        changes = list(barriers[-1].changes) if barriers else []
        where = f"after step {steps[-1]}" if steps else ""
        self.channels.show_rows(report.channels, changes, caption=f"Thread {self.thread_id} {where}; "
                                "highlighted: what the last barrier changed (old → new)")  # fmt: skip
        self.paused = not report.done
        ran = [n for n in report.running if not n.startswith("__")]
        self.overlay.set_running([] if report.done else ran)
        if steps:
            self._say(f"Step {steps[-1]}: ran {', '.join(report.running) or 'nothing'}"
                      + ("" if report.done else " — Step or Continue for more"))  # fmt: skip

    def _thread_ready(self, view: ThreadView) -> None:
        self.view = view
        self.history.show_thread(view)
        if view.thread_id not in self.threads:
            self.threads = sorted({*self.threads, view.thread_id})
            self.thread_selector.blockSignals(True)
            current = self.thread_selector.currentText()
            self.thread_selector.clear()
            self.thread_selector.addItems(self.threads)
            self.thread_selector.setCurrentText(current)
            self.thread_selector.blockSignals(False)
        if self.paused:
            return
        if view.interrupts:
            self.interrupt_panel.show_interrupts(view.interrupts, self.input_panel.resume_hint())
            self.overlay.set_running([node for node, _value, _iid in view.interrupts])  # waiting
            self._say(f"Paused: {view.interrupts[0][0]} is waiting for an answer")
        elif view.next and self.last_failure is None:
            self._say(f"Paused before {', '.join(view.next)}: Continue runs on")
        elif view.pending and self.last_failure is None:
            self._say("Stopped between steps (the last step's work is saved): Continue finishes it")
        elif self.last_failure is None and view.history:
            self._say(f"Finished: {len(view.history)} checkpoints on thread {view.thread_id}")
        self._set_busy(self.session.busy)

    def _failed(self, failure: RunFailure) -> None:
        self.last_failure = failure
        self.paused = False
        self.overlay.set_running([])
        self.trace.show_error(failure.message, failure.traceback)
        self.docks["traceDock"].show()
        self.docks["traceDock"].raise_()
        if failure.element_id is not None:
            if failure.element_id in self.window.scene.nodes:
                self.overlay.set_error(failure.element_id, failure.message.split(": ", 1)[-1][:80])
            else:
                self.window.scene.select_ids([failure.element_id])
        self._say(f"Run failed — {failure.message}")
        self._set_busy(self.session.busy)

    def close(self) -> None:
        self.session.close()
