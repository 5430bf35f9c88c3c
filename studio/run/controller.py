"""The run side of the main window: toolbar, docks, interrupt panel, canvas marks.

`RunController(window)` adds (objectNames): toolbar `runToolbar` with `runButton`, `stepButton`,
`continueButton`, `stopButton`, `threadSelector`, `newThreadButton`, `durabilityChooser`,
`runStatus`, `runProgress`; docks `channelsDock`, `traceDock`, `historyDock`, `diffDock`,
`eventsDock`, `runInputDock`, `threadsDock`; `interruptPanel` and `restartBanner`
(`restartLastButton`, `restartStartButton`) above the canvas; all through the main window's
dock and banner API. Checkpoints live in `<spec>.checkpoints.sqlite` beside a saved
spec, or under the studio's folder (`runs/`) for unsaved ones.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QMainWindow,
)

from graphspec.import_func import holds_one_value
from studio.i18n import translate
from studio.paths import studio_home
from studio.plain import plain_tip
from studio.run.input_panels import RAISED_ID
from studio.run.overlay import RunOverlay
from studio.run.panels import (
    ChannelsPanel,
    DiffPanel,
    EventsPanel,
    HistoryPanel,
    InterruptPanel,
    RunInputPanel,
    ThreadsPanel,
    TracePanel,
)
from studio.run.pauses import Held
from studio.run.runner import (
    ChannelRow,
    HistoryEntry,
    RunFailure,
    RunSession,
    RunTarget,
    StepReport,
    ThreadView,
    db_path_for,
)
from studio.run.thread_control import ThreadControl
from studio.run.threads import ThreadBook, book_path
from studio.run.toolbar import RunToolbar
from studio.run.trace_model import ns_label


class RunController(RunToolbar, ThreadControl):
    """The run toolbar and docks; `state` is what the toolbar shows: idle, running, paused (a
    run between supersteps, Step/Continue carry it on), stale (paused, and the graph has been
    edited since), breakpoint, stopped, interrupted, finished or failed."""

    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        self.document = window.document
        self.session = RunSession()
        self.session.setParent(window)
        self.overlay = RunOverlay(window.scene)
        self.live: str | None = None
        """The thread whose run is paused between supersteps in the session (Step carries it on)."""
        self.view: ThreadView | None = None
        self._last_report: StepReport | None = None
        self.last_failure: RunFailure | None = None
        self.threads: list[str] = []
        self.summaries: dict[str, Any] = {}
        self._book = ThreadBook()
        self.state = "idle"
        self._thread = "main"
        self._picked = False
        """The user (or a run) chose the thread: a database listing no longer moves it."""
        self._fingerprint: str | None = None
        """The graph the paused run was compiled from, minus layout (see `behaviour`)."""
        self._ran: str | None = None
        """The thread the last run started on."""
        self.held: Held | None = None
        """A task of the run in flight waiting at a breakpoint (Continue lets it go on)."""
        self.held_changed: list[Callable[[Held | None], None]] = []
        """Told when a task starts or stops waiting (the Breakpoints dock)."""
        self._build_toolbar()
        self._build_docks()
        self.interrupt_panel = InterruptPanel()
        window.add_bar(self.interrupt_panel)
        self.restart_banner = window.add_banner("restartBanner", "#FDECEA")
        self.restart_banner.add_button("restartLastButton", translate("run.controller", "Restart from the last checkpoint"),
                                       lambda: self.restart(from_start=False))  # fmt: skip
        self.restart_banner.add_button("restartStartButton", translate("run.controller", "Restart from the start"),
                                       lambda: self.restart(from_start=True))  # fmt: skip
        self._wire()
        self._set_state("idle")

    @property
    def paused(self) -> bool:
        """A run is in flight between supersteps on the current thread."""
        return self.live is not None and self.live == self.thread_id

    # ------------------------------------------------------------------ layout

    def _build_docks(self) -> None:
        w = self.window
        left, right, bottom = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                               Qt.DockWidgetArea.BottomDockWidgetArea)  # fmt: skip
        self.input_panel = RunInputPanel()
        self.input_panel.refused.connect(lambda why: self._say(why))
        self.channels = ChannelsPanel()
        self.history = HistoryPanel()
        self.trace = TracePanel()
        self.events = EventsPanel()
        self.diff = DiffPanel()
        self.thread_list = ThreadsPanel()
        self.docks = {
            "runInputDock": w.add_dock(
                "runInputDock", translate("run.controller", "Run input"), self.input_panel, left
            ),
            "threadsDock": w.add_dock(
                "threadsDock", translate("run.controller", "Threads"), self.thread_list, left
            ),
            "channelsDock": w.add_dock(
                "channelsDock",
                translate("run.controller", "Channels"),
                self.channels,
                right,
                tab_with="inspectorDock",
            ),
            "historyDock": w.add_dock(
                "historyDock",
                translate("run.controller", "Checkpoints"),
                self.history,
                right,
                tab_with="stateDock",
            ),
            "traceDock": w.add_dock(
                "traceDock", translate("run.controller", "Superstep trace"), self.trace, bottom
            ),
            "diffDock": w.add_dock(
                "diffDock", translate("run.controller", "Checkpoint diff"), self.diff, bottom
            ),
            "eventsDock": w.add_dock(
                "eventsDock", translate("run.controller", "Events"), self.events, bottom
            ),
            "deepAgentDock": w.add_lazy_dock(
                "deepAgentDock",
                translate("run.controller", "Deep agent"),
                self._build_deep_agent,
                right,
                tab_with="inspectorDock",
            ),
        }
        # where each goes, and how big, is the workspace's (studio/workspaces.py)

    def _build_deep_agent(self) -> Any:
        from studio.run.deep_agent_panel import DeepAgentPanel

        self._deep_agent = DeepAgentPanel()
        return self._deep_agent

    @property
    def deep_agent(self) -> Any:
        """The Deep agent dock's panel: made right after the window's first paint (it shows
        only a deep agent's runs), or here when a run reaches it first (issue 32.1)."""
        self.window.build_lazy("deepAgentDock")
        return self._deep_agent

    def _wire(self) -> None:
        s = self.session
        s.stepped.connect(self._stepped)
        s.thread_ready.connect(self._thread_ready)
        s.threads_ready.connect(self._threads_ready)
        s.summaries_ready.connect(self._summaries_ready)
        s.channels_ready.connect(self._checkpoint_channels)
        s.diff_ready.connect(self._diff_ready)
        s.history_page.connect(self._history_page)
        s.failed.connect(self._failed)
        s.held.connect(self._held)
        s.busy_changed.connect(self._set_busy)
        s.message.connect(self._say)
        self.document.replacing.connect(self._leaving)
        self.document.reset.connect(self._spec_loaded)
        self.document.changed.connect(self._spec_edited)
        self.history.replay_requested.connect(self.replay)
        self.history.fork_requested.connect(self.fork)
        self.history.chosen.connect(self._checkpoint_chosen)
        self.history.compare_requested.connect(self.compare)
        self.history.older_requested.connect(self.older_history)
        self.trace.scope_changed.connect(self._scope_changed)
        self.interrupt_panel.answered.connect(self.answer)
        self.interrupt_panel.edit_state_requested.connect(self.history.edit_tip)
        self.thread_selector.activated.connect(
            lambda i: self.choose_thread(self.thread_selector.itemData(i))
        )
        self.thread_list.chosen.connect(self.choose_thread)
        self.thread_list.renamed.connect(self.rename_thread)
        self.thread_list.delete_requested.connect(self.delete_thread)

    # ------------------------------------------------------------------ state

    @property
    def thread_id(self) -> str:
        return self._thread

    def target(self) -> RunTarget:
        target = RunTarget(*self.window.run_args())
        _, context = self.input_panel.context()
        return replace(target, context=context) if context is not None else target

    def _say(self, text: str) -> None:
        """The run's status line: one line, so a long error never heightens the status bar
        (the trace's error view shows all of it); the whole text as its tooltip."""
        self.status.setText(text.splitlines()[0] if text else "")
        self.status.setToolTip(plain_tip(text) if text else "")

    def _set_state(self, state: str) -> None:
        self.state = state
        self._set_busy(self.session.busy)

    def _set_busy(self, busy: bool) -> None:
        """Progress shows while the worker works; the buttons follow the run's state (history
        lookups keep them enabled)."""
        running = self.session.running
        self.progress.setRange(0, 0)
        self.progress.setVisible(busy)
        state = "running" if running else self.state
        pending = (
            self.view is not None and self.view.pending and self.view.thread_id == self.thread_id
        )
        can_go_on = state in ("paused", "breakpoint", "stopped", "interrupted") or (
            state == "failed" and pending
        )
        self.run_button.setEnabled(not running)
        self.step_button.setEnabled(not running and state not in ("stale", "interrupted"))
        self.continue_button.setEnabled(self.held is not None or (not running and can_go_on))
        self.stop_button.setEnabled(running or state in ("paused", "stale"))
        self.durability.setEnabled(not running and not self.paused)

    def db_path(self) -> Path:
        return db_path_for(self.document.path, self.document.spec.name, studio_home())

    @property
    def book(self) -> ThreadBook:
        """Names, dates and inputs of the threads in the database runs use now (Save As moves it)."""
        db = self.db_path()
        if self._book.path != book_path(db):
            self._book = ThreadBook(db)
        return self._book

    def _leaving(self) -> None:
        """The document is being replaced, or the window closes: a run paused or in flight
        ends with it (its record stops saying "paused"; reopening shows what it saved), and
        results still on their way are about the document left."""
        ran = self.live or (self._ran if self.session.running else None)
        if self.session.running:
            self.session.stop()  # a task waiting at a breakpoint goes on, and fails or ends
        if self.held is not None:
            self._set_held(None)
        if ran is not None:
            self.book.note(ran, status="stopped")
        self.session.drop_results()

    def _spec_loaded(self) -> None:
        self.live = None
        self.view = None
        self._picked = False
        self.summaries = {}
        self._book = ThreadBook()  # read again when asked: another window may have written it
        self.threads, self._thread = [], "main"  # until the new database lists its own
        self._fill_threads()
        self._say(translate("run.controller", "Ready to run"))
        self._show_inputs()
        self.input_panel.show_context(getattr(self.document.code, "context", None))
        self.trace.clear()
        self.events.clear()
        self.diff.tree.clear()
        self.channels.show_rows(
            [], caption=translate("run.controller", "No run yet: Step or Run to see the channels.")
        )
        self.history.show_thread(ThreadView("—", []))
        self.interrupt_panel.show_interrupts([])
        self.restart_banner.hide()
        self._set_state("idle")
        self.session.open(self.db_path(), getattr(self.document.code, "saver", None))
        self.session.set_points(self.document.spec.breakpoints.points)
        self.session.list_threads()

    def _show_inputs(self) -> None:
        """The saved inputs; any JSON value where the graph takes one (a workflow, a graph whose
        state is one value), else a state object."""
        spec = self.document.spec
        code = self.document.code
        whole = code is not None or holds_one_value(spec)
        self.input_panel.set_inputs(spec.inputs, whole, getattr(code, "script_input", None))

    def _spec_edited(self, fields: frozenset) -> None:
        if "inputs" in fields or "state_class" in fields:
            self._show_inputs()
        if "breakpoints" in fields:  # the run in flight stops at the new ones too
            self.session.set_points(self.document.spec.breakpoints.points)
        if (
            self.live is not None
            and self.state == "paused"
            and behaviour(self.document.spec) != self._fingerprint
        ):
            self._set_state("stale")
            self.restart_banner.label.setText(
                translate(
                    "run.controller",
                    "The graph changed while thread {live} is paused: the paused run still has the old graph. Restart it with the new graph from its last checkpoint, or from the start.",
                ).format(live=self.live)
            )
            self.restart_banner.show()
            self._say(
                translate(
                    "run.controller",
                    "The graph changed: restart the paused run (banner above the canvas)",
                )
            )

    # ------------------------------------------------------------------ commands

    def _may_run(self) -> bool:
        if (blocked := self.window.run_blocker()) is not None:  # trust, re-checked on each run
            self._say(blocked)
            return False
        if self.session.running:
            self._say(translate("run.controller", "A run is in progress: Stop it first"))
            return False
        if not self.input_panel.context()[0]:
            self._say(translate("run.controller", "The context is not JSON (Run input dock)"))
            return False
        self.session.open(self.db_path(), getattr(self.document.code, "saver", None))
        return True

    def _prepare_run(self, clear: bool, thread: str) -> None:
        self._ran = thread
        self.book.ran(thread)
        if clear:
            self.trace.clear()
            self.events.clear()
            self.deep_agent.clear()
        self.trace.clear_error()
        self.overlay.clear()
        self.last_failure = None
        self.interrupt_panel.hide()
        self.restart_banner.hide()
        self.live = None
        self._picked = True
        self._fingerprint = behaviour(self.document.spec)
        self.session.set_points(self.document.spec.breakpoints.points)
        self._raise_run_docks()

    def _new_run(self, run_input: Any, steps: int | None, clear: bool = True) -> None:
        self._prepare_run(clear, self.thread_id)
        # (the script's own input stays in memory: it holds Python objects, the book is JSON)
        if isinstance(run_input, dict) and not self.input_panel.script_chosen:
            self.book.note(self.thread_id, input=run_input)
        self.session.start(
            self.target(), self.thread_id, run_input, steps, self.durability.currentText()
        )
        self._set_state("running")

    def run(self) -> None:
        if self._may_run() and (value := self.input_panel.value()) is not None:
            self._say(
                translate("run.controller", "Running on thread {thread_id}…").format(
                    thread_id=self.thread_id
                )
            )
            self._new_run(value, None)

    def step(self) -> None:
        if not self._may_run():
            return
        if self.state == "stale":
            self.restart_banner.show()
            self._say(
                translate(
                    "run.controller",
                    "The graph changed: restart the paused run first (banner above the canvas)",
                )
            )
        elif self.paused:
            self.session.advance(1)
            self._set_state("running")
        elif self.state in ("breakpoint", "stopped") and self._pending_here():
            self._new_run(None, 1, clear=False)  # one superstep past the breakpoint
        elif (value := self.input_panel.value()) is not None:
            self._new_run(value, 1)

    def _pending_here(self) -> bool:
        return self.view is not None and self.view.pending and self.view.thread_id == self.thread_id

    def carry_on(self) -> None:
        if self.held is not None:
            self.release("continue")
            return
        if not self._may_run():
            return
        if self.state == "stale":
            self.restart_banner.show()
            self._say(
                translate(
                    "run.controller",
                    "The graph changed: restart the paused run first (banner above the canvas)",
                )
            )
        elif self.paused:
            self.session.advance(None)
            self._set_state("running")
        elif self.view is not None and self.view.interrupts:
            self.interrupt_panel.show()
            self._say(
                translate(
                    "run.controller",
                    "The run waits for an interrupt answer: answer it in the panel above the canvas",
                )
            )
        elif self._pending_here():
            self._new_run(None, None, clear=False)  # past a breakpoint, or a run cut short
        else:
            self._say(translate("run.controller", "Nothing to continue: Run or Step starts a run"))

    def stop(self) -> None:
        if self.session.running:
            self.session.stop()  # a task waiting at a breakpoint goes on, and none stops again
            self._set_held(None)
            self._say(translate("run.controller", "Stopping after this superstep…"))
        elif self.live is not None:
            self.live = None
            self.restart_banner.hide()
            self.session.forget_graph()
            self.overlay.set_running([])
            self._set_state("stopped" if self._pending_here() else "finished")
            self._say(
                translate("run.controller", "Run abandoned (its checkpoints stay in the history)")
            )

    def restart(self, from_start: bool) -> None:
        """The graph changed under a paused run: carry the thread on with the new graph, from its
        last checkpoint or from its first (a new branch in the tree); Step or Continue goes on."""
        thread = self.live or self.thread_id
        if not self._may_run():
            return
        history = (
            self.view.history if self.view is not None and self.view.thread_id == thread else []
        )
        if from_start and not history:
            self._say(
                translate(
                    "run.controller",
                    "Nothing saved on this thread yet: Step starts it with the new graph",
                )
            )
            self.live = None
            self.restart_banner.hide()
            self._set_state("idle")
            return
        if not from_start:
            config = {"configurable": {"thread_id": thread}}
        elif self.view is not None and not self.view.complete:  # the first page is not read yet
            config = {"configurable": {"thread_id": thread}, "first": True}
        else:
            config = min(history, key=lambda e: e.checkpoint_id).config
        self._prepare_run(clear=True, thread=thread)
        self.session.forget_graph()
        self.session.resume_from(self.target(), config, None, 0, self.durability.currentText())
        self.live = thread
        self._set_state("paused")
        where = (
            translate("run.controller", "its first checkpoint")
            if from_start
            else translate("run.controller", "its last checkpoint")
        )
        self._say(
            translate(
                "run.controller",
                "Thread {thread} restarted with the new graph from {where}: Step or Continue",
            ).format(thread=thread, where=where)
        )

    def answer(self, interrupt_id: str | None, value: Any) -> None:
        if not self._may_run():
            self.interrupt_panel.show()
            return
        resume = value if interrupt_id is None else {interrupt_id: value}
        self.trace.note(
            translate("run.controller", "Interrupt answered"),
            translate("run.controller", "resumed with {value}").format(
                value=json.dumps(resume, default=str)[:200]
            ),
        )
        self._say(translate("run.controller", "Resuming…"))
        from engine.types import Command  # loaded by the run it resumes; not needed to draw

        self._new_run(Command(resume=resume), None, clear=False)

    def replay(self, entry: HistoryEntry) -> None:
        if self._may_run():
            self._start_from(entry, None)

    def fork(self, entry: HistoryEntry, updates: dict) -> None:
        if self._may_run():
            self._start_from(entry, updates)

    def _start_from(self, entry: HistoryEntry, updates: dict | None) -> None:
        self._thread = entry.config["configurable"]["thread_id"]
        self._prepare_run(clear=True, thread=self._thread)
        what = "Forking" if updates else "Replaying"
        self._say(
            translate("run.controller", "{what} from step {step} ({value})…").format(
                what=what, step=entry.step, value=entry.checkpoint_id[-8:]
            )
        )
        self.session.resume_from(
            self.target(), entry.config, updates, None, self.durability.currentText()
        )
        self._set_state("running")

    def show_thread(self) -> None:
        """Show the chosen thread's history and channels (compiles the spec)."""
        chosen = self.thread_selector.currentData()
        if chosen and chosen != self._thread:  # picked in the selector
            self._thread, self._picked = chosen, True
        if self._may_run():
            self.session.refresh(self.target(), self.thread_id)

    def _checkpoint_chosen(self, entry: HistoryEntry) -> None:
        if not self.session.running and self.window.run_blocker() is None:
            self.session.checkpoint_channels(self.target(), entry.config)

    def compare(self, old: HistoryEntry, new: HistoryEntry) -> None:
        if self.session.running:
            self._say(translate("run.controller", "A run is in progress: compare when it pauses"))
        elif self.window.run_blocker() is None:
            self.session.diff(self.target(), old, new)

    def older_history(self, oldest: HistoryEntry) -> None:
        if self.window.run_blocker() is None:
            self.session.more_history(self.target(), self.thread_id, oldest)

    def _history_page(self, thread_id: str, entries: list[HistoryEntry]) -> None:
        if self.view is None or self.view.thread_id != thread_id:
            return
        known = {e.checkpoint_id for e in self.view.history}
        self.view.history.extend(e for e in entries if e.checkpoint_id not in known)
        if not entries:  # nothing older after all
            self.view.total = len(self.view.history)
        self.history.show_thread(self.view)

    def _scope_changed(self, ns: tuple | None) -> None:
        """Stepped into an inner graph: the Channels dock shows its channels as its last barrier
        left them; back out, the root's as the run left them."""
        if ns is None:
            if self._last_report is not None:
                self._show_report_channels(self._last_report)
            return
        kinds = self.session.inner_channel_kinds(ns)
        rows = [ChannelRow(name, kinds.get(name, "—"), value, version, True)
                for name, (value, version) in sorted(self.trace.model.barriers.get(ns, {}).items())]  # fmt: skip
        self.channels.show_rows(
            rows,
            caption=translate(
                "run.controller", "Inside {ns_label}: its channels after its last barrier"
            ).format(ns_label=ns_label(ns)),
        )

    def _diff_ready(self, diff: Any) -> None:
        self.diff.show_diff(diff)
        self.docks["diffDock"].show()
        self.docks["diffDock"].raise_()

    def _checkpoint_channels(self, found: tuple) -> None:
        rows, changes, checkpoint_id = found
        entry = next((e for e in self.history.entries if e.checkpoint_id == checkpoint_id), None)
        where = (
            translate("run.controller", " at step {step} ({value})").format(
                step=entry.step, value=entry.checkpoint_id[-8:]
            )
            if entry
            else ""
        )
        self.channels.show_rows(rows, changes, caption=translate("run.controller", "Thread {thread_id}{where}; highlighted: what that step changed (old → new)").format(thread_id=self.thread_id, where=where))  # fmt: skip

    def _raise_run_docks(self) -> None:
        for name in ("channelsDock", "historyDock", "traceDock", "eventsDock"):
            self.docks[name].show()
            self.docks[name].raise_()

    # ------------------------------------------------------------------ results

    def _stepped(self, report: StepReport) -> None:
        self.trace.add_events(report.events)
        self.events.add_parts(report.chunks)
        if self.deep_agent.add_events(report.events) and self.deep_agent.announce():
            dock = self.docks["deepAgentDock"]  # a deep agent's files or to-dos moved
            dock.show()
            dock.raise_()  # at the workspace's size: taller, it cut the Checkpoints' buttons
            QTimer.singleShot(0, self.window.refit_if_cramped)  # its files and to-dos now shown
        self._last_report = report
        if self.trace.current_scope is None:
            self._show_report_channels(report)
        self.overlay.show_writes(report.events)
        self.live = None if report.done else report.thread_id
        ran = [n for n in report.running if not n.startswith("__")]
        self.overlay.set_running([] if report.done else ran)
        if report.step is not None:
            more = (
                "" if report.done else translate("run.controller", " — Step or Continue for more")
            )
            self._say(
                translate("run.controller", "Step {step}: ran {value}{more}").format(
                    step=report.step, value=", ".join(report.running) or "nothing", more=more
                )
            )

    def _show_report_channels(self, report: StepReport) -> None:
        step = report.step if report.values_step is None else report.values_step
        where = (
            translate("run.controller", "after step {step}").format(step=step)
            if step is not None
            else ""
        )
        self.channels.show_rows(report.channels, report.changes, caption=translate("run.controller", "Thread {thread_id} {where}; highlighted: what the last barrier changed (old → new)").format(thread_id=report.thread_id, where=where))  # fmt: skip

    def _thread_ready(self, view: ThreadView) -> None:
        if self.held is not None and not self.session.running:
            self._set_held(None)  # the run ended (Stop, the window's document replaced)
        if (
            view.thread_id != self.thread_id
            and self.view is not None
            and self.view.thread_id == self.thread_id
        ):
            return  # the user moved to another thread while this one ran
        if view.thread_id != self._ran:  # the canvas showed another thread's run
            self.overlay.clear()
        self.view = view
        self.history.show_thread(view)
        if view.thread_id not in self.threads:
            self.threads = sorted({*self.threads, view.thread_id})
        if self.paused and self.state != "stale":
            state = "paused"
        elif self.paused:
            state = "stale"
        elif view.interrupts:
            self.interrupt_panel.show_interrupts(view.interrupts, self.input_panel.resume_hint())
            self.overlay.set_running([node for node, _value, _iid in view.interrupts])  # waiting
            node, _value, iid = view.interrupts[0]
            asked = (
                translate("run.controller", "Paused: {value} raised NodeInterrupt — Edit the state…, then it runs again")
                if iid == RAISED_ID
                else translate("run.controller", "Paused: {value} is waiting for an answer")
            )  # fmt: skip
            self._say(asked.format(value=node))
            state = "interrupted"
        elif self.last_failure is not None and view.thread_id == self._ran:
            state = "failed"
        elif view.errors:  # a run failed here before (or in the program's own code)
            node, error = view.errors[0]
            self.overlay.set_error(node, error.splitlines()[0][:80] if error else "")
            self._say(translate("run.controller", "The last run on thread {thread_id} failed in {node}: {error} — Continue runs it again").format(
                thread_id=view.thread_id, node=node, error=error))  # fmt: skip
            state = "failed"
        elif view.next:
            where = [" › ".join(path) for path in view.waiting] or view.next
            self._say(
                translate("run.controller", "Paused before {join}: Continue runs on").format(
                    join=", ".join(where)
                )
            )
            state = "breakpoint"
        elif view.pending:
            self._say(
                translate(
                    "run.controller",
                    "Stopped between steps (the last step's work is saved): Continue finishes it",
                )
            )
            state = "stopped"
        elif view.history:
            self._say(
                translate(
                    "run.controller", "Finished: {total} checkpoints on thread {thread_id}"
                ).format(total=view.total, thread_id=view.thread_id)
            )
            state = "finished"
        else:
            state = "idle"
        self._set_state(state)
        last = view.history[0].step if view.history else None
        self.book.note(view.thread_id, status=state, last_step=last if type(last) is int else None)
        self._fill_threads()

    def _held(self, held: Held) -> None:
        stop = held.stop
        inside = translate("run.controller", " inside ")
        where = inside.join(reversed(stop.path)) if len(stop.path) > 1 else stop.path[0]
        what = {
            "before": translate("run.controller", "Paused before {where} (visit {visit}): the Breakpoints dock shows its input"),
            "after": translate("run.controller", "Paused after {where} (visit {visit}): the Breakpoints dock shows its input"),
            "error": translate("run.controller", "Paused on an error in {where} (visit {visit}): the Breakpoints dock shows its input"),
        }[stop.at]  # fmt: skip
        self.overlay.set_running([stop.path[0]])
        self._set_held(held)
        self._say(what.format(where=where, visit=stop.visit))

    def release(self, decision: str, edited_input: Any = None) -> None:
        """The task waiting at a breakpoint goes on ("continue"; a failed one fails) or runs
        again ("retry"), with `edited_input` as its input when given."""
        if self.held is None:
            return
        self._set_held(None)
        self.session.answer_held(decision, edited_input)
        self._say(
            translate("run.controller", "Retrying the step…")
            if decision == "retry"
            else translate("run.controller", "Running on…")
        )

    def _set_held(self, held: Held | None) -> None:
        self.held = held
        self._set_busy(self.session.busy)
        for listener in self.held_changed:
            listener(held)

    def _failed(self, failure: RunFailure) -> None:
        self._set_held(None)
        self.last_failure = failure
        self.live = None
        self.overlay.set_running([])
        # the line of the program that raised stays in view with the message, above the traceback
        title = f"{failure.message}\n{failure.where}" if failure.where else failure.message
        self.trace.show_error(title, failure.traceback)
        self.docks["traceDock"].show()
        self.docks["traceDock"].raise_()
        if failure.element_id is not None:
            if self.document.spec.drawn_node(failure.element_id) in self.window.scene.nodes:
                self.overlay.set_error(
                    failure.element_id, failure.message.split(": ", 1)[-1].splitlines()[0][:80]
                )
            else:
                self.window.scene.select_ids([failure.element_id])
        self._say(
            translate("run.controller", "Run failed — {message}").format(message=failure.message)
        )
        self._set_state("failed")

    def close(self) -> None:
        self._leaving()
        self.session.close()


def behaviour(spec: Any) -> str:
    """The spec as the engine sees it: without positions, view, saved inputs, name and notes, so
    moving a node or saving an input is not a change to the paused run's graph."""
    # the debugger's own breakpoints (points) are read by the run as it goes: not its graph
    data = spec.model_dump(
        mode="json",
        exclude={"view": True, "inputs": True, "name": True, "description": True,
                 "breakpoints": {"points"}},
    )  # fmt: skip

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("position", "size", "notes")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return json.dumps(strip(data), sort_keys=True, default=str)
