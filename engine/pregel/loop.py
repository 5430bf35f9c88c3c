"""PregelLoop: owns one run's checkpoint and channels and moves it superstep by superstep.

The drivers (sync `stream`, async `astream`) call `first()`, then repeat `tick()`, run the
tasks with a TaskRunner, and `after_tick()`; the loop itself never blocks on tasks, so the same
loop serves both APIs.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import Any

from engine.channels.base import BaseChannel
from engine.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    CheckpointTuple,
    copy_checkpoint,
    create_checkpoint,
    empty_checkpoint,
)
from engine.checkpoint.ids import uuid6
from engine.constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_MAP,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_RESUME_MAP,
    CONFIG_KEY_RESUMING,
    CONFIG_KEY_SCRATCHPAD,
    CONFIG_KEY_TASK_ID,
    EMPTY_SEQ,
    ERROR,
    INPUT,
    INTERRUPT,
    MISSING,
    NS_END,
    NS_SEP,
    NULL_TASK_ID,
    PREVIOUS,
    RESUME,
    RETURN,
)
from engine.errors import (
    EmptyInputError,
    ErrorCode,
    GraphInterrupt,
    GraphRecursionError,
    create_error_message,
)
from engine.pregel import trace
from engine.pregel.algo import (
    TaskPlanner,
    WritesOnly,
    apply_writes,
    call_task,
    is_call,
    prepare_next_tasks,
    should_interrupt,
)
from engine.pregel.call import Call, SyncAsyncFuture, done_future
from engine.pregel.io import (
    interrupt_dict,
    map_command,
    map_input,
    map_output_updates,
    read_channels,
    task_result_writes,
)
from engine.pregel.saves import background_saves
from engine.types import Command

Emit = Callable[[tuple[str, ...], str, Any], None]


def increment(current: int | None, channel: Any = None) -> int:
    return 1 if current is None else current + 1


class PregelLoop:
    """One run of a graph: input handling, task planning, the barrier, checkpoints, output."""

    def __init__(
        self,
        graph: Any,
        input: Any,
        config: dict,
        *,
        checkpointer: BaseCheckpointSaver | None,
        emit: Emit | None,
        stream_modes: set[str],
        interrupt_before: Any,
        interrupt_after: Any,
        runtime: Any,
        cache: Any = None,
        observer: trace.Observer | None = None,
        updates_for_interrupts_only: bool = False,
        durability: str | None = None,
        output_keys: Any = None,
    ) -> None:
        self.graph = graph
        self.durability = durability or "async"
        if self.durability not in ("sync", "async", "exit"):
            raise ValueError(f"durability must be 'sync', 'async' or 'exit', got {durability!r}")
        self._pending_saves: deque[Future] = deque()
        self._saves_in_background = (
            self.durability == "async" and checkpointer is not None and checkpointer.blocks_on_io
        )
        # invoke() asks for updates only to find interrupts: skip building node updates
        self.updates_for_interrupts_only = updates_for_interrupts_only
        self.input = input
        self.config = config
        self.checkpointer = checkpointer
        self.emit_raw = emit
        self.stream_modes = stream_modes
        self.interrupt_before = interrupt_before
        self.interrupt_after = interrupt_after
        self.cache = cache
        self.observer = observer
        self.output_keys = output_keys if output_keys is not None else graph.output_channels
        self.stream_keys = graph.stream_channels_asis
        ns_str: str = config[CONF].get(CONFIG_KEY_CHECKPOINT_NS, "")
        self.checkpoint_ns: tuple[str, ...] = tuple(ns_str.split(NS_SEP)) if ns_str else ()
        self.is_nested = CONFIG_KEY_SCRATCHPAD in config[CONF]
        self.get_next_version = (
            checkpointer.get_next_version if checkpointer is not None else increment
        )
        self.status = "input"
        self.tasks: dict[str, Any] = {}
        # functional-API calls made during this step's tasks, by task id (see accept_call)
        self.calls: dict[str, Any] = {}
        # set by the TaskRunner driving this loop: runs a call beside its caller
        self.submit_call: Callable[[Any, Any], SyncAsyncFuture] | None = None
        self.output: Any = None
        self.updated_channels: set[str] | None = None
        # channels updated since a step last passed; None until known (restored channels)
        self._fresh: set[str] | None = None
        self._unsaved_id_prefix: str | None = None
        self._checkpoint_to_emit = False
        self._load(ns_str)
        self.planner = TaskPlanner(
            nodes=graph.nodes,
            managed=graph.managed,
            config=self.config,
            parent_ns=ns_str,
            runtime=runtime,
            cache_policy=getattr(graph, "cache_policy", None),
            retry_policy=getattr(graph, "retry_policy", None) or (),
            base_metadata=_base_metadata(self.config),
            call=self.accept_call,
        )

    # ------------------------------------------------------------------ setup
    def _load(self, ns: str) -> None:
        saved: CheckpointTuple | None = None
        if self.checkpointer is not None:
            self.checkpoint_config = {
                **self.config,
                CONF: {**self.config[CONF], CONFIG_KEY_CHECKPOINT_NS: ns},
            }
            saved = self.checkpointer.get_tuple(self.checkpoint_config)
        else:
            self.checkpoint_config = self.config
        if saved is None:
            saved = CheckpointTuple(self.checkpoint_config, empty_checkpoint(), {"step": -2}, None, [])
        else:
            self.checkpoint_config = {
                **self.config,
                CONF: {**self.config[CONF], **saved.config[CONF]},
            }
        self.prev_checkpoint_config = saved.parent_config
        self.checkpoint = copy_checkpoint(saved.checkpoint)
        # the versions the saver already holds: a put sends only newer ones
        self._saved_versions = dict(saved.checkpoint["channel_versions"])
        self.checkpoint_metadata = saved.metadata
        self.checkpoint_pending_writes = list(saved.pending_writes or [])
        values = self.checkpoint["channel_values"]
        self.channels: dict[str, BaseChannel] = {
            name: spec.from_checkpoint(values.get(name, MISSING))
            for name, spec in self.graph.channels.items()
        }
        for name, channel in self.channels.items():
            channel.key = name
        self.step = self.checkpoint_metadata.get("step", -2) + 1
        self.stop = self.step + self.config["recursion_limit"] + 1
        self._addressed = self.config[CONF].get(CONFIG_KEY_CHECKPOINT_ID) is not None

    # ------------------------------------------------------------------ output
    def emit(self, mode: str, payload: Any) -> None:
        if self.emit_raw is None:
            return
        if mode in self.stream_modes:
            self.emit_raw(self.checkpoint_ns, mode, payload)
        if mode in ("checkpoints", "tasks") and "debug" in self.stream_modes:
            kind = "checkpoint" if mode == "checkpoints" else (
                "task_result" if "result" in payload or "error" in payload else "task"
            )
            step = self.checkpoint_metadata.get("step", self.step) if mode == "checkpoints" else self.step
            self.emit_raw(
                self.checkpoint_ns,
                "debug",
                {
                    "step": step,
                    "timestamp": datetime.now(UTC).isoformat(),
                    "type": kind,
                    "payload": payload,
                },
            )

    def _wants(self, mode: str) -> bool:
        return self.emit_raw is not None and (
            mode in self.stream_modes
            or (mode in ("checkpoints", "tasks") and "debug" in self.stream_modes)
        )

    def _observe(self, event: Any) -> None:
        if self.observer is not None:
            self.observer(event)

    # ------------------------------------------------------------------ input
    def first(self) -> None:
        """Apply the run's input: new input, a resume (None or Command), or a Command update."""
        configurable = self.config[CONF]
        is_command = isinstance(self.input, Command)
        is_resuming = bool(self.checkpoint["channel_versions"]) and bool(
            configurable.get(CONFIG_KEY_RESUMING, self.input is None or is_command)
        )
        if is_command and self.input.resume is None and not self.input.update and not self.input.goto:
            raise EmptyInputError("Received empty Command input")
        # time travel: a run addressed at a past checkpoint that does not answer an interrupt
        time_travel = (
            self._addressed
            and not (is_command and self.input.resume is not None)
            and not configurable.get(CONFIG_KEY_RESUMING, False)
        )
        # replaying re-asks interrupts instead of reusing old answers
        if time_travel:
            self.checkpoint_pending_writes = [
                w for w in self.checkpoint_pending_writes if w[1] != RESUME
            ]
        # ...and starts a new branch from a "fork" copy of that checkpoint (unless it already is
        # one made by update_state), so its tasks re-run and the old branch stays untouched
        forks = (
            is_resuming
            and time_travel
            and not self.is_nested
            and self.checkpointer is not None
            and self.checkpoint_metadata.get("source") not in ("update", "fork")
        )
        if is_command:
            if self.input.resume is not None and self.checkpointer is None:
                raise RuntimeError("Cannot use Command(resume=...) without checkpointer")
            self._resume_command(self.input, save=not forks)
        null_writes = [w[1:] for w in self.checkpoint_pending_writes if w[0] == NULL_TASK_ID]
        if null_writes:
            self._apply_writes([WritesOnly(INPUT, null_writes)])
        if is_resuming:
            seen = self.checkpoint["versions_seen"].setdefault(INTERRUPT, {})
            seen.update(self.checkpoint["channel_versions"])
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
            self.updated_channels = self._apply_writes([*discarded.values(), WritesOnly(INPUT, writes)])
            self.checkpoint_pending_writes = []
            self._put_checkpoint("input")
        elif not is_resuming and not is_command:
            raise EmptyInputError(f"Received no input for {self.graph.input_channels}")
        if not self.is_nested:
            self.config[CONF][CONFIG_KEY_RESUMING] = is_resuming
        self.status = "pending"

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
        if writes and save:
            self._record_writes(NULL_TASK_ID, writes)
        elif writes:
            self.checkpoint_pending_writes.extend((NULL_TASK_ID, c, v) for c, v in writes)

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
        self._observe_plan()
        # tasks that finished before an interrupt or crash keep their writes; don't rerun them
        if self.checkpoint_pending_writes:
            for tid, chan, value in self.checkpoint_pending_writes:
                if chan in (ERROR, INTERRUPT, RESUME):
                    continue
                if (task := self.tasks.get(tid)) is not None:
                    task.writes.append((chan, value))
        if self.interrupt_before and should_interrupt(
            self.checkpoint, self.interrupt_before, self.tasks.values()
        ):
            self.status = "interrupt_before"
            raise GraphInterrupt()
        if self._wants("tasks"):
            for task in self.tasks.values():
                if not task.hidden:
                    self.emit(
                        "tasks",
                        {"id": task.id, "name": task.name, "input": task.input, "triggers": task.triggers},
                    )
        for task in self.tasks.values():
            if task.writes:
                self._output_writes(task, task.writes, cached=True)
        return True

    def runnable_tasks(self) -> list[Any]:
        """Tasks of this superstep that still have to run (not restored from saved writes)."""
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
        if self.observer is not None:
            self._observe(
                trace.TaskFinished(
                    self.checkpoint_ns, self.step, task.id, task.name, tuple(task.writes), cached=True
                )
            )
        return True

    def task_started(self, task: Any) -> None:
        if self.observer is not None:
            self._observe(trace.TaskStarted(self.checkpoint_ns, self.step, task.id, task.name))

    def accept_call(self, config: dict, call: Call) -> SyncAsyncFuture:
        """Plan a `@task` call made by a running task and start it; a call that finished in an
        earlier attempt of this step (before an interrupt or a crash) returns its saved result."""
        conf = config[CONF]
        parent = self.tasks.get(conf[CONFIG_KEY_TASK_ID]) or self.calls[conf[CONFIG_KEY_TASK_ID]]
        idx = next(conf[CONFIG_KEY_SCRATCHPAD].call_counter)
        task = call_task(
            call, parent, idx, self.checkpoint, self.checkpoint_pending_writes, self.planner,
            self.channels, self.step, self.stop,
        )
        self.calls[task.id] = task
        saved = [(c, v) for tid, c, v in self.checkpoint_pending_writes if tid == task.id]
        if saved and not any(c in (ERROR, INTERRUPT) for c, _ in saved):
            task.writes.extend(saved)
            return done_future(call_result(saved))
        if self._cached(task):
            return done_future(call_result(task.writes))
        if self._wants("tasks") and not task.hidden:
            self.emit(
                "tasks",
                {"id": task.id, "name": task.name, "input": task.input, "triggers": task.triggers},
            )
        return self.submit_call(task, parent)

    def put_writes(self, task: Any, writes: Sequence[tuple[str, Any]]) -> None:
        """Record a finished task's writes (saved as pending writes, streamed as updates)."""
        if writes is not task.writes:
            task.writes[:] = writes
        self._record_writes(task.id, writes)
        if self.cache is not None and task.cache_key is not None and writes[0][0] not in (ERROR, INTERRUPT):
            key = task.cache_key
            self.cache.set({(key.ns, key.key): (list(writes), key.ttl)})
        self._output_writes(task, writes)
        if self.observer is not None:
            error = writes[0][1] if writes[0][0] == ERROR else None
            interrupts = writes[0][1] if writes[0][0] == INTERRUPT else ()
            self._observe(
                trace.TaskFinished(
                    self.checkpoint_ns, self.step, task.id, task.name, tuple(writes), error, interrupts
                )
            )

    def _record_writes(self, task_id: str, writes: Sequence[tuple[str, Any]]) -> None:
        """Keep a task's writes pending for the barrier and save them; a rerun replaces the old.

        The null task (input commands) accumulates plain writes across runs, but its special
        writes (a resume answer) are replaced: the latest answer wins, as the saver's slot does.
        """
        if all(c in WRITES_IDX_MAP for c, _ in writes):
            writes = list({c: (c, v) for c, v in writes}.values())
        pending = self.checkpoint_pending_writes
        if task_id == NULL_TASK_ID:
            pending[:] = [w for w in pending if w[0] != task_id or w[1] not in WRITES_IDX_MAP]
            writes = sorted(writes, key=lambda w: w[0] in WRITES_IDX_MAP)
            to_save = [w[1:] for w in pending if w[0] == task_id] + list(writes)
        else:
            pending[:] = [w for w in pending if w[0] != task_id]
            to_save = writes
        pending.extend((task_id, c, v) for c, v in writes)
        self._save_writes(task_id, to_save)

    def _save_writes(self, task_id: str, writes: Sequence[tuple[str, Any]]) -> None:
        # with durability "exit", pending writes are saved once, when the run ends
        if (
            self.checkpointer is not None
            and self.durability != "exit"
            and self.checkpoint_config[CONF].get(CONFIG_KEY_CHECKPOINT_ID)
        ):
            self._save(self.checkpointer.put_writes, self.checkpoint_config, list(writes), task_id)

    def _save(self, method: Callable[..., Any], *args: Any) -> None:
        """Call a saver method now, or (durability "async", a saver that waits on I/O) in the
        background, in order, overlapping the next superstep; `flush_saves` waits for it."""
        if self._saves_in_background:
            pending = self._pending_saves
            pending.append(background_saves().submit(self.checkpointer, method, *args))
            # saves finish in order: forget the landed ones at the front (a failed one stays)
            while pending and pending[0].done() and pending[0].exception() is None:
                pending.popleft()
        else:
            method(*args)

    def flush_saves(self) -> None:
        """Wait for background saves; re-raise the first one that failed."""
        pending, self._pending_saves = self._pending_saves, deque()
        for future in pending:
            future.result()

    def _output_writes(self, task: Any, writes: Sequence[tuple[str, Any]], cached: bool = False) -> None:
        if self.emit_raw is None:
            return
        modes = self.stream_modes
        if writes[0][0] == INTERRUPT:
            if is_call(task):
                return  # the caller, interrupted in turn, reports it
            found = tuple(v for c, vs in writes if c == INTERRUPT for v in vs)
            if "updates" in modes:
                self.emit("updates", {INTERRUPT: found})
            if "values" in modes:
                # the whole state with the interrupts, or the interrupts alone for a non-dict output
                current = read_channels(self.channels, self.output_keys)
                if isinstance(current, dict):
                    current[INTERRUPT] = found
                    self.emit("values", current)
                else:
                    self.emit("values", {INTERRUPT: found})
        elif writes[0][0] != ERROR and "updates" in modes and not self.updates_for_interrupts_only:
            if (chunk := map_output_updates(self.output_keys, task, writes)) is not None:
                if cached:
                    chunk["__metadata__"] = {"cached": True}
                self.emit("updates", chunk)
        if not cached and self._wants("tasks") and not task.hidden:
            keys = [self.stream_keys] if isinstance(self.stream_keys, str) else self.stream_keys
            self.emit(
                "tasks",
                {
                    "id": task.id,
                    "name": task.name,
                    "error": next((v for c, v in writes if c == ERROR), None),
                    "result": task_result_writes(
                        [(c, v) for c, v in writes if c in keys or c == RETURN]
                    ),
                    "interrupts": [
                        interrupt_dict(i) for c, vs in writes if c == INTERRUPT for i in vs
                    ],
                },
            )

    def after_tick(self) -> None:
        """The barrier: apply every task's writes, emit values, save the checkpoint."""
        old_versions = dict(self.checkpoint["channel_versions"]) if self.observer else None
        old_values = (
            {k: c.checkpoint() for k, c in self.channels.items()} if self.observer else None
        )
        self.updated_channels = self._apply_writes([*self.tasks.values(), *self.calls.values()])
        if "values" in self.stream_modes and self._touches_output(self.updated_channels):
            self.emit("values", read_channels(self.channels, self.output_keys))
        if self.observer is not None:
            self._observe_barrier(old_versions, old_values)
        self.checkpoint_pending_writes = []
        self._put_checkpoint("loop")
        if self.interrupt_after and should_interrupt(
            self.checkpoint, self.interrupt_after, self.tasks.values()
        ):
            self.status = "interrupt_after"
            if self._wants("checkpoints"):
                self._prepare_and_emit_checkpoint()
            raise GraphInterrupt()
        self.config[CONF].pop(CONFIG_KEY_RESUMING, None)

    def _apply_writes(self, tasks: Any) -> set[str]:
        """apply_writes, remembering which channels were updated since the last step passed."""
        tasks = list(tasks)
        updated = apply_writes(
            self.checkpoint,
            self.channels,
            tasks,
            self.get_next_version,
            self.graph.trigger_to_nodes,
            self._fresh,
        )
        if any(t.triggers for t in tasks):
            self._fresh = set(updated)
        elif self._fresh is not None:
            self._fresh |= updated
        return updated

    def _touches_output(self, updated: set[str]) -> bool:
        if isinstance(self.output_keys, str):
            return self.output_keys in updated
        return not updated.isdisjoint(self.output_keys)

    # ------------------------------------------------------------------ checkpoints
    def _put_checkpoint(self, source: str, exiting: bool = False) -> None:
        metadata = self.checkpoint_metadata if exiting else {
            "source": source,
            "step": self.step,
            "parents": self.config[CONF].get(CONFIG_KEY_CHECKPOINT_MAP, {}),
        }
        saving = self.checkpointer is not None and (exiting or self.durability != "exit")
        if saving:
            self.checkpoint = create_checkpoint(
                self.checkpoint,
                self.channels,
                self.step,
                id=self.checkpoint["id"] if exiting else None,
                updated_channels=self.updated_channels,
            )
        elif self.checkpointer is not None:
            # durability "exit": keep stepping; only the last checkpoint will be saved
            self.checkpoint["id"] = uuid6()
            self.checkpoint["updated_channels"] = None
        else:
            # Nobody keeps the old checkpoint without a saver: renew it in place, no copies. Its
            # id only seeds task ids, so a per-run prefix plus the step is unique enough.
            if self._unsaved_id_prefix is None:
                self._unsaved_id_prefix = uuid6()[:-12]
            self.checkpoint["id"] = f"{self._unsaved_id_prefix}{self.step + 1:012x}"
            self.checkpoint["updated_channels"] = None
        if saving:
            versions = self.checkpoint["channel_versions"]
            new_versions = {k: v for k, v in versions.items() if self._saved_versions.get(k) != v}
            self._saved_versions = dict(versions)
            self.prev_checkpoint_config = (
                self.checkpoint_config if self.checkpoint_config[CONF].get(CONFIG_KEY_CHECKPOINT_ID) else None
            )
            # a background put must not see the next step's in-place version bumps
            checkpoint = copy_checkpoint(self.checkpoint) if self._saves_in_background else self.checkpoint
            self._save(self.checkpointer.put, self.checkpoint_config, checkpoint, metadata, new_versions)
            self.checkpoint_config = {
                **self.checkpoint_config,
                CONF: {
                    **self.checkpoint_config[CONF],
                    CONFIG_KEY_CHECKPOINT_NS: self.config[CONF].get(CONFIG_KEY_CHECKPOINT_NS, ""),
                    CONFIG_KEY_CHECKPOINT_ID: self.checkpoint["id"],
                },
            }
        if exiting:
            return
        self.checkpoint_metadata = metadata
        self._checkpoint_to_emit = self._wants("checkpoints")
        if self.observer is not None:
            self._observe(
                trace.CheckpointSaved(
                    self.checkpoint_ns,
                    self.step,
                    source,
                    self.checkpoint["id"],
                    _public_config(self.checkpoint_config) if saving else None,
                )
            )
        self.step += 1

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

    def _prepare_and_emit_checkpoint(self) -> None:
        self.tasks = self._plan()
        self._checkpoint_to_emit = False
        self._emit_checkpoint()

    def _emit_checkpoint(self) -> None:
        if self.checkpointer is None:
            return
        parent_ns = self.config[CONF].get(CONFIG_KEY_CHECKPOINT_NS, "")
        tasks = []
        for task in self.tasks.values():
            state = None
            if task.subgraphs:
                task_ns = f"{task.name}{NS_END}{task.id}"
                if parent_ns:
                    task_ns = f"{parent_ns}{NS_SEP}{task_ns}"
                state = {CONF: {"thread_id": self.config[CONF].get("thread_id"), "checkpoint_ns": task_ns}}
            tasks.append({"id": task.id, "name": task.name, "interrupts": (), "state": state})
        self.emit(
            "checkpoints",
            {
                "config": _public_config(self.checkpoint_config),
                "parent_config": _public_config(self.prev_checkpoint_config),
                "values": read_channels(self.channels, self.stream_keys),
                "metadata": self.checkpoint_metadata,
                "next": [t.name for t in self.tasks.values()],
                "tasks": tasks,
            },
        )

    # ------------------------------------------------------------------ trace
    def _observe_plan(self) -> None:
        if self.observer is None:
            return
        versions = self.checkpoint["channel_versions"]
        planned = tuple(
            trace.PlannedTask(
                t.id,
                t.name,
                t.path,
                tuple(t.triggers),
                {c: versions[c] for c in t.triggers if c in versions},
                t.input,
            )
            for t in self.tasks.values()
        )
        self._observe(trace.StepPlanned(self.checkpoint_ns, self.step, planned))

    def _observe_barrier(self, old_versions: dict, old_values: dict) -> None:
        new_versions = self.checkpoint["channel_versions"]
        changes = tuple(
            trace.ChannelChange(
                name,
                old_versions.get(name),
                version,
                _visible(old_values.get(name, MISSING)),
                _visible(self.channels[name].checkpoint()),
            )
            for name, version in new_versions.items()
            if old_versions.get(name) != version
        )
        self._observe(trace.BarrierApplied(self.checkpoint_ns, self.step, changes))

    # ------------------------------------------------------------------ exit
    def finish(self, error: BaseException | None) -> bool:
        """Called when the run ends; True if `error` (an interrupt at the root) is handled."""
        try:
            self._save_on_exit(error)
        finally:
            self.flush_saves()
        return self._finish(error)

    def _save_on_exit(self, error: BaseException | None) -> None:
        """Durability "exit": save the last checkpoint and its pending writes, once."""
        if self.checkpointer is None or self.durability != "exit" or self.status == "input":
            return
        if self.is_nested and error is None and any(NS_END in part for part in self.checkpoint_ns):
            return  # a subgraph that finished is saved through its parent's checkpoint
        self._put_checkpoint(self.checkpoint_metadata.get("source", "loop"), exiting=True)
        by_task: dict[str, list[tuple[str, Any]]] = {}
        for task_id, channel, value in self.checkpoint_pending_writes:
            by_task.setdefault(task_id, []).append((channel, value))
        for task_id, writes in by_task.items():
            self.checkpointer.put_writes(self.checkpoint_config, writes, task_id)

    def _finish(self, error: BaseException | None) -> bool:
        if isinstance(error, GraphInterrupt) and not self.is_nested:
            if self.checkpoint_pending_writes and any(t.writes for t in self.tasks.values()):
                updated = self._apply_writes(self.tasks.values())
                if "values" in self.stream_modes and self._touches_output(updated):
                    self.emit("values", read_channels(self.channels, self.output_keys))
            if not error.args or not error.args[0]:
                self.emit("updates", {INTERRUPT: error.args[0] if error.args else ()})
            self.output = read_channels(self.channels, self.output_keys)
            return True
        if error is None:
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


def call_result(writes: Sequence[tuple[str, Any]]) -> Any:
    """What a finished call returned (None when it wrote nothing)."""
    return next((v for c, v in writes if c == RETURN), None)


def _visible(value: Any) -> Any:
    return None if value is MISSING else value


def _public_config(config: dict | None) -> dict | None:
    if config is None:
        return None
    conf = config.get(CONF, {})
    return {
        CONF: {
            k: v
            for k, v in conf.items()
            if not k.startswith("__") and k in ("thread_id", "checkpoint_ns", "checkpoint_id")
        }
    }


def _base_metadata(config: dict) -> dict:
    """Metadata every task inherits: the run's metadata plus plain configurable values."""
    metadata = dict(config.get("metadata") or {})
    for key, value in config.get(CONF, {}).items():
        if (
            not key.startswith("__")
            and key not in metadata
            and key not in ("checkpoint_id", "checkpoint_map")
            and isinstance(value, (str, int, float, bool))
        ):
            metadata[key] = value
    return metadata


__all__ = ["PregelLoop", "EMPTY_SEQ"]

