"""Pure superstep maths: which tasks run next, and how their writes are applied at the barrier.

No threads and no I/O here: the loop calls these with its checkpoint and channels.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from xxhash import xxh3_128_hexdigest

from engine._constants import (
    CACHE_NS_WRITES,
    CONF,
    CONFIG_KEY_CALL,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_MAP,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_READ,
    CONFIG_KEY_RESUME_MAP,
    CONFIG_KEY_RUNTIME,
    CONFIG_KEY_SCRATCHPAD,
    CONFIG_KEY_SEND,
    CONFIG_KEY_TASK_ID,
    EMPTY_SEQ,
    ERROR,
    ERROR_SOURCE_NODE,
    INTERRUPT,
    MISSING,
    NO_WRITES,
    NS_END,
    NS_SEP,
    NULL_TASK_ID,
    PULL,
    PUSH,
    RESERVED,
    RESUME,
    RETURN,
    TASKS,
)
from engine.channels.base import BaseChannel
from engine.channels.binop import BinaryOperatorAggregate
from engine.channels.last_value import LastValue
from engine.checkpoint.base import Checkpoint, PendingWrite
from engine.pregel.read import PregelNode, cache_identity
from engine.pregel.scratchpad import Scratchpad
from engine.pregel.task_ids import (
    id_namespace,
    legacy_task_id,
    path_sort_key,
    task_id_in,
    v1_task_id_in,
)
from engine.runtime import first_attempt_info
from engine.types import CacheKey, PregelExecutableTask, Send, interrupt_id

logger = logging.getLogger("engine.pregel")

PUSH_TRIGGER = (PUSH,)
# channel kinds that a step without writes leaves as they are: a fresh read need not copy them
_SAME_AFTER_EMPTY_STEP = frozenset((LastValue, BinaryOperatorAggregate))
_SKIPPED_WRITES = frozenset({NO_WRITES, PUSH, RESUME, INTERRUPT, RETURN, ERROR, ERROR_SOURCE_NODE})


class WritesOnly:
    """A task-like record of writes not made by a task (input, update_state, Command)."""

    __slots__ = ("path", "name", "writes", "triggers")

    def __init__(
        self, name: str, writes: Sequence[tuple[str, Any]], triggers=EMPTY_SEQ, path: tuple = ()
    ):
        self.path = path
        self.name = name
        self.writes = writes
        self.triggers = triggers


# --------------------------------------------------------------------------- barrier


class VersionChanges:
    """What a loop knows of its checkpoint's versions between saves: the channels given a new
    version since the last put (what the put stores), and the highest version (what the next
    one is drawn from), so neither costs a pass over every channel's version per superstep."""

    __slots__ = ("names", "order", "top")

    def __init__(self, versions: Mapping[str, Any], saved: bool = True) -> None:
        # `saved` false (no saver): nothing is put, only the highest version is kept
        self.names: set[str] | None = set() if saved else None
        # each channel's place in the versions (new ones are added last): puts list in it
        self.order: dict[str, int] = {name: i for i, name in enumerate(versions)} if saved else {}
        self.top: Any = MISSING  # MISSING: not known yet

    def highest(self, versions: Mapping[str, Any]) -> Any:
        """max(versions.values()), None when there are none."""
        if self.top is MISSING:
            self.top = max(versions.values()) if versions else None
        return self.top

    def landed(self, names: Mapping[str, Any], version: Any) -> None:
        """`names` (in the order they were set) were given `version`."""
        if self.names is not None:
            order = self.order
            if not names.keys() <= order.keys():  # a channel's first version: it goes last
                for name in names:
                    if name not in order:
                        order[name] = len(order)
            self.names.update(names)
        top = self.top
        if top is not MISSING and (top is None or version > top):
            self.top = version

    def take(self, versions: Mapping[str, Any]) -> dict[str, Any]:
        """The versions given since the last take, in `versions`' order (what a put stores)."""
        names = self.names
        if not names:
            return {}
        if len(names) == 1:
            (name,) = names
            taken = {name: versions[name]}
        elif len(names) == 2:  # the usual superstep (a node's write and its next trigger)
            first, second = names
            if self.order[first] > self.order[second]:
                first, second = second, first
            taken = {first: versions[first], second: versions[second]}
        else:
            taken = {name: versions[name] for name in sorted(names, key=self.order.__getitem__)}
        names.clear()
        return taken


