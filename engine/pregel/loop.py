"""PregelLoop: owns one run's checkpoint and channels and moves it superstep by superstep.

What it emits lives in loop_output.py, how it saves in loop_checkpoints.py.

The drivers (sync `stream`, async `astream`) call `first()`, then repeat `tick()`, run the
tasks with a TaskRunner, and `after_tick()`; the loop itself never blocks on tasks, so the same
loop serves both APIs.
"""

from __future__ import annotations

import functools
import threading
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any
from uuid import UUID, uuid5

from engine._constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_REPLAY_STATE,
    CONFIG_KEY_RESUME_MAP,
    CONFIG_KEY_RESUMING,
    CONFIG_KEY_SCRATCHPAD,
    EMPTY_SEQ,
    ERROR,
    ERROR_SOURCE_NODE,
    INPUT,
    INTERRUPT,
    NS_SEP,
    NULL_TASK_ID,
    PREVIOUS,
    RESUME,
)
from engine.channels.base import BaseChannel
from engine.channels.delta import DeltaChannel
from engine.checkpoint.base import (
    BaseCheckpointSaver,
    CheckpointTuple,
    copy_checkpoint,
    empty_checkpoint,
)
from engine.errors import (
    EmptyInputError,
    ErrorCode,
    GraphDrained,
    GraphInterrupt,
    GraphRecursionError,
    create_error_message,
)
from engine.pregel import lifecycle, trace
from engine.pregel.algo import (
    TaskPlanner,
    VersionChanges,
    WritesOnly,
    apply_writes,
    prepare_next_tasks,
    should_interrupt,
)
from engine.pregel.call import CallFuture
from engine.pregel.calls import LoopCalls
from engine.pregel.debug import task_payload
from engine.pregel.delta_messages import ensure_message_ids
from engine.pregel.deltas import (
    delta_names,
    overwritten_delta_channels,
    pending_delta_channels,
)
from engine.pregel.error_handlers import resume_handlers
from engine.pregel.exit_deltas import ExitDeltas, takes_task_path
from engine.pregel.io import (
    map_command,
    map_input,
    read_channels,
)
from engine.pregel.loop_checkpoints import LoopCheckpoints
from engine.pregel.loop_load import LoopLoad
from engine.pregel.loop_output import LoopOutput, observed_value
from engine.pregel.replay import ReplayState
from engine.types import Command

Emit = Callable[[tuple[str, ...], str, Any], None]

if TYPE_CHECKING:
    from engine.pregel.main import Pregel


def increment(current: int | None, channel: Any = None) -> int:
    return 1 if current is None else current + 1


@dataclass(frozen=True, slots=True)
class LoopOptions:
    """How one call runs, besides its graph, input and config (prepare_run fills it in)."""

    checkpointer: BaseCheckpointSaver | None
    emit: Emit | None
    stream_modes: set[str]
    interrupt_before: Any
    interrupt_after: Any
    runtime: Any
    cache: Any = None
    observer: trace.Observer | None = None
    updates_for_interrupts_only: bool = False
    """invoke() reads the updates stream only for interrupts: node updates are not built."""
    last_values_only: bool = False
    """invoke() (v1) returns only the last values chunk: it is kept (`last_values`), not queued."""
    durability: str | None = None
    output_keys: Any = None
    """The channels `values` and the output show (the graph's output channels by default)."""
    asynchronous: bool = False
    """ainvoke/astream: the driver awaits `aload` and `afinish`; saves use the async methods."""


