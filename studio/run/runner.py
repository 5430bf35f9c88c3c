"""Drive the engine off the GUI thread: compile the spec, step supersteps, read checkpoints.

Every engine call runs on one dedicated worker thread (so a run's suspended generator and the
SQLite saver are only ever touched there, in order); results come back to the GUI thread as
Qt signals (queued automatically, because the session lives on the GUI thread).

A step's panels read the run itself: the trace events, and the channels of the stepper's loop;
the saver is read for history (after a run pauses or ends) and for past checkpoints only, so any
durability works.
"""

from __future__ import annotations

import contextlib
import gc
import linecache
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from engine._constants import CONFIG_KEY_TASK_HOOK, NS_END, NS_SEP
from engine.constants import MISSING
from engine.pregel import trace
from graphspec.expressions import cancel_with
from graphspec.model import GraphSpec
from graphspec.provider_errors import describe_provider_error
from graphspec.run_errors import error_text
from graphspec.templates import is_bundled
from studio.i18n import translate
from studio.run.pauses import Held, TaskPauses
from studio.run.user_frames import user_traceback, where_raised
from studio.workers import DaemonExecutor

INTERNAL_PREFIXES = ("__", "branch:to:", "join:")
DURABILITIES = ("async", "sync", "exit")
"""langgraph's choices; "async" (the engine's default) first."""
BATCH_SECONDS = 0.05
"""A run of many supersteps reports to the GUI at most this often: the panels take one batch of
events at a time instead of one signal, table refill and repaint per superstep."""
HANDOFF_SECONDS = 0.2
"""The worker waits (GIL released) at most this long for the GUI to show a batch: the GUI has
the GIL to itself meanwhile, and batches never pile up in its queue."""
MODEL_FREE_KINDS = frozenset({"set_state", "interrupt", "expression", "send"})
"""Node and router kinds that cannot call a chat model (expressions, interrupts, Send lists)."""
PAGE = 200
"""Checkpoints read per page of a thread's history (the newest first; older pages on demand)."""


@dataclass(frozen=True)
class RunTarget:
    """What a run compiles: the spec, the folder its subgraph files are read from, and whether
    its Python code may run; or, for a graph from code, the compiled graph itself (`spec` is
    then its drawing, whose breakpoints, the graph's own at first, are the run's)."""

    spec: GraphSpec
    base_dir: Path | None
    trusted: bool
    graph: Any = None
    context: Any = None
    """The run context a graph from code was handed over with (`debug(graph, context=...)`)."""
    served: Any = None
    """How langgraph dev serves a langgraph.json project's graph (`program_serve.Served`): its
    store where the graph has none, its run context where none is given; None otherwise."""
    configurable: Any = None
    """The config keys a program's script ran the graph with, but its thread (`user_id`...):
    a graph from code runs with them, as the script's runs did; None otherwise."""

    def compile(self, checkpointer: Any = None) -> Any:
        """The graph a run uses, with `checkpointer` and the breakpoints drawn."""
        before, after = list(self.spec.breakpoints.before), list(self.spec.breakpoints.after)
        if self.graph is not None:
            # the drawing holds the graph's own breakpoints (graph_drawing), "*" as every node:
            # a cleared one stays off
            update: dict[str, Any] = {
                "interrupt_before_nodes": before,
                "interrupt_after_nodes": after,
            }
            if checkpointer is not None:
                update["checkpointer"] = checkpointer
            return self.graph.copy(update)
        from graphspec.compiler import compile_spec

        return compile_spec(self.spec, trusted=self.trusted, checkpointer=checkpointer,
                            base_dir=self.base_dir)  # fmt: skip


def db_path_for(spec_path: Path | None, spec_name: str, home: Path) -> Path:
    """`<spec>.checkpoints.sqlite` beside a saved spec; else (an unsaved spec, or a bundled
    template, whose folder the studio never writes to) one file per spec name under `home`."""
    if spec_path is not None and not is_bundled(spec_path):
        return spec_path.with_name(spec_path.stem + ".checkpoints.sqlite")
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", spec_name or "untitled").strip("_") or "untitled"
    return home / "runs" / f"{safe}.checkpoints.sqlite"