def apply_writes(
    checkpoint: Checkpoint,
    channels: Mapping[str, BaseChannel],
    tasks: Iterable[Any],
    get_next_version: Callable[[Any, Any], Any] | None,
    trigger_to_nodes: Mapping[str, Sequence[str]],
    fresh: Iterable[str] | None = None,
    changes: VersionChanges | None = None,
) -> set[str]:
    """Apply one superstep's writes through each channel's rule; return the updated channels.

    Stages: record what each task consumed (versions_seen), consume its triggers, apply writes
    grouped by channel in task-path order, tell untouched channels a step passed (ephemeral ones
    clear), and when nothing more can run, tell every channel the run is finishing.

    `fresh` names the channels updated since the last step passed (None: unknown, check all).
    Only those can react to a step passing: a channel that clears on an empty step holds a value
    only if it was written since, so the loop avoids visiting every channel every step.

    `changes` (the loop's) knows the highest version, so drawing the next one does not scan
    every channel's, and is told which channels got a new version.
    """
    tasks = list(tasks)
    if len(tasks) > 1:
        tasks.sort(key=lambda t: path_sort_key(t.path))
    versions = checkpoint["channel_versions"]
    seen = checkpoint["versions_seen"]

    # 1. what each task consumed (a node's versions_seen is replaced, never changed: a saver
    # may keep the last checkpoint's as it is)
    consumed: set[str] = set()
    for task in tasks:
        node_seen = seen.get(task.name)
        node_seen = {} if node_seen is None else node_seen.copy()
        for chan in task.triggers:
            consumed.add(chan)
            if chan in versions:
                node_seen[chan] = versions[chan]
        seen[task.name] = node_seen
    bump_step = bool(consumed)

    if get_next_version is None:
        next_version = None
    elif changes is not None:
        next_version = get_next_version(changes.highest(versions), None)
    else:
        next_version = get_next_version(max(versions.values()) if versions else None, None)
    bumped: dict[str, None] = {}  # the channels given next_version, in order

    try:
        # 2. consume triggers (join barriers reset)
        for chan in consumed:
            if chan not in RESERVED and chan in channels:
                if channels[chan].consume() and next_version is not None:
                    versions[chan] = next_version
                    bumped[chan] = None

        # 3. group writes by channel, in task order
        by_channel: defaultdict[str, list[Any]] = defaultdict(list)
        for task in tasks:
            for chan, value in task.writes:
                if chan in _SKIPPED_WRITES:
                    continue
                if chan in channels:
                    by_channel[chan].append(value)
                else:
                    logger.warning(
                        f"Task {task.name} with path {task.path} wrote to unknown channel {chan}, "
                        "ignoring it."
                    )

        updated: set[str] = set()
        for chan, values in by_channel.items():
            channel = channels[chan]
            if channel.update(values) and next_version is not None:
                versions[chan] = next_version
                bumped[chan] = None
                if channel.is_available():
                    updated.add(chan)

        # 4. a step passed for every other channel
        if bump_step:
            for chan in channels if fresh is None else fresh:
                channel = channels[chan]
                if chan not in updated and channel.is_available():
                    if channel.update(EMPTY_SEQ) and next_version is not None:
                        versions[chan] = next_version
                        bumped[chan] = None
                        if channel.is_available():
                            updated.add(chan)

        # 5. nothing left to wake: tell channels the run is finishing (deferred nodes)
        if (
            bump_step
            and not any(map(trigger_to_nodes.__contains__, updated))
            and any(map(_finishes, set(map(type, channels.values()))))
        ):
            for chan, channel in channels.items():
                if channel.finish() and next_version is not None:
                    versions[chan] = next_version
                    bumped[chan] = None
                    if channel.is_available():
                        updated.add(chan)
    finally:  # also when a channel rejects its writes: what landed is still known
        if changes is not None and bumped:
            changes.landed(bumped, next_version)
    return updated


_FINISHING_KINDS: dict[type, bool] = {}


def _finishes(kind: type) -> bool:
    """Whether a channel class does anything when the run finishes (by class, once: most
    channels keep the base class's no-op, and a graph has many channels of few classes)."""
    found = _FINISHING_KINDS.get(kind)
    if found is None:
        found = _FINISHING_KINDS[kind] = kind.finish is not BaseChannel.finish
    return found