class PregelLoop(LoopOutput, LoopCheckpoints, LoopLoad, LoopCalls):
    """One run of a graph: input handling, task planning, the barrier, checkpoints, output."""

    def __init__(self, graph: Pregel, input: Any, config: dict, options: LoopOptions) -> None:
        checkpointer, durability = options.checkpointer, options.durability
        self.graph = graph
        self.durability = durability or "async"
        if self.durability not in ("sync", "async", "exit"):
            raise ValueError(f"durability must be 'sync', 'async' or 'exit', got {durability!r}")
        self._pending_saves: deque[Future] = deque()
        self._saves_lock = threading.Lock()
        self._saves_in_background = (
            self.durability == "async"
            and checkpointer is not None
            and checkpointer.blocks_on_io
            and not options.asynchronous
        )
        # a saver that keeps the loop's checkpoints as they are, when it saves them in the call
        # (durability "exit" saves once: no copies to spare)
        self._hands_over = (
            getattr(checkpointer, "keeps_unshared", False) is True and self.durability != "exit"
        )
        # invoke() asks for updates only to find interrupts: skip building node updates
        self.updates_for_interrupts_only = options.updates_for_interrupts_only
        self.last_values_only = options.last_values_only
        self.last_values: Any = None
        self.input = input
        self.config = config
        self.checkpointer = checkpointer
        # whether put_writes is given each task's path, which savers order its writes by
        self._writes_path = checkpointer is not None and takes_task_path(checkpointer)
        self.emit_raw = options.emit
        self.stream_modes = options.stream_modes
        # the modes this run emits, debug's checkpoints and tasks included (asked every step)
        self._wanted: frozenset[str] = (
            frozenset()
            if options.emit is None
            else frozenset(options.stream_modes)
            | (_DEBUG_MODES if "debug" in options.stream_modes else frozenset())
        )
        self.interrupt_before = options.interrupt_before
        self.interrupt_after = options.interrupt_after
        self.cache = options.cache
        # whether a finished task's writes show in the stream (else only an interrupt does)
        self._writes_shown = "tasks" in self._wanted or (
            "updates" in self._wanted and not self.updates_for_interrupts_only
        )
        self.observer = options.observer
        self.lifecycle: list | None = None  # events for graph handlers (pregel.lifecycle)
        self.output_keys = (
            options.output_keys if options.output_keys is not None else graph.output_channels
        )
        # the channels whose update makes a "values" chunk
        self._output_set = frozenset(
            [self.output_keys] if isinstance(self.output_keys, str) else self.output_keys
        )
        ns_str: str = config[CONF].get(CONFIG_KEY_CHECKPOINT_NS, "")
        self.checkpoint_ns: tuple[str, ...] = tuple(ns_str.split(NS_SEP)) if ns_str else ()
        self.is_nested = CONFIG_KEY_SCRATCHPAD in config[CONF]
        self.get_next_version = (
            checkpointer.get_next_version if checkpointer is not None else increment
        )
        self.status = "input"
        self.tasks: dict[str, Any] = {}
        self._restored = False  # whether this step's tasks were given saved writes (tick)
        self._replaying = False  # whether this step's finished tasks rerun (first)
        # functional-API calls made during this step's tasks, by task id (see accept_call)
        self.calls: dict[str, Any] = {}
        # set by the TaskRunner driving this loop: runs a call beside its caller
        self.submit_call: Callable[[Any, Any], CallFuture] | None = None
        self.output: Any = None
        self.updated_channels: set[str] | None = None
        # channels updated since a step last passed; None until known (restored channels)
        self._fresh: set[str] | None = None
        self._checkpoint_to_emit = False
        self.channels: dict[str, BaseChannel] = {}
        if not options.asynchronous:  # an async run loads in `aload`, awaiting the saver
            self._load(ns_str)
        self.planner = TaskPlanner(
            nodes=graph.nodes,
            managed=graph.managed,
            config=self.config,
            parent_ns=ns_str,
            runtime=options.runtime,
            cache_policy=getattr(graph, "cache_policy", None),
            retry_policy=getattr(graph, "retry_policy", None) or (),
            base_metadata=_base_metadata(self.config),
            call=self.accept_call,
        )

    @functools.cached_property
    def stream_keys(self) -> str | Sequence[str]:
        """The channels a task's result and a checkpoint show (only those streams read them;
        found when first asked, not at every run's start: a pass over every channel)."""
        return self.graph.stream_channels_asis

    # ------------------------------------------------------------------ setup
    def _restore(self, saved: CheckpointTuple | None) -> None:
        """Take the checkpoint LoopLoad read (None: a new thread) as the run's state."""
        # the stored checkpoint's id: an exit that made no step need not store it again
        self._stored_id = None if saved is None else saved.checkpoint["id"]
        self._written_ids: set[str] = set()  # tasks that wrote in this run
        if saved is None:
            saved = CheckpointTuple(
                self.checkpoint_config, empty_checkpoint(), {"step": -2}, None, []
            )
        # checkpoint_ns leads the configurable, as in langgraph's (a program printing a
        # "checkpoints" chunk's config sees its keys in that order)
        conf = {CONFIG_KEY_CHECKPOINT_NS: "", **self.checkpoint_config[CONF], **saved.config[CONF]}
        self.checkpoint_config = {**self.checkpoint_config, **saved.config, CONF: conf}
        self.prev_checkpoint_config = saved.parent_config
        self.checkpoint = copy_checkpoint(saved.checkpoint)
        self.graph._migrate_checkpoint(self.checkpoint)  # one saved by an older langgraph
        # the versions given since the saver last stored the checkpoint: a put sends only those
        self._changes = VersionChanges(
            self.checkpoint["channel_versions"], saved=self.checkpointer is not None
        )
        # whether the checkpoint's values are the channels' as of its last versions (the saved
        # ones may not be: a put recomputes them all once, then only the changed ones)
        self._values_known = False
        self.checkpoint_metadata = saved.metadata
        self.checkpoint_pending_writes = list(saved.pending_writes or [])
        self._delta_names = delta_names(self.graph.channels)
        # delta channels whose writes this checkpoint's child may not find: snapshot them
        self._delta_forced: set[str] = set()
        # durability "exit": the delta writes of the steps not saved, stored at exit
        self._exit_deltas = (
            ExitDeltas(self.graph.channels, self.checkpoint_pending_writes)
            if self._delta_names and self.durability == "exit" and self.checkpointer is not None
            else None
        )
        # the checkpoint the run starts from (on a new thread the empty one, whose id the
        # checkpoint made at exit to hold the delta writes takes)
        self._start_id = saved.checkpoint["id"]
        self.step = self.checkpoint_metadata.get("step", -2) + 1
        self.stop = self.step + self.config["recursion_limit"] + 1
        self._addressed = (
            self.config[CONF].get(CONFIG_KEY_CHECKPOINT_ID) is not None
            or self.config[CONF].get(CONFIG_KEY_REPLAY_STATE) is not None
            or self._mapped
        )

    # ------------------------------------------------------------------ output

    # ------------------------------------------------------------------ input
    def first(self) -> None:
        """Apply the run's input: new input, a resume (None or Command), or a Command update."""
        configurable = self.config[CONF]
        is_command = isinstance(self.input, Command)
        is_resuming = bool(self.checkpoint["channel_versions"]) and bool(
            configurable.get(CONFIG_KEY_RESUMING, self.input is None or is_command)
        )
        if (
            is_command
            and self.input.resume is None
            and not self.input.update
            and not self.input.goto
        ):
            raise EmptyInputError("Received empty Command input")
        # time travel: a run addressed at a past checkpoint that does not answer an interrupt
        time_travel = self._addressed and (
            # a subgraph addressed through the checkpoint map replays even as its parent resumes
            (self.is_nested and self._mapped)
            or (
                not (is_command and self.input.resume is not None)
                and not configurable.get(CONFIG_KEY_RESUMING, False)
            )
        )
        # the first step's tasks rerun, finished or not, on time travel and on a resume at a
        # checkpoint the thread has moved past (their saved writes fed the later ones); a resume
        # at the latest checkpoint, named or not, hands finished tasks their writes back
        self._replaying = time_travel or self._superseded
        # replaying re-asks interrupts instead of reusing old answers
        if time_travel:
            # a replay re-runs the step: its tasks' saved results and answers are not reused
            # (only input given at that checkpoint stays)
            self.checkpoint_pending_writes = [
                w
                for w in self.checkpoint_pending_writes
                if w[1] != RESUME and (w[0] == NULL_TASK_ID or w[1] == INTERRUPT)
            ]
        # ...and starts a new branch from a "fork" copy of that checkpoint (unless it already is
        # one made by update_state that the thread has not moved past: nothing else builds on
        # it), so its tasks re-run and the old branch stays untouched; a subgraph forks too when
        # the replay addressed its own checkpoint, so that later resumes of the thread find the
        # new branch's tip instead of the old one
        forks = (
            is_resuming
            and time_travel
            and (not self.is_nested or self._mapped)
            and self.checkpointer is not None
            and (
                self.checkpoint_metadata.get("source") not in ("update", "fork") or self._superseded
            )
        )
        # subgraphs of a replay start from before this checkpoint (an update_state fork: before
        # the checkpoint it forked from)
        replay_from = self.checkpoint["id"]
        if (
            self.checkpoint_metadata.get("source") in ("update", "fork")
            and self.prev_checkpoint_config
        ):
            replay_from = self.prev_checkpoint_config[CONF].get(
                CONFIG_KEY_CHECKPOINT_ID, replay_from
            )
        if self._replaying and self._delta_names:
            # the stored writes of this checkpoint fed another branch's child
            self._delta_forced |= pending_delta_channels(
                self.graph.channels,
                [w for w in self.checkpoint_pending_writes if w[0] != NULL_TASK_ID],
            )
        if is_command:
            if self.input.resume is not None and self.checkpointer is None:
                raise RuntimeError("Cannot use Command(resume=...) without checkpointer")
            self._resume_command(self.input, save=not forks)
        null_writes = [w[1:] for w in self.checkpoint_pending_writes if w[0] == NULL_TASK_ID]
        if null_writes:
            self._apply_writes([WritesOnly(INPUT, null_writes)])
        if is_resuming:
            # only this graph's channels count as seen: a channel an older version of the graph
            # saved (a renamed node's branch:to:, a dropped key) still looks updated, so a
            # breakpoint fires again on every resume, as langgraph's does
            seen = self.checkpoint["versions_seen"]
            versions = self.checkpoint["channel_versions"]
            seen[INTERRUPT] = {
                **seen.get(INTERRUPT, {}),
                **{k: versions[k] for k in self.channels if k in versions},
            }
            if forks:
                # the fork holds the command's writes applied; old interrupts belong to old tasks
                self.checkpoint_pending_writes = [
                    w
                    for w in self.checkpoint_pending_writes
                    if w[0] != NULL_TASK_ID and w[1] != INTERRUPT
                ]
                self._put_checkpoint("fork")
            if "values" in self.stream_modes:
                self.emit("values", read_channels(self.channels, self.output_keys))
        elif self.input is not None and not is_command:
            writes = list(map_input(self.graph.input_channels, self.input))
            if not writes:
                raise EmptyInputError(f"Received no input for {self.graph.input_channels}")
            if self._delta_names:  # this run reads the ids saved with the input
                ensure_message_ids(self.graph.channels, writes)
            # unfinished tasks of the previous run are dropped, their triggers consumed
            discarded = prepare_next_tasks(
                self.checkpoint,
                self.checkpoint_pending_writes,
                self.planner,
                self.channels,
                self.step,
                self.stop,
                for_execution=False,
            )
            self.updated_channels = self._apply_writes(
                [*discarded.values(), WritesOnly(INPUT, writes)]
            )
            if self._delta_names:
                self._keep_input_deltas(writes)
            self.checkpoint_pending_writes = []
            self._put_checkpoint("input")
        elif not is_resuming and not is_command:
            raise EmptyInputError(f"Received no input for {self.graph.input_channels}")
        if not self.is_nested:
            self.config[CONF][CONFIG_KEY_RESUMING] = is_resuming
            self.config[CONF][CONFIG_KEY_REPLAY_STATE] = (
                ReplayState(replay_from) if time_travel and self.checkpointer is not None else None
            )
        self.status = "pending"
        if is_resuming:
            lifecycle.resumed(self)
        # the first superstep streams the checkpoint it starts from, also a resumed one
        self._checkpoint_to_emit = "checkpoints" in self._wanted

    def _resume_command(self, cmd: Command, save: bool = True) -> None:
        from engine.types import is_interrupt_id

        resume = cmd.resume
        by_id = isinstance(resume, dict) and resume and all(is_interrupt_id(k) for k in resume)
        if by_id:
            self.config[CONF][CONFIG_KEY_RESUME_MAP] = resume
        elif resume is not None and len(self._pending_interrupt_ids()) > 1:
            raise RuntimeError(
                "When there are multiple pending interrupts, you must specify the interrupt id "
                "when resuming. Docs: https://docs.langchain.com/oss/python/langgraph/"
                "interrupts#handling-multiple-interrupts."
            )
        writes = [(c, v) for tid, c, v in map_command(cmd) if not (c == RESUME and by_id)]
        if self._delta_names:
            ensure_message_ids(self.graph.channels, writes)
        if writes and save:
            self._record_writes(NULL_TASK_ID, writes)
            if self._exit_deltas is not None:
                self._exit_deltas.add_command(writes)
        elif writes:
            self.checkpoint_pending_writes.extend((NULL_TASK_ID, c, v) for c, v in writes)

    def _keep_input_deltas(self, writes: list[tuple[str, Any]]) -> None:
        """The input's delta writes are stored on the checkpoint it extends, like a task's; when
        that checkpoint is not saved, or holds writes the input checkpoint did not apply, the
        input checkpoint stores those channels whole instead."""
        specs = self.graph.channels
        stale = pending_delta_channels(specs, self.checkpoint_pending_writes)
        mine = [(c, v) for c, v in writes if isinstance(specs.get(c), DeltaChannel)]
        self._delta_forced |= stale
        parent_id = self.checkpoint_config[CONF].get(CONFIG_KEY_CHECKPOINT_ID)
        if not mine:
            return
        if self._exit_deltas is not None:  # stored at exit, with the steps' writes
            self._exit_deltas.add_input(self.step, mine)
            return
        if stale or not parent_id:
            self._delta_forced |= {c for c, _ in mine}
        else:
            self._save(
                "put_writes",
                self.checkpoint_config,
                mine,
                str(uuid5(UUID(parent_id), INPUT)),
            )

    def _pending_interrupt_ids(self) -> set[str]:
        answered = {w[0] for w in self.checkpoint_pending_writes if w[1] == RESUME}
        return {
            i.id
            for tid, chan, value in self.checkpoint_pending_writes
            if chan == INTERRUPT and tid not in answered
            for i in value
        }

    # ------------------------------------------------------------------ superstep
    def tick(self) -> bool:
        """Plan the next superstep; False when the run is over (done, out of steps)."""
        if self.step > self.stop:
            self.status = "out_of_steps"
            return False
        self.calls = {}
        self.tasks = self._plan()
        if self._checkpoint_to_emit:
            self._checkpoint_to_emit = False
            self._emit_checkpoint()
        if not self.tasks:
            self.status = "done"
            return False
        if self.observer is not None:
            self._observe_plan()
        # tasks that finished before an interrupt or crash keep their writes; don't rerun them
        # (else no task has writes yet: nothing to stream or leave out below)
        self._restored = bool(self.checkpoint_pending_writes) and not self._replaying
        if self._restored:
            for tid, chan, value in self.checkpoint_pending_writes:
                if chan in (ERROR, INTERRUPT, RESUME):
                    continue
                if (task := self.tasks.get(tid)) is not None:
                    task.writes.append((chan, value))
            if any(chan == ERROR_SOURCE_NODE for _, chan, _ in self.checkpoint_pending_writes):
                resume_handlers(self)
        if self.interrupt_before and should_interrupt(
            self.checkpoint, self.interrupt_before, self.tasks.values()
        ):
            self.status = "interrupt_before"
            raise GraphInterrupt()
        # after the breakpoint check: a resume passes this step's breakpoints, so draining in
        # front of one would skip it
        if (control := self.planner.runtime.control) is not None and control.drain_requested:
            self.status = "draining"
            return False
        if "tasks" in self._wanted:
            for task in self.tasks.values():
                if not task.hidden:
                    self.emit("tasks", task_payload(task))
        if self._restored:
            for task in self.tasks.values():
                if task.writes:
                    self._output_writes(task, task.writes, cached=True)
        return True

    def runnable_tasks(self) -> list[Any]:
        """Tasks of this superstep that still have to run (not restored from saved writes)."""
        if self.cache is None:
            if not self._restored:
                return list(self.tasks.values())
            return [t for t in self.tasks.values() if not t.writes]
        return [t for t in self.tasks.values() if not t.writes and not self._cached(t)]

    def _cached(self, task: Any) -> bool:
        if self.cache is None or task.cache_key is None:
            return False
        key = task.cache_key
        found = self.cache.get([(key.ns, key.key)]).get((key.ns, key.key))
        if found is None:
            return False
        task.writes.extend(found)
        self._output_writes(task, task.writes, cached=True)
        self._task_finished(task, task.writes, cached=True)
        return True

    def task_started(self, task: Any) -> None:
        if self.observer is not None:
            self._observe(trace.TaskStarted(self.checkpoint_ns, self.step, task.id, task.name))

    def put_writes(self, task: Any, writes: Sequence[tuple[str, Any]]) -> None:
        """Record a finished task's writes (saved as pending writes, streamed as updates)."""
        if self._delta_names:  # the saved, pending, applied and streamed writes share ids
            writes = writes if isinstance(writes, list) else list(writes)
            ensure_message_ids(self.graph.channels, writes)
        if writes is not task.writes:
            task.writes[:] = writes
        self._record_writes(task.id, writes, task.path)
        if (
            self.cache is not None
            and task.cache_key is not None
            and writes[0][0] not in (ERROR, INTERRUPT)
        ):
            key = task.cache_key
            # the writes as langgraph hands them over (a deque): a program's own cache sees that
            self.cache.set({(key.ns, key.key): (deque(writes), key.ttl)})
        if self._writes_shown or writes[0][0] == INTERRUPT:
            self._output_writes(task, writes)
        if self.observer is not None:
            self._task_finished(task, writes)

    def _task_finished(self, task: Any, writes: Sequence[tuple[str, Any]], cached=False) -> None:
        """The trace's TaskFinished, with the error or interrupts a first write carries."""
        if self.observer is None:
            return
        first, value = writes[0] if writes else (None, None)
        error = value if first == ERROR else None
        interrupts = value if first == INTERRUPT else ()
        self._observe(trace.TaskFinished(self.checkpoint_ns, self.step, task.id, task.name,
                                         tuple(writes), error, interrupts, cached))  # fmt: skip

    def after_tick(self) -> None:
        """The barrier: apply every task's writes, emit values, save the checkpoint."""
        if self.observer is not None:  # what the barrier changes, for the trace
            old_versions = dict(self.checkpoint["channel_versions"])
            old_values = {k: observed_value(c) for k, c in self.channels.items()}
        tasks = list(self.tasks.values())
        if self.calls:
            tasks.extend(self.calls.values())
        self.updated_channels = self._apply_writes(tasks)
        if "values" in self._wanted and not self.updated_channels.isdisjoint(self._output_set):
            self.emit("values", read_channels(self.channels, self.output_keys))
        if self.observer is not None:
            self._observe_barrier(old_versions, old_values)
        if self._exit_deltas is not None:
            self._exit_deltas.add_step(
                self.step, self.checkpoint_pending_writes, self.tasks, self.calls
            )
        self.checkpoint_pending_writes = []
        self._replaying = False  # only the first step reruns its finished tasks
        self._put_checkpoint("loop")
        if self.interrupt_after and should_interrupt(
            self.checkpoint, self.interrupt_after, self.tasks.values()
        ):
            self.status = "interrupt_after"
            if "checkpoints" in self._wanted:
                self._prepare_and_emit_checkpoint()
            raise GraphInterrupt()
        self.config[CONF].pop(CONFIG_KEY_RESUMING, None)

    def _apply_writes(self, tasks: Any) -> set[str]:
        """apply_writes, remembering which channels were updated since the last step passed."""
        if type(tasks) is not list:
            tasks = list(tasks)
        if self._delta_names:
            writes = (w for t in tasks for w in t.writes)
            self._delta_forced |= overwritten_delta_channels(self.graph.channels, writes)
        updated = apply_writes(
            self.checkpoint,
            self.channels,
            tasks,
            self.get_next_version,
            self.graph.trigger_to_nodes,
            self._fresh,
            self._changes,
        )
        if any(map(_TRIGGERS, tasks)):  # (map: no generator frame, once per step)
            self._fresh = set(updated)
        elif self._fresh is not None:
            self._fresh |= updated
        return updated

    # ------------------------------------------------------------------ checkpoints

    def _plan(self) -> dict[str, Any]:
        """The next superstep's tasks, from the checkpoint and the channels updated last."""
        if PREVIOUS in self.channels:  # an entrypoint: its last saved value is `previous`
            previous = self.channels[PREVIOUS]
            self.planner.runtime = self.planner.runtime.override(
                previous=previous.get() if previous.is_available() else None
            )
        return prepare_next_tasks(
            self.checkpoint,
            self.checkpoint_pending_writes,
            self.planner,
            self.channels,
            self.step,
            self.stop,
            for_execution=True,
            updated_channels=self.updated_channels,
            trigger_to_nodes=self.graph.trigger_to_nodes,
        )

    # ------------------------------------------------------------------ trace

    # ------------------------------------------------------------------ exit
    def finish(self, error: BaseException | None) -> bool:
        """Called when the run ends; True if `error` (an interrupt at the root) is handled."""
        try:
            self._save_on_exit(error)
        finally:
            self.flush_saves()
        return self._finish(error)

    async def afinish(self, error: BaseException | None) -> bool:
        """`finish` for an async run: its saves are awaited (see AsyncSaves.wait)."""
        try:
            self._save_on_exit(error)
        finally:
            await self.aflush_saves()
        return self._finish(error)

    def _finish(self, error: BaseException | None) -> bool:
        if isinstance(error, GraphInterrupt) and not self.is_nested:
            lifecycle.interrupted(self, tuple(error.args[0]) if error.args else ())
            # as langgraph, only when a task wrote more than its interrupt (langgraph's tasks
            # never hold that write): else no versions are drawn, no channel sees a step pass
            if self.checkpoint_pending_writes and any(
                chan != INTERRUPT for t in self.tasks.values() for chan, _ in t.writes
            ):
                updated = self._apply_writes(self.tasks.values())
                if "values" in self._wanted and not updated.isdisjoint(self._output_set):
                    self.emit("values", read_channels(self.channels, self.output_keys))
            if not error.args or not error.args[0]:
                self.emit("updates", {INTERRUPT: error.args[0] if error.args else ()})
            self.output = read_channels(self.channels, self.output_keys)
            return True
        if error is None:
            if self.status == "draining":
                raise GraphDrained(self.planner.runtime.drain_reason or "shutdown")
            if self.status == "out_of_steps":
                raise GraphRecursionError(
                    create_error_message(
                        message=f"Recursion limit of {self.config['recursion_limit']} "
                        "reached without hitting a stop condition. You can increase the limit "
                        "by setting the `recursion_limit` config key.",
                        error_code=ErrorCode.GRAPH_RECURSION_LIMIT,
                    )
                )
            self.output = read_channels(self.channels, self.output_keys)
        return False


_DEBUG_MODES = frozenset(("checkpoints", "tasks"))
_TRIGGERS = attrgetter("triggers")


def _base_metadata(config: dict) -> dict:
    """Metadata every task inherits: the run's (which holds the ids prepare_run copied from
    configurable, as langgraph does; other configurable values stay out)."""
    return dict(config.get("metadata") or {})


__all__ = ["PregelLoop", "EMPTY_SEQ"]