def channel_kind(channel: Any) -> str:
    """The channel's class; a reducer channel names its reducer instead (`reducer: add`)."""
    op = getattr(channel, "operator", None)
    if op is not None:
        return f"reducer: {getattr(op, '__name__', repr(op))}"
    return type(channel).__name__


def inner_channel_kinds(graph: Any, ns: tuple[str, ...]) -> dict[str, str]:
    """channel -> kind (as channel_kind) of the inner graph a trace namespace ran in (its task
    ids dropped: `outer|inner`); {} when the compiled graph does not hold it (a graph a node
    builds as it runs)."""
    if graph is None or not ns:
        return {}
    path = NS_SEP.join(part.split(NS_END, 1)[0] for part in ns)
    try:
        found = next(iter(graph.get_subgraphs(namespace=path, recurse=True)), None)
    except Exception:  # a node's own object answering oddly: no kinds, never a crash
        return {}
    channels = getattr(found[1], "channels", None) if found else None
    return {name: channel_kind(ch) for name, ch in (channels or {}).items()}


def is_internal(channel: str) -> bool:
    return channel.startswith(INTERNAL_PREFIXES)


@dataclass
class ChannelRow:
    name: str
    kind: str
    value: Any
    version: Any
    has_value: bool


@dataclass
class StepReport:
    """What one superstep did, and the channels right after it (read from the run's loop)."""

    events: list[Any]
    chunks: list[Any]
    channels: list[ChannelRow]
    running: list[str]
    done: bool
    thread_id: str = ""
    step: int | None = None
    """The root graph's superstep (None when the step planned nothing at the root)."""
    changes: list[Any] = field(default_factory=list)
    """What the root barrier applied, as the engine's BarrierApplied reported it."""
    interrupted: bool = False
    values_step: int | None = None
    """The step of the checkpoint the channels hold: the last barrier's (a step interrupted or
    failed applied none, so its channels are still as after the step before)."""


@dataclass
class RunFailure:
    message: str
    traceback: str = ""
    element_id: str | None = None
    """The node (or spec element) at fault, when known."""
    where: str = ""
    """The line of the program's own code that raised (`at file, line N, in f: code`), if any."""


@dataclass
class HistoryEntry:
    step: Any
    source: str
    next: tuple[str, ...]
    checkpoint_id: str
    parent_id: str | None
    created_at: str
    values: dict
    config: dict


@dataclass
class ThreadView:
    """A thread as the panels show it between runs."""

    thread_id: str
    history: list[HistoryEntry]
    interrupts: list[tuple[str, Any, str]] = field(default_factory=list)
    """(node name, interrupt value, interrupt id) of each pending interrupt."""
    next: tuple[str, ...] = ()
    values: dict = field(default_factory=dict)
    threads: list[str] = field(default_factory=list)
    pending: bool = False
    """The latest checkpoint has tasks to run or apply: Continue carries on. True with an empty
    `next` when a run was killed after its tasks' writes were saved, before the next checkpoint."""
    total: int = 0
    """Checkpoints in the thread's root namespace; `history` holds the newest of them (a page)."""
    errors: list[tuple[str, str]] = field(default_factory=list)
    """(task name, error) of each task whose last attempt raised: a run on this thread failed
    there (in the studio before, or in the program's own code) and Continue runs it again."""
    waiting: tuple[tuple[str, ...], ...] = ()
    """Where each task of `next` waits, down through the subgraphs it runs: `("team",
    "review")` when the subgraph `team` paused before its node `review`."""

    @property
    def complete(self) -> bool:
        return len(self.history) >= self.total


def remember_sources(spec: GraphSpec) -> None:
    """Put the spec's inline code in `linecache` under the names `graphspec.trust` compiles it with,
    so a traceback through user code shows the user's lines."""
    for node in spec.nodes:
        code = getattr(node, "code", None)
        if isinstance(code, str):
            name = f"<spec {node.id}>"
            linecache.cache[name] = (len(code), None, code.splitlines(keepends=True), name)


def saved_error(error: Any) -> str:
    """A task's error as a checkpoint keeps it: the exception, or its repr once saved."""
    return f"{type(error).__name__}: {error}" if isinstance(error, BaseException) else str(error)