# --------------------------------------------------------------------------- planning


def should_interrupt(checkpoint: Checkpoint, interrupt_nodes: Any, tasks: Iterable[Any]) -> list:
    """Tasks that hit a breakpoint: only if some channel changed since the last interrupt."""
    versions = checkpoint["channel_versions"]
    null = type(next(iter(versions.values()), None))()
    seen = checkpoint["versions_seen"].get(INTERRUPT, {})
    if not any(v > seen.get(c, null) for c, v in versions.items()):
        return []
    return [
        t
        for t in tasks
        if ((not t.hidden) if interrupt_nodes == "*" else t.name in interrupt_nodes)
    ]


def local_read(
    channels: Mapping[str, BaseChannel],
    managed: Mapping[str, Any],
    scratchpad: Any,
    select: str | Sequence[str],
    writes: Sequence[tuple[str, Any]] | None,
) -> Any:
    """Read `select` as the task sees it. With `writes` (a fresh read, for routers), the state is
    as it will be after the barrier if only this task wrote: its writes applied, and channels
    that last one step (ephemeral) cleared unless it wrote them."""
    names = [select] if isinstance(select, str) else select
    if writes is None:
        local = channels
    else:
        by_name: dict[str, list[Any]] = {}  # (grouped once: no scan of the writes per name)
        for chan, value in writes:
            if chan in by_name:
                by_name[chan].append(value)
            else:
                by_name[chan] = [value]
        local = {}
        for name in names:
            if name not in channels:
                continue
            channel = channels[name]
            written = by_name.get(name)
            if written is not None or (
                type(channel) not in _SAME_AFTER_EMPTY_STEP and channel.is_available()
            ):
                fresh = channel.copy()
                local[name] = fresh if fresh.update(written or []) else channel
            else:
                local[name] = channel
    if isinstance(select, str):
        return local[select].get() if select in local else managed[select].get(scratchpad)
    out = {}
    for name in names:
        if name in local:
            if local[name].is_available():
                out[name] = local[name].get()
        elif name in managed:
            out[name] = managed[name].get(scratchpad)
    return out


@dataclass(slots=True)
class TaskPlanner:
    """Everything prepare_next_tasks needs from the loop beyond checkpoint and channels."""

    nodes: Mapping[str, PregelNode]
    managed: Mapping[str, Any]
    config: dict
    parent_ns: str
    runtime: Any = None
    cache_policy: Any = None
    retry_policy: Sequence[Any] = ()
    # a task's config: base metadata/configurable merged with per-task keys
    base_metadata: dict = field(default_factory=dict)
    # schedules a functional-API call made by a running task (PregelLoop.accept_call)
    call: Callable[[dict, Any], Any] | None = None
    # node name -> its trigger channels, sorted (a pull task's triggers and id)
    sorted_triggers: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(slots=True)  # not frozen (nor TaskSite): 4x cheaper init, made per planned step
class StepContext:
    """What planning one superstep reads: the checkpoint, its pending writes, the channels."""

    checkpoint: Checkpoint
    pending_writes: Sequence[PendingWrite]
    planner: TaskPlanner
    channels: Mapping[str, BaseChannel]
    step: int
    stop: int
    pending_ids: set[str] | None = None  # the task ids of pending_writes, once asked
    id_bytes: bytes | None = None  # the checkpoint id's bytes, every task id's namespace
    id_in: Any = task_id_in  # the hash of the checkpoint's format (langgraph's choice)
    checkpoint_map: dict | None = None  # the step's tasks' checkpoint map, made once a step

    def task_id(self, *parts: str, legacy: Sequence[str] | None = None) -> str:
        """The id of the task at `parts`; in a thread an earlier engine version saved, the
        legacy id its pending writes are keyed by (`legacy`: that version's parts)."""
        if self.id_bytes is None:
            self.id_bytes = id_namespace(self.checkpoint["id"])
            if self.checkpoint.get("v", 2) < 2:  # (XXH3 since format 2)
                self.id_in = v1_task_id_in
        tid = self.id_in(self.id_bytes, *parts)
        if not self.pending_writes:
            return tid
        if self.pending_ids is None:
            self.pending_ids = {w[0] for w in self.pending_writes}  # (a set: built faster)
        if tid in self.pending_ids:
            return tid
        old = legacy_task_id(self.checkpoint["id"], *(parts if legacy is None else legacy))
        return old if old in self.pending_ids else tid


