"""The Tests dock in the main window: runs are recorded while Record runs is on (it starts on
for a spec with model, tools or agent nodes) and their calls noted in the Superstep trace; the
current thread can be replayed (the run diff opens) or saved as a test, and the spec's saved
tests (`tests/` beside it) run from here.

It reads the run controller's public face only: the database runs use (`db_path`), the current
thread, the handlers every run carries (`session.callbacks`) and the trace's notes.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QCheckBox

from engine.record.store import RecordedCall, RecordingStore
from studio.i18n import translate
from studio.replay.replay_menu import ReplayMenu
from studio.replay.run_diff import diff_threads
from studio.replay.saved_trust import trusted_by_user
from studio.replay.tests_panel import TestsPanel
from studio.run.widgets import button
from studio.workers import run_in_thread

if TYPE_CHECKING:
    from engine.record.recorder import Recorder


class ReplayDock(QObject):
    """Recording, replay and saved tests for one main window."""

    call_recorded = Signal(object)  # RecordedCall, queued from the run's thread

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self._stores: dict[Path, RecordingStore] = {}
        self.panel = TestsPanel(trusted=self._trusted)
        self.record_box = QCheckBox(translate("replay.dock", "Record runs"))
        self.record_box.setObjectName("recordRuns")
        self.record_box.setToolTip(translate("replay.dock", "Keep every model and tool call of the runs beside their "
                                   "checkpoints, to replay them or save them as tests"))  # fmt: skip
        self.record_box.toggled.connect(self._set_recording)
        self.panel.actions.insertWidget(1, self.record_box)
        self.replay_menu = ReplayMenu()
        self.replay_menu.replay_requested.connect(lambda picked: self.replay(from_picked=picked))
        self.panel.actions.addWidget(self.replay_menu)
        save = button("saveTest", translate("replay.dock", "Save as test"), self.save)
        save.setToolTip(
            translate(
                "replay.dock", "Write the current thread as a pytest file in tests/ beside the spec"
            )
        )
        self.panel.actions.addWidget(save)
        # a call is noted after the trace shows the steps reported with it (connected later
        # than the run controller, so its rows come first), not above them
        self._calls: list[RecordedCall] = []
        self.call_recorded.connect(self._calls.append, Qt.ConnectionType.QueuedConnection)
        session = window.runner.session
        session.stepped.connect(lambda _report: self._note_calls())
        session.busy_changed.connect(lambda busy: busy or self._note_calls())
        window.document.changed.connect(self._spec_changed)
        window.document.reset.connect(self._spec_loaded)
        self._spec_loaded()

    # -- whether runs are recorded
    @cached_property
    def recorder(self) -> Recorder:
        """Made when runs are first recorded: it loads langchain-core's callbacks and serializer,
        which the window does not need to open."""
        from engine.record.recorder import Recorder

        recorder = Recorder(self.store)
        recorder.listeners.append(self.call_recorded.emit)
        return recorder

    def _set_recording(self, on: bool) -> None:
        """A handler costs every superstep a callback run, so it is there only when asked for."""
        callbacks = self.window.runner.session.callbacks
        if on and self.recorder not in callbacks:
            callbacks.append(self.recorder)
        elif not on and "recorder" in vars(self) and self.recorder in callbacks:
            callbacks.remove(self.recorder)

    def _trusted(self, path: Path) -> bool:
        """A saved test's spec runs its code when the studio's record trusts it, as opening
        asks; a program's, when it is the one open here (the user agreed to run it)."""
        code = self.window.document.code
        if code is not None and code.source is not None and path == code.source.resolve():
            return True
        return trusted_by_user(path)

    def _spec_loaded(self) -> None:
        doc = self.window.document
        self.record_box.setChecked(doc.code is not None or calls_models(doc.spec))
        self._follow_spec()

    def _spec_changed(self, fields: frozenset) -> None:
        if "nodes" in fields and calls_models(self.window.document.spec):
            self.record_box.setChecked(True)  # a model node drawn: its calls are worth keeping
        self._follow_spec()

    # -- where things are
    def store(self) -> RecordingStore:
        """The store in the database runs use now (one connection per database). The saver
        checks the file first: one it refuses (another program's) is never written to."""
        db = Path(self.window.runner.db_path())
        if db not in self._stores:
            from engine.checkpoint.sqlite import SqliteSaver

            with SqliteSaver.from_conn_string(str(db)) as saver:
                self._stores[db] = RecordingStore.for_saver(saver)
        return self._stores[db]

    def _follow_spec(self) -> None:
        path = self.window.document.path
        folder = Path(path).parent / "tests" if path else None
        if folder != self.panel.folder:
            self.panel.set_folder(folder)

    def _say(self, text: str) -> None:
        self.panel.say(text)
        self.window.statusBar().showMessage(text, 6000)

    # -- the trace
    def _note_calls(self) -> None:
        calls, self._calls[:] = list(self._calls), []
        for call in calls:
            what = "failed" if call.error else "recorded" if call.served == "live" else call.served
            self.window.runner.trace.note(translate("replay.dock", "{kind} call · {replace}").format(kind=call.kind, replace=call.node.replace('|', ' › ')),
                                          translate("replay.dock", "step {step}, call {value}: {what}").format(step=call.step, value=call.call_index + 1, what=what))  # fmt: skip

    # -- commands
    def _target(self) -> Any:
        """What compiling needs, read on the GUI thread (a RunTarget): the spec as it is now,
        or the graph from code."""
        from studio.run.runner import RunTarget

        doc = self.window.document
        if doc.code is not None:
            return RunTarget(*self.window.run_args())
        return RunTarget(doc.spec, doc.base_dir, doc.trusted)

    def replay(self, from_picked: bool = False) -> None:
        """Replay the current thread (from the checkpoint picked in Checkpoints) on a new one,
        serving its recorded calls; show the run diff."""
        thread, db = self.window.runner.thread_id, Path(self.window.runner.db_path())
        if not self.store().runs(thread):
            self._say(
                translate(
                    "replay.dock", "Thread {thread} has no recording: run it with Record runs on"
                ).format(thread=thread)
            )
            return
        picked = self.window.runner.history.current() if from_picked else None
        if from_picked and picked is None:
            self._say(translate("replay.dock", "Pick a checkpoint in Checkpoints to replay from"))
            return
        target = self._target()
        policy, serve = self.replay_menu.policy, self.replay_menu.serve
        # replaying loads langchain-core's LLM cache and the tool node: here, not with the window
        from engine.record.replay import free_thread_id, replay_from, replay_thread

        def work() -> Any:
            from engine.checkpoint.sqlite import SqliteSaver
            from graphspec.compiler import run_config

            with SqliteSaver.from_conn_string(str(db)) as saver:
                into = free_thread_id(saver, f"{thread}-replay")
                graph = _compile(target, saver)
                options = dict(on_change=policy, serve=serve, config=run_config(target.spec),
                               store=RecordingStore.for_saver(saver))  # fmt: skip
                if picked is None:
                    report = replay_thread(graph, thread, into, **options)
                else:
                    report = replay_from(graph, thread, picked.checkpoint_id, into, **options)
                return report, diff_threads(graph, thread, into)

        where = (
            translate("replay.dock", " from step {step}").format(step=picked.step)
            if picked is not None
            else ""
        )
        self._say(
            translate("replay.dock", "Replaying thread {thread}{where}…").format(
                thread=thread, where=where
            )
        )
        run_in_thread(work, self._replayed)

    def _replayed(self, result: Any, error: BaseException | None) -> None:
        if error is not None:
            self._say(
                translate("replay.dock", "Replay failed: {name__}: {error}").format(
                    name__=type(error).__name__, error=error
                )
            )
            return
        report, diff = result
        self.panel.diff.show_diff(diff)
        self.panel.failure.setPlainText("\n".join([report.summary(),
                                                   *(d.describe() for d in report.changed)]))  # fmt: skip
        self._say(report.summary())
        self.window.runner.session.list_threads()

    def save(self) -> None:
        """Save the current thread's recording as a test in the spec's tests folder."""
        from engine.checkpoint.sqlite import SqliteSaver

        doc, thread = self.window.document, self.window.runner.thread_id
        source = doc.code.source if doc.code is not None else doc.path
        if not source:
            self._say(translate("replay.dock", "Save the spec first: its tests go in a tests folder beside it")
                      if doc.code is None else translate("replay.dock", "A graph handed over by debug() has no file "
                      "for a test to load: open its program instead"))  # fmt: skip
            return
        try:
            with SqliteSaver.from_conn_string(str(self.window.runner.db_path())) as saver:
                graph = _compile(self._target(), saver)
                test = self.panel.save_thread(graph, Path(source), thread,
                                              getattr(doc.code, "name", None))  # fmt: skip
        except Exception as exc:  # no recording, an unreadable database: say so, never crash
            self._say(
                translate("replay.dock", "Cannot save thread {thread} as a test: {exc}").format(
                    thread=thread, exc=exc
                )
            )
            return
        self._say(translate("replay.dock", "Saved {name}").format(name=test.name))


MODEL_KINDS = ("model", "tools", "agent")


def calls_models(spec: Any) -> bool:
    """Whether the spec has nodes that call chat models or tools (recorded by default)."""
    return any(node.kind in MODEL_KINDS for node in spec.nodes)


def _compile(target: Any, saver: Any) -> Any:
    from graphspec.providers import keyless_models

    with keyless_models():  # a replay serves the model calls; one going live uses the real key
        return target.compile(saver)