def failure_from(exc: BaseException, events: list[Any]) -> RunFailure:
    """Name the node that raised (from the task's trace) or the spec element a SpecError names."""
    for event in reversed(events):
        if isinstance(event, trace.TaskFinished) and event.error is not None:
            tb = user_traceback(event.error)
            # a real provider's failure (bad key, rate limit, network...) as one clear line
            said = describe_provider_error(event.error) or error_text(event.error)
            return RunFailure(f"{event.name}: {said}", tb, event.name, where_raised(event.error))
    findings = getattr(exc, "findings", None)
    if findings:
        lines = [f.labelled() for f in findings]
        return RunFailure(
            translate("run.runner", "Cannot compile: ") + lines[0],
            "\n".join(lines),
            findings[0].element_id,
        )
    element = getattr(exc, "element_id", None)
    prefix = translate("run.runner", "Cannot compile: ") if element is not None else ""
    return RunFailure(f"{prefix}{error_text(exc)}", user_traceback(exc), element, where_raised(exc))


class RunSession(QObject):
    """One spec's runs: a compiled graph, a SQLite checkpointer, at most one stepper in flight."""

    stepped = Signal(object)  # StepReport
    thread_ready = Signal(object)  # ThreadView
    channels_ready = Signal(
        object
    )  # ([ChannelRow], [ChannelChange], checkpoint id or None: the latest)
    threads_ready = Signal(object)  # list[str]: the thread ids in the database
    summaries_ready = Signal(object)  # {thread id: ThreadSummary} when the saver offers them
    diff_ready = Signal(object)  # CheckpointDiff
    history_page = Signal(
        object, object
    )  # thread id, [HistoryEntry]: older checkpoints, newest first
    failed = Signal(object)  # RunFailure
    held = Signal(object)  # Held: a task waits at a breakpoint (`answer_held` lets it go on)
    busy_changed = Signal(bool)
    """Sent whenever a job is queued or its results are delivered (read `busy`, `running`)."""
    message = Signal(str)
    _job_done = Signal(bool)
    _result = Signal(str, object)
    """A result signal's name and arguments, sent by a job (see `_route`)."""

    def __init__(self) -> None:
        super().__init__()
        self._executor = DaemonExecutor("studio-run")  # closing the window ends the process
        self._stop = threading.Event()
        self._pending = 0
        self._runs = 0
        """Jobs submitted whose end the GUI thread has not seen yet (touched on the GUI thread only)."""
        self._job_done.connect(self._finished_job)
        self._result.connect(self._route)
        self._submitted = self._done = self._drop_until = 0
        """Jobs submitted, jobs whose results are delivered, and the first of them whose
        results are wanted (`drop_results`); counted on the GUI thread."""
        self._shown = threading.Event()
        self._shown.set()  # nothing in flight yet
        self.stepped.connect(self._step_delivered)  # its zero timer fires after the panels' slots
        # worker-thread state (touched only by jobs)
        self._stack: contextlib.ExitStack | None = None
        self._saver: Any = None
        self._db: Path | None = None
        self._open_error: str | None = None
        self._graph: Any = None
        self._graph_key: Any = None
        self._stepper: Any = None
        self._config: dict | None = None
        self._keep_spec: Any = None
        self._context: Any = None
        self._pauses: TaskPauses | None = None
        self._points: list[Any] = []
        """The spec's debugger breakpoints (set on the GUI thread, read by the next run)."""
        self._sent = (0, 0)
        self._unsent = False
        """Where the events not sent to the GUI yet start, and whether a step made some."""
        self.callbacks: list[Any] = []
        """LangChain callback handlers a run's config carries (the chat panel's tokens); one
        with `models_only = True` only when the spec has a node or router that can call a model."""

    # ------------------------------------------------------------------ GUI-thread API

    @property
    def busy(self) -> bool:
        """Work is queued or running, or its results are not delivered to the GUI thread yet."""
        return self._pending > 0

    @property
    def running(self) -> bool:
        """A run (supersteps) is queued or in flight; lookups of history do not count."""
        return self._runs > 0

    def submit(self, job: Callable[[], None], run: bool = False) -> None:
        """Run `job` on the worker; exceptions become `failed`, never reach the GUI thread."""
        self._pending += 1
        self._submitted += 1
        self._runs += run
        if run and self._runs == 1:
            # the collector's full passes walk every object the app holds, with the GIL held, which
            # stalled the GUI up to 200 ms in a long run: while a run goes, they walk its objects only
            gc.freeze()
        self.busy_changed.emit(True)

        def work() -> None:
            try:
                job()
            except BaseException as exc:  # user code, the saver, a bad spec: report, carry on
                events = list(self._stepper.events) if self._stepper is not None else []
                with contextlib.suppress(Exception):  # (the failure reported is the job's)
                    self._drop_stepper()
                self._emit("failed", failure_from(exc, events))
            finally:
                self._job_done.emit(run)  # queued after everything the job emitted

        self._executor.submit(work)

    def _step_delivered(self, _report: Any) -> None:
        # the panels got the batch; the repaint it asked for is queued: hand back after it
        QTimer.singleShot(0, self._shown.set)

    def _emit(self, name: str, *args: Any) -> None:
        """Send a result (worker side): it reaches the public signal through `_route`."""
        self._result.emit(name, args)

    @property
    def dropping(self) -> bool:
        """What arrives now comes from a job whose results are dropped (`drop_results`)."""
        return self._done < self._drop_until

    def _route(self, name: str, args: tuple) -> None:
        # results arrive in job order, each job's before its `_job_done`
        if self.dropping:
            if name == "stepped":
                self._shown.set()  # its run waits for the GUI to show the batch: hand back
            return
        getattr(self, name).emit(*args)

    def drop_results(self) -> None:
        """Results of the jobs submitted so far are never delivered (they are about the
        document the window left)."""
        self._drop_until = self._submitted

    def _finished_job(self, run: bool) -> None:
        self._done += 1
        self._pending -= 1
        self._runs -= run
        if run and self._runs == 0:
            gc.unfreeze()
        self.busy_changed.emit(self.busy)

    def stop(self) -> None:
        """Stop after the superstep in flight (the run stays paused; continue picks it up); an
        expression running in it stops at once, failing its task."""
        self._stop.set()

    def hold(self) -> Callable[[], None]:
        """The jobs asked for from now wait, in order, until the returned function is called
        (start-up: the window's first paint does not share the interpreter with them)."""
        return self._executor.hold()

    def open(self, db: Path, saver: Any = None) -> None:
        """Keep checkpoints in the SQLite file `db`, or in `saver` when given (a graph from
        code handed over with its own checkpointer)."""
        self.submit(lambda: self._open(db, saver))

    def close(self) -> None:
        self._stop.set()
        self._executor.submit(self._close)
        self._executor.shutdown(wait=False)

    def set_points(self, points: list[Any]) -> None:
        """The debugger's breakpoints changed: the next run, and the one in flight, use these."""
        self._points = list(points)
        if (pauses := self._pauses) is not None:
            pauses.update(self._points)

    def answer_held(self, decision: str, edited_input: Any = None) -> None:
        """Let the task waiting at a breakpoint go on ("continue") or run again ("retry")."""
        if (pauses := self._pauses) is not None:
            pauses.answer(decision, edited_input)

    def has_stepper(self) -> bool:
        return self._stepper is not None and not self._stepper.done

    def start(self, target: RunTarget, thread_id: str, run_input: Any, steps: int | None,
              durability: str | None = None) -> None:  # fmt: skip
        """A new run (input, or a Command) on `thread_id`; `steps` supersteps, or to the end."""
        self._stop.clear()
        self.submit(lambda: self._start(target, thread_id, run_input, steps, durability), run=True)

    def advance(self, steps: int | None) -> None:
        """More supersteps of the run in flight (one, or to the end)."""
        self._stop.clear()
        self.submit(lambda: self._advance(steps), run=True)

    def resume_from(self, target: RunTarget, config: dict, updates: dict | None, steps: int | None,
                    durability: str | None = None) -> None:  # fmt: skip
        """Replay from a past checkpoint, or fork it first with `updates` (update_state); a
        config without a checkpoint id carries on from the thread's latest checkpoint."""
        self._stop.clear()
        self.submit(lambda: self._resume_from(target, config, updates, steps, durability), run=True)

    def refresh(self, target: RunTarget, thread_id: str) -> None:
        self.submit(lambda: self._refresh(target, thread_id))

    def checkpoint_channels(self, target: RunTarget, config: dict) -> None:
        def job() -> None:
            self._compile(target)
            chosen = config["configurable"].get("checkpoint_id")
            self._emit(
                "channels_ready", (self._channel_rows(config), self._changes(config), chosen)
            )

        self.submit(job)

    def diff(self, target: RunTarget, old: HistoryEntry, new: HistoryEntry) -> None:
        """Compare two checkpoints of the thread (channels, versions, pending writes, next)."""
        from studio.run.diff import diff_checkpoints

        def job() -> None:
            self._compile(target)
            saver = self._require_saver()
            self._emit("diff_ready", diff_checkpoints(old, saver.get_tuple(old.config), new,
                                                      saver.get_tuple(new.config)))  # fmt: skip

        self.submit(job)

    def delete_thread(self, thread_id: str) -> None:
        def job() -> None:
            if self._stepper is not None and self._config["configurable"]["thread_id"] == thread_id:
                self._drop_stepper()  # before the delete: its last saves must not come after
            self._require_saver().delete_thread(thread_id)
            self._emit_threads()

        self.submit(job)

    def list_threads(self) -> None:
        self.submit(self._emit_threads)

    def more_history(self, target: RunTarget, thread_id: str, before: HistoryEntry) -> None:
        """The page of checkpoints older than `before`."""

        def job() -> None:
            graph = self._compile(target)
            snaps = graph.get_state_history({"configurable": {"thread_id": thread_id}}, before=before.config,
                                            limit=PAGE)  # fmt: skip
            self._emit("history_page", thread_id, [entry_of(s) for s in snaps])

        self.submit(job)

    def forget_graph(self) -> None:
        """The spec changed: the next run compiles again (the run in flight is dropped)."""
        self.submit(self._forget)

    # ------------------------------------------------------------------ worker thread

    def _open(self, db: Path, given: Any = None) -> None:
        if given is not None:
            if self._saver is not given:
                self._close()
                self._saver, self._db = given, db
            return
        if self._db == db and self._saver is not None and self._stack is not None:
            return
        self._close()
        from engine.checkpoint.sqlite import CheckpointDatabaseError, SqliteSaver

        stack = contextlib.ExitStack()
        try:
            db.parent.mkdir(parents=True, exist_ok=True)
            saver = stack.enter_context(SqliteSaver.from_conn_string(str(db)))
            saver.setup()  # a foreign, corrupt or newer file is refused now, by name
        except (OSError, CheckpointDatabaseError) as exc:
            stack.close()
            why = (
                str(exc)
                if isinstance(exc, CheckpointDatabaseError)
                else translate("run.runner", "cannot create {parent} ({exc})").format(
                    parent=db.parent, exc=exc
                )
            )
            self._open_error = translate("run.runner", "Cannot keep checkpoints: {why}").format(
                why=why
            )
            raise CheckpointDatabaseError(self._open_error) from None
        self._open_error = None
        self._saver, self._stack, self._db = saver, stack, db

    def _require_saver(self) -> Any:
        """The open saver; without one, why (never a run without a checkpointer)."""
        if self._saver is None:
            from engine.checkpoint.sqlite import CheckpointDatabaseError

            raise CheckpointDatabaseError(
                self._open_error or translate("run.runner", "No checkpoint database is open")
            )
        return self._saver

    def _close(self) -> None:
        self._forget()
        if self._stack is not None:
            self._stack.close()
        self._stack = self._saver = self._db = None

    def inner_channel_kinds(self, ns: tuple[str, ...]) -> dict[str, str]:
        """The channel kinds of the inner graph at `ns` (read on the GUI thread: a compiled
        graph is never changed by a job, only replaced)."""
        return inner_channel_kinds(self._graph, ns)

    def _forget(self) -> None:
        self._drop_stepper()
        self._graph = self._graph_key = None

    def _drop_stepper(self) -> None:
        """Let go of the run in flight, ending it as a stream's reader that stops ends it."""
        stepper, self._stepper = self._stepper, None
        if stepper is not None:
            stepper.close()

    def _compile(self, target: RunTarget) -> Any:
        self._require_saver()
        spec = target.spec
        key = (id(spec), target.base_dir, target.trusted, id(target.graph), id(self._saver),
               id(target.served))  # fmt: skip
        if self._graph is None or self._graph_key != key:
            self._graph = target.compile(self._saver)
            if target.served is not None:  # a project's graph: with its server's store
                self._graph = target.served.graph(self._graph)
            remember_sources(spec)
            self._graph_key = key
            self._keep_spec = spec  # the key holds its id: keep it alive
        context = target.context  # each run's own, as the Run input dock has it
        served = target.served
        self._context = context if served is None else served.context(self._graph, context)
        return self._graph

    def _config_for(self, target: RunTarget, thread_id: str) -> dict:
        from graphspec.compiler import run_config

        spec = target.spec
        config = run_config(spec, thread_id)
        if target.configurable:  # the script's own keys; the thread is the run's
            config = {**config, "configurable": {**target.configurable, **config["configurable"]}}
        if target.served is not None:  # the run context mirrored, as a project's server does
            configurable = target.served.configurable(config["configurable"], self._context)
            config = {**config, "configurable": configurable}
        # LangChain makes every task a callback run once a handler listens: half a small step's
        # cost, so handlers only for model calls stay off a graph that cannot make any (code
        # may call a model anywhere)
        models = target.graph is not None or not MODEL_FREE_KINDS.issuperset(
            [n.kind for n in spec.nodes] + [e.router.kind for e in spec.conditional_edges]
        )
        handlers = [h for h in self.callbacks if models or not getattr(h, "models_only", False)]
        return {**config, "callbacks": handlers} if handlers else config

    def _new_stepper(self, run_input: Any, config: dict, durability: str | None) -> None:
        # the debugger's hook follows the run into its subgraphs and agents through the config
        self._pauses = TaskPauses(self._points, self._held, self._stop)
        config = {
            **config,
            "configurable": {**config["configurable"], CONFIG_KEY_TASK_HOOK: self._pauses},
        }
        self._stepper = self._graph.stepper(run_input, config, stream_mode=("values", "updates", "custom"),
                                            durability=durability, context=self._context)  # fmt: skip

    def _start(self, target, thread_id, run_input, steps, durability) -> None:
        self._drop_stepper()
        self._compile(target)
        self._config = self._config_for(target, thread_id)
        self._new_stepper(run_input, self._config, durability)
        self._advance(steps)

    def _resume_from(self, target, config, updates, steps, durability) -> None:
        self._drop_stepper()
        graph = self._compile(target)
        thread_id = config["configurable"]["thread_id"]
        if config.get("first"):  # the thread's first checkpoint, past the pages the view holds
            oldest = deque(self._require_saver().list({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}),
                           maxlen=1)  # fmt: skip
            config = oldest[0].config if oldest else {"configurable": {"thread_id": thread_id}}
        if updates:
            config = graph.update_state(config, updates)
            self._emit(
                "message",
                translate("run.runner", "Forked at a past checkpoint with {join} edited").format(
                    join=", ".join(updates)
                ),
            )
        self._config = self._config_for(target, thread_id)
        run_config = {
            **self._config,
            "configurable": {**self._config["configurable"], **config["configurable"]},
        }
        self._new_stepper(None, run_config, durability)
        self._advance(steps)

    def _advance(self, steps: int | None) -> None:
        stepper = self._stepper
        if stepper is None or stepper.done:
            return
        try:
            drained = self._steps(stepper, steps)
        except BaseException:
            with contextlib.suppress(Exception):  # the history still shows what got saved
                self._emit_thread(self._config["configurable"]["thread_id"])
            raise
        if stepper.done:
            self._stepper = None
        else:
            stepper.loop.flush_saves()  # durability "async": the history shows this step's checkpoint
        self._emit_thread(self._config["configurable"]["thread_id"])
        if drained is not None:  # after the thread's own line: it says why the run stopped there
            self._emit("message", translate("run.runner", "Drained after the superstep ({reason}): its checkpoint is saved; Continue runs on").format(reason=drained))  # fmt: skip

    def _steps(self, stepper: Any, steps: int | None) -> str | None:
        """Run up to `steps` supersteps (all: None); the reason the graph gave, when its own
        RunControl drained the run at a superstep boundary (no failure: its checkpoint is saved
        and a new run carries on from it)."""
        from engine.errors import GraphDrained  # loaded with the run's engine

        count = 0
        self._sent, self._unsent = (len(stepper.events), len(stepper.chunks)), False
        due = time.perf_counter() + BATCH_SECONDS
        try:
            while not stepper.done and (steps is None or count < steps):
                if self._stop.is_set() and count:
                    self._flush(stepper)  # the steps first, then the message that says why
                    self._emit(
                        "message",
                        translate(
                            "run.runner",
                            "Stopped after the current superstep; Continue picks it up",
                        ),
                    )
                    break
                self._unsent = True  # before the step: a step that raised is reported too
                with cancel_with(self._stop):  # Stop (or closing) ends an expression mid-step
                    try:
                        stepper.step()
                    except GraphDrained as drained:
                        stepper.done = True  # the run ended there: the report says so
                        return drained.reason
                count += 1
                if time.perf_counter() >= due:
                    self._flush(stepper)
                    due = time.perf_counter() + BATCH_SECONDS
            else:
                if not stepper.done and self._nothing_next(stepper):
                    self._unsent = True  # the report that says the run is done
                    stepper.step()  # plans nothing and ends the run, which else looked paused
        finally:  # the rest of the batch (and whether the run is done)
            self._flush(stepper)
        return None

    def _nothing_next(self, stepper: Any) -> bool:
        """The run's last checkpoint has no task next (its `next` is the end): the stepper would
        learn it only on its next call, which plans nothing and ends the run. Unknown (False)
        with durability "exit": the thread's saved checkpoint is then not the run's."""
        if stepper.loop.durability == "exit":
            return False
        stepper.loop.flush_saves()
        return not self._graph.get_state(self._config).tasks

    def _flush(self, stepper: Any) -> None:
        """Send the events and chunks not sent yet, if a step made any since the last batch."""
        if self._unsent:
            self._send(stepper, *self._sent)
            self._sent, self._unsent = (len(stepper.events), len(stepper.chunks)), False

    def _held(self, held: Held) -> None:
        """A task waits at a breakpoint (in its own thread, the step in flight): the panels get
        the step so far, then the stop; the rest of the step is sent when it ends."""
        if (stepper := self._stepper) is not None:
            self._flush(stepper)
            self._unsent = True
        self._emit("held", held)

    def _send(self, stepper: Any, first_event: int, first_chunk: int) -> None:
        """Send one batch and wait (GIL released) while the GUI shows it."""
        self._shown.wait(HANDOFF_SECONDS)  # the previous one, if the last wait gave up
        # what the run kept so far joins what submit() froze: a full collection then walks the
        # newest batch's objects, not the whole run's (up to 100 ms with the GIL held)
        gc.freeze()
        self._shown.clear()
        self._emit(
            "stepped",
            self._report(stepper, stepper.events[first_event:], stepper.chunks[first_chunk:]),
        )
        self._shown.wait(HANDOFF_SECONDS)

    def _report(self, stepper: Any, events: list[Any], chunks: list[Any]) -> StepReport:
        """One report for a batch of supersteps: all their events, the last one's plan and barrier."""
        root = [e for e in events if not e.ns]
        plans = [e for e in root if isinstance(e, trace.StepPlanned)]
        running = [t.name for t in plans[-1].tasks] if plans else []
        barriers = [e for e in root if isinstance(e, trace.BarrierApplied)]
        interrupted = any(isinstance(e, trace.TaskFinished) and e.interrupts for e in root)
        return StepReport(events, chunks, self._live_rows(stepper), running, stepper.done,
                          self._config["configurable"]["thread_id"], plans[-1].step if plans else None,
                          list(barriers[-1].changes) if barriers else [], interrupted,
                          (getattr(stepper.loop, "checkpoint_metadata", None) or {}).get("step"))  # fmt: skip

    def _live_rows(self, stepper: Any) -> list[ChannelRow]:
        """The channels as the run's loop holds them now (saved or not, whatever the durability)."""
        loop = stepper.loop
        channels = getattr(loop, "channels", None)
        if not channels:
            return self._channel_rows(self._config)
        versions = loop.checkpoint["channel_versions"]
        rows = []
        for name, channel in channels.items():
            value = channel.checkpoint()
            rows.append(ChannelRow(name, channel_kind(channel), None if value is MISSING else value,
                                   versions.get(name), value is not MISSING))  # fmt: skip
        return rows

    def _refresh(self, target, thread_id) -> None:
        self._compile(target)
        self._config = self._config_for(target, thread_id)
        self._emit_thread(thread_id)
        self._emit("channels_ready", (self._channel_rows(self._config), [], None))

    def _channel_rows(self, config: dict | None) -> list[ChannelRow]:
        graph = self._graph
        if graph is None:
            return []
        tup = self._saver.get_tuple(config) if config and self._saver is not None else None
        values = tup.checkpoint["channel_values"] if tup else {}
        versions = tup.checkpoint["channel_versions"] if tup else {}
        return [ChannelRow(name, channel_kind(ch), values.get(name), versions.get(name), name in values)
                for name, ch in graph.channels.items()]  # fmt: skip

    def _changes(self, config: dict) -> list[trace.ChannelChange]:
        """What the step that saved this checkpoint changed, against its parent checkpoint."""
        tup = self._saver.get_tuple(config)
        parent = self._saver.get_tuple(tup.parent_config) if tup and tup.parent_config else None
        if tup is None:
            return []
        new, old = tup.checkpoint, parent.checkpoint if parent else None
        old_versions = old["channel_versions"] if old else {}
        old_values = old["channel_values"] if old else {}
        return [trace.ChannelChange(name, old_versions.get(name), version, old_values.get(name),
                                    new["channel_values"].get(name))
                for name, version in new["channel_versions"].items()
                if version != old_versions.get(name)]  # fmt: skip

    def _threads(self) -> list[str]:
        # thread ids only: listing never decodes a checkpoint (a crafted one must not run)
        return self._saver.list_threads() if self._saver is not None else []

    def _emit_thread(self, thread_id: str) -> None:
        """The thread's newest page of history, its state and the thread list: one page of
        checkpoints decoded, whatever the thread's length (counts come from the saver's index)."""
        graph, config = self._graph, {"configurable": {"thread_id": thread_id}}
        history = [entry_of(snap) for snap in graph.get_state_history(config, limit=PAGE)]
        state = graph.get_state(config, subgraphs=True)  # where a subgraph's run waits
        interrupts = [(task.name, i.value, i.id) for task in state.tasks for i in task.interrupts]
        errors = [(task.name, saved_error(task.error)) for task in state.tasks if task.error]
        threads = self._threads()
        summaries = self._summaries()
        found = summaries.get(thread_id) if summaries is not None else None
        total = found.checkpoints if found is not None else len(history)
        self._emit("thread_ready", ThreadView(thread_id, history, interrupts, tuple(state.next),
                                              state_dict(state.values), threads, bool(state.tasks),
                                              max(total, len(history)), errors,
                                              waiting_paths(state)))  # fmt: skip
        if summaries is not None:
            self._emit("summaries_ready", summaries)

    def _emit_threads(self) -> None:
        self._emit("threads_ready", self._threads())
        self._emit_summaries()

    def _summaries(self) -> dict | None:
        """Per-thread counts, last step and status, from savers that index them (else None)."""
        summaries = getattr(self._saver, "thread_summaries", None)
        return {s.thread_id: s for s in summaries()} if summaries is not None else None

    def _emit_summaries(self) -> None:
        if (summaries := self._summaries()) is not None:
            self._emit("summaries_ready", summaries)