@dataclass(slots=True)
class TaskSite:
    """Where a task sits in the run: its node, id, path, triggers and its graph's namespace."""

    name: str
    id: str
    path: tuple
    triggers: Sequence[str]
    checkpoint_ns: str


@dataclass(slots=True, eq=False)
class TaskRecord:
    """A planned task that will not run here (a snapshot, tasks an input discards): enough to
    apply its saved writes and to show it."""

    name: str
    id: str
    path: tuple
    triggers: Sequence[str]
    subgraphs: Sequence[Any]
    writes: list[tuple[str, Any]] = field(default_factory=list)


def prepare_next_tasks(
    checkpoint: Checkpoint,
    pending_writes: Sequence[PendingWrite],
    planner: TaskPlanner,
    channels: Mapping[str, BaseChannel],
    step: int,
    stop: int,
    *,
    for_execution: bool,
    updated_channels: set[str] | None = None,
    trigger_to_nodes: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """The tasks of the next superstep: one PUSH task per Send packet, then each PULL node
    whose trigger channels have versions newer than it has seen, in name order.

    `for_execution`: PregelExecutableTasks, ready to run; else TaskRecords (cheaper, for
    snapshots and for tasks a new input discards)."""
    ctx = StepContext(checkpoint, pending_writes, planner, channels, step, stop)
    tasks: dict[str, Any] = {}
    input_cache: dict[Any, Any] = {}
    tasks_channel = channels.get(TASKS)
    if tasks_channel is not None and tasks_channel.is_available():
        for idx, packet in enumerate(tasks_channel.get()):
            if task := _push_task(ctx, idx, packet, for_execution):
                tasks[task.id] = task
    if updated_channels is not None and trigger_to_nodes:
        woken: set[str] = set()  # (a loop, not a set comprehension's frame: once per step)
        for chan in updated_channels:
            if (nodes := trigger_to_nodes.get(chan)) is not None:
                woken.update(nodes)
        candidates: Iterable[str] = sorted(woken)
    elif not checkpoint["channel_versions"]:
        candidates = ()
    else:
        candidates = planner.nodes
    versions = checkpoint["channel_versions"]
    if versions:
        null = type(next(iter(versions.values())))()
        for name in candidates:
            proc = planner.nodes[name]
            seen = checkpoint["versions_seen"].get(name)
            if _triggered(channels, versions, seen, null, proc):
                if task := _pull_task(ctx, name, proc, for_execution, input_cache):
                    tasks[task.id] = task
    return tasks


def _triggered(channels, versions, seen, null, proc: PregelNode) -> bool:
    # a loop, not any(<generator>): this runs for every candidate node of every step
    for c in proc.triggers:
        if channels[c].is_available() and (
            seen is None or versions.get(c, null) > seen.get(c, null)
        ):
            return True
    return False


def _read_input(proc: PregelNode, channels, managed, scratchpad, input_cache) -> Any:
    key = proc.input_cache_key
    if input_cache is not None and key in input_cache:
        cached = input_cache[key]
        return cached.copy() if isinstance(cached, dict) else cached
    select = proc.channels
    if isinstance(select, str):
        if select not in channels or not channels[select].is_available():
            return MISSING
        value = channels[select].get()
    else:
        value = {}
        for chan in select:
            if chan in channels:
                channel = channels[chan]
                if channel.is_available():
                    value[chan] = channel.get()
            else:
                value[chan] = managed[chan].get(scratchpad)
    if proc.mapper is not None:
        value = proc.mapper(value)
    if input_cache is not None:
        input_cache[key] = value
    return value


def _resume_values(
    pending_writes: Sequence[PendingWrite], tid: str, task_ns: str, resume_map: dict | None
) -> tuple[list[Any], PendingWrite | None]:
    """The answers already given to this task's interrupts, and the run-wide resume write."""
    null_resume = None
    resume: list[Any] = []
    for w in pending_writes:
        if w[1] != RESUME:
            continue
        if w[0] == NULL_TASK_ID and null_resume is None:
            null_resume = w
        elif w[0] == tid and not resume:
            resume = list(w[2]) if isinstance(w[2], list) else [w[2]]
    if resume_map:
        next_id = interrupt_id(task_ns, len(resume))
        if next_id in resume_map:
            resume.append(resume_map[next_id])
    return resume, null_resume


def _make_task(
    ctx: StepContext,
    name: str,
    tid: str,
    path: tuple,
    triggers: Sequence[str],
    proc: PregelNode,
    value: Any,
    scratchpad: Scratchpad,
) -> PregelExecutableTask:
    planner, channels, step = ctx.planner, ctx.channels, ctx.step
    checkpoint_id = ctx.checkpoint["id"]
    writes: list[tuple[str, Any]] = []
    send = writes.extend
    task_ns = scratchpad.ns  # the caller's f"{site.checkpoint_ns}{NS_END}{tid}"
    scratchpad.send = send
    # the task's dicts are copies given their keys one by one: a dict's copy() clones its
    # table, where {**d, k: v} inserts every key again (twice the cost, for every task)
    metadata = planner.base_metadata.copy()
    metadata["langgraph_step"] = step
    metadata["langgraph_node"] = name
    metadata["langgraph_triggers"] = triggers
    metadata["langgraph_path"] = path
    metadata["langgraph_checkpoint_ns"] = task_ns
    if proc.metadata:
        metadata.update(proc.metadata)
    config = planner.config
    conf = config[CONF]
    managed = planner.managed

    def read(select: str | Sequence[str], fresh: bool = False) -> Any:
        return local_read(channels, managed, scratchpad, select, writes if fresh else None)

    run_id = config.get("run_id")
    checkpoint_map = ctx.checkpoint_map
    if checkpoint_map is None:  # the same for every task of the step
        checkpoint_map = ctx.checkpoint_map = {
            **conf.get(CONFIG_KEY_CHECKPOINT_MAP, {}),
            planner.parent_ns: checkpoint_id,
        }
    info = first_attempt_info(  # positional (and the task below): built per node per step
        checkpoint_id,
        task_ns,
        tid,
        conf.get("thread_id"),
        str(run_id) if run_id else None,
        time.time(),
    )
    task_conf = conf.copy()
    task_conf[CONFIG_KEY_SEND] = send
    task_conf[CONFIG_KEY_CALL] = planner.call
    task_conf[CONFIG_KEY_READ] = read
    task_conf[CONFIG_KEY_SCRATCHPAD] = scratchpad
    task_conf[CONFIG_KEY_CHECKPOINT_NS] = task_ns
    task_conf[CONFIG_KEY_TASK_ID] = tid
    # a graph run inside the task records this checkpoint as its parent
    task_conf[CONFIG_KEY_CHECKPOINT_MAP] = checkpoint_map
    task_conf[CONFIG_KEY_CHECKPOINT_ID] = None
    task_conf[CONFIG_KEY_RUNTIME] = planner.runtime.for_task(info)
    task_config = config.copy()
    task_config["metadata"] = metadata
    task_config["tags"] = [*config.get("tags", ()), *(proc.tags or ())]
    task_config["run_name"] = name
    task_config[CONF] = task_conf
    cache_policy = proc.cache_policy or planner.cache_policy
    cache_key = None
    if cache_policy is not None:
        key = cache_policy.key_func(value)
        key = key.encode() if isinstance(key, str) else key
        # langgraph's namespace and digest, so a shared or inspected cache holds the same keys
        cache_key = CacheKey(
            (CACHE_NS_WRITES, cache_identity(proc.bound), name),
            xxh3_128_hexdigest(key),
            cache_policy.ttl,
        )
    return PregelExecutableTask(
        name,
        value,
        proc,
        writes,
        task_config,
        triggers,
        proc.retry_policy or planner.retry_policy,
        cache_key,
        tid,
        path,
        proc.writers,
        proc.subgraphs,
        proc.timeout,
    )


def _nothing(*_: Any) -> None:
    """A scratchpad's null resume with no answer to give, and its send until _make_task's."""


def _scratchpad(pending_writes, tid, task_ns, planner: TaskPlanner, step, stop) -> Scratchpad:
    parent = planner.config[CONF].get(CONFIG_KEY_SCRATCHPAD)
    if pending_writes:
        resume, null_write = _resume_values(
            pending_writes, tid, task_ns, planner.config[CONF].get(CONFIG_KEY_RESUME_MAP)
        )
    else:
        resume, null_write = [], None
    if null_write is None:  # the common case: no closure to build for each task
        null_resume = _nothing if parent is None else parent._null_resume
        return Scratchpad(step, stop, resume, null_resume, task_ns, _nothing)

    def null_resume(consume: bool = False) -> Any:
        nonlocal null_write
        if null_write is None:
            return parent._null_resume(consume) if parent is not None else None
        value = null_write[2]
        if consume:
            try:
                pending_writes.remove(null_write)  # type: ignore[attr-defined]
            except (ValueError, AttributeError):
                return None
            null_write = None
        return value

    return Scratchpad(step, stop, resume, null_resume, task_ns, _nothing)


def _graph_ns(planner: TaskPlanner, name: str) -> str:
    return f"{planner.parent_ns}{NS_SEP}{name}" if planner.parent_ns else name


def _planned(
    ctx: StepContext, site: TaskSite, proc: PregelNode, value: Any, for_execution: bool
) -> Any:
    """The task at `site`: ready to run (its scratchpad holds the answers to its interrupts), or
    only its record."""
    if not for_execution:
        return TaskRecord(site.name, site.id, site.path, site.triggers, proc.subgraphs)
    task_ns = f"{site.checkpoint_ns}{NS_END}{site.id}"
    scratchpad = _scratchpad(ctx.pending_writes, site.id, task_ns, ctx.planner, ctx.step, ctx.stop)
    return _make_task(ctx, site.name, site.id, site.path, site.triggers, proc, value, scratchpad)


def _push_task(ctx: StepContext, idx: int, packet: Any, for_execution: bool) -> Any:
    if not isinstance(packet, Send):
        return None
    if packet.node not in ctx.planner.nodes:
        logger.warning(f"Ignoring unknown node name {packet.node} in pending sends")
        return None
    checkpoint_ns = _graph_ns(ctx.planner, packet.node)
    tid = ctx.task_id(checkpoint_ns, str(ctx.step), packet.node, PUSH, str(idx))
    site = TaskSite(packet.node, tid, (PUSH, idx, False), PUSH_TRIGGER, checkpoint_ns)
    task = _planned(ctx, site, ctx.planner.nodes[packet.node], packet.arg, for_execution)
    if packet.timeout is not None and for_execution:
        task.timeout = packet.timeout
    return task


def _pull_task(
    ctx: StepContext, name: str, proc: PregelNode, for_execution: bool, input_cache: dict
) -> Any:
    triggers = ctx.planner.sorted_triggers.get(name)
    if triggers is None:  # sorted once per run and node
        triggers = ctx.planner.sorted_triggers[name] = tuple(sorted(proc.triggers))
    planner = ctx.planner
    checkpoint_ns = f"{planner.parent_ns}{NS_SEP}{name}" if planner.parent_ns else name
    tid = ctx.task_id(checkpoint_ns, str(ctx.step), name, PULL, *triggers)
    if not for_execution:
        # a node reading one channel only has a task when that channel has a value
        select = proc.channels
        if isinstance(select, str) and not (
            select in ctx.channels and ctx.channels[select].is_available()
        ):
            return None
        # (the record straight away: a snapshot of a long history plans one per checkpoint)
        return TaskRecord(name, tid, (PULL, name), triggers, proc.subgraphs)
    task_ns = f"{checkpoint_ns}{NS_END}{tid}"
    scratchpad = _scratchpad(ctx.pending_writes, tid, task_ns, planner, ctx.step, ctx.stop)
    try:
        value = _read_input(proc, ctx.channels, planner.managed, scratchpad, input_cache)
    except Exception as exc:
        exc.add_note(f"Before task with name '{name}' and path '{(PULL, name)}'")
        raise
    if value is MISSING:
        return None
    return _make_task(ctx, name, tid, (PULL, name), triggers, proc, value, scratchpad)


__all__ = [
    "PregelExecutableTask",
    "StepContext",
    "TaskPlanner",
    "TaskRecord",
    "TaskSite",
    "VersionChanges",
    "WritesOnly",
    "apply_writes",
    "local_read",
    "prepare_next_tasks",
    "should_interrupt",
    "CONFIG_KEY_RUNTIME",
]