def waiting_paths(snapshot: Any) -> tuple[tuple[str, ...], ...]:
    """The path of each task the snapshot waits to run, into the state of a subgraph it runs
    (`get_state(subgraphs=True)` puts that state on the task), to the node the subgraph waits
    before."""
    paths: list[tuple[str, ...]] = []
    for task in snapshot.tasks:
        if task.name not in snapshot.next:
            continue
        inner = task.state  # a StateSnapshot for a subgraph's task; else None or a config
        for below in (waiting_paths(inner) if hasattr(inner, "tasks") else ()) or [()]:
            if (path := (task.name, *below)) not in paths:
                paths.append(path)
    return tuple(paths)


def state_dict(values: Any) -> dict:
    """A checkpoint's values as the panels show them: a state's keys, or a workflow's single
    value (an @entrypoint's return, an int or a list) under the name its output has."""
    return dict(values) if isinstance(values, Mapping) else {"__root__": values}


def entry_of(snap: Any) -> HistoryEntry:
    parent = (snap.parent_config or {}).get("configurable", {}).get("checkpoint_id")
    return HistoryEntry(snap.metadata.get("step"), snap.metadata.get("source", ""), tuple(snap.next),
                        snap.config["configurable"]["checkpoint_id"], parent, snap.created_at or "",
                        state_dict(snap.values), snap.config)  # fmt: skip
