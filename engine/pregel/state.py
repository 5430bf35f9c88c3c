"""Reading and editing a thread's state: get_state, get_state_history, update_state."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from engine.checkpoint.base import (
    CheckpointTuple,
    copy_checkpoint,
    create_checkpoint,
    empty_checkpoint,
)
from engine.constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_CHECKPOINTER,
    END,
    ERROR,
    INPUT,
    INTERRUPT,
    MISSING,
    NS_END,
    NS_SEP,
    NULL_TASK_ID,
    RESUME,
    START,
)
from engine.errors import InvalidUpdateError
from engine.types import PregelTask, StateSnapshot


class StateAccess:
    """Mixin of Pregel: thread state through the checkpointer."""

    def _state_saver(self, config: dict) -> Any:
        saver = self.checkpointer if self.checkpointer not in (None, True, False) else None
        saver = saver or (config.get(CONF) or {}).get(CONFIG_KEY_CHECKPOINTER)
        if saver is None:
            raise ValueError("No checkpointer set")
        return saver

    def _channels_of(self, checkpoint: dict) -> dict:
        values = checkpoint["channel_values"]
        channels = {}
        for name, spec in self.channels.items():
            channel = spec.from_checkpoint(values.get(name, MISSING))
            channel.key = name
            channels[name] = channel
        return channels

    def _snapshot(self, saved: CheckpointTuple, live: bool) -> StateSnapshot:
        """A StateSnapshot of a saved checkpoint and its pending writes.

        Live (the thread's latest state) shows the current status: values include what finished
        tasks wrote, `next` lists only tasks still to run, interrupts only unanswered ones. A
        past checkpoint is a record of its step: values as the step began, every task in it,
        and all the interrupts they raised.
        """
        from engine.pregel.algo import TaskPlanner, WritesOnly, apply_writes, prepare_next_tasks
        from engine.pregel.io import read_channels, task_result_writes
        from engine.runtime import DEFAULT_RUNTIME

        checkpoint = copy_checkpoint(saved.checkpoint)
        channels = self._channels_of(checkpoint)
        ns = saved.config[CONF].get(CONFIG_KEY_CHECKPOINT_NS, "")
        planner = TaskPlanner(
            nodes=self.nodes, managed=self.managed, config={**saved.config, CONF: dict(saved.config[CONF])},
            parent_ns=ns, runtime=DEFAULT_RUNTIME,
        )
        step = saved.metadata.get("step", -1) + 1
        pending = list(saved.pending_writes or [])
        tasks = prepare_next_tasks(
            checkpoint, pending, planner, channels, step, step + 2, for_execution=True
        )
        keep_version = None if not checkpoint["channel_versions"] else (lambda cur, ch: cur)
        if null_writes := [(c, v) for tid, c, v in pending if tid == NULL_TASK_ID]:
            apply_writes(checkpoint, channels, [WritesOnly(INPUT, null_writes)], keep_version, {})
        statuses = _task_statuses(pending)
        if live:
            for tid, status in statuses.items():
                if tid in tasks:
                    tasks[tid].writes.extend(status.output)
            if finished := [t for t in tasks.values() if t.writes]:
                apply_writes(checkpoint, channels, finished, keep_version, {})
        keys = self.stream_channels_asis
        out_tasks = []
        for task in tasks.values():
            status = statuses.get(task.id, _NOT_STARTED)
            result = None
            if status.output:
                if isinstance(keys, str):
                    result = task_result_writes([w for w in status.output if w[0] == keys]).get(keys)
                else:
                    result = task_result_writes([w for w in status.output if w[0] in keys])
            state = None
            if any(sub.checkpointer is not False for sub in task.subgraphs):
                task_ns = f"{task.name}{NS_END}{task.id}"
                task_ns = f"{ns}{NS_SEP}{task_ns}" if ns else task_ns
                state = {CONF: {"thread_id": saved.config[CONF].get("thread_id"), "checkpoint_ns": task_ns}}
            interrupts = () if live and status.output else status.interrupts
            out_tasks.append(
                PregelTask(task.id, task.name, task.path, status.error, interrupts, state, result)
            )
        return StateSnapshot(
            values=read_channels(channels, self.stream_channels_asis),
            next=tuple(t.name for t in tasks.values() if not t.writes),
            config=_with_checkpoint_map(_public(saved.config), saved.metadata),
            metadata=saved.metadata,
            created_at=saved.checkpoint["ts"],
            parent_config=_with_checkpoint_map(_public(saved.parent_config), saved.metadata),
            tasks=tuple(out_tasks),
            interrupts=tuple(i for t in out_tasks for i in t.interrupts),
        )

    def get_state(self, config: dict, *, subgraphs: bool = False) -> StateSnapshot:
        saver = self._state_saver(config)
        conf = {**config.get(CONF, {})}
        conf.setdefault(CONFIG_KEY_CHECKPOINT_NS, "")
        saved = saver.get_tuple({**config, CONF: conf})
        if saved is None:
            return StateSnapshot({}, (), config, None, None, None, ())
        snapshot = self._snapshot(saved, live=CONFIG_KEY_CHECKPOINT_ID not in config.get(CONF, {}))
        if subgraphs:
            snapshot = self._with_subgraph_states(snapshot, saver)
        return snapshot

    def _with_subgraph_states(self, snapshot: StateSnapshot, saver: Any) -> StateSnapshot:
        tasks = []
        for task in snapshot.tasks:
            if task.state is not None and (node := self.nodes.get(task.name)) and node.subgraphs:
                sub = node.subgraphs[0]
                conf = task.state[CONF]
                ns = own_namespace(conf["checkpoint_ns"]) if sub.checkpointer is True else conf["checkpoint_ns"]
                saved = saver.get_tuple({CONF: {"thread_id": conf["thread_id"], "checkpoint_ns": ns}})
                if saved is not None:
                    task = task._replace(state=sub._with_subgraph_states(sub._snapshot(saved, live=True), saver))
            tasks.append(task)
        return snapshot._replace(tasks=tuple(tasks))

    async def aget_state(self, config: dict, *, subgraphs: bool = False) -> StateSnapshot:
        return self.get_state(config, subgraphs=subgraphs)

    def get_state_history(
        self, config: dict, *, filter: dict | None = None, before: dict | None = None, limit: int | None = None
    ) -> Iterator[StateSnapshot]:
        saver = self._state_saver(config)
        conf = {k: v for k, v in config.get(CONF, {}).items() if k in ("thread_id", "checkpoint_ns")}
        conf.setdefault(CONFIG_KEY_CHECKPOINT_NS, "")
        for saved in saver.list({CONF: conf}, filter=filter, before=before, limit=limit):
            yield self._snapshot(saved, live=False)

    async def aget_state_history(self, config: dict, **kwargs: Any):
        for snapshot in self.get_state_history(config, **kwargs):
            yield snapshot

    def update_state(self, config: dict, values: Any, as_node: str | None = None, task_id: str | None = None) -> dict:
        """Write `values` as if node `as_node` returned them; returns the new checkpoint's config."""
        from engine.pregel.algo import WritesOnly, apply_writes

        saver = self._state_saver(config)
        conf = {**config.get(CONF, {})}
        conf.setdefault(CONFIG_KEY_CHECKPOINT_NS, "")
        saved = saver.get_tuple({**config, CONF: conf})
        checkpoint = copy_checkpoint(saved.checkpoint) if saved else empty_checkpoint()
        step = saved.metadata.get("step", -2) + 1 if saved else -1
        channels = self._channels_of(checkpoint)
        if as_node is None:
            as_node = self._default_as_node(checkpoint)
        if as_node not in self.nodes and as_node != END:
            raise InvalidUpdateError(f"Node {as_node} does not exist")
        writes: list = []
        if as_node != END and values is not None:
            task = _UpdateTask(as_node, values, writes, channels, self.managed, saved.config if saved else config)
            for writer in self.nodes[as_node].writers:
                writes.extend(writer.get_writes(values, task))
        saver_config = saved.config if saved else {CONF: conf}
        task = WritesOnly(as_node, writes, triggers=(INTERRUPT,))
        apply_writes(checkpoint, channels, [task], saver.get_next_version, self.trigger_to_nodes)
        new = create_checkpoint(checkpoint, channels, step)
        prev_versions = saved.checkpoint["channel_versions"] if saved else {}
        new_versions = {k: v for k, v in new["channel_versions"].items() if prev_versions.get(k) != v}
        source = "update"
        next_config = saver.put(
            {**saver_config, CONF: {**saver_config[CONF], **conf, **({"checkpoint_id": saved.config[CONF]["checkpoint_id"]} if saved else {})}},
            new,
            {"source": source, "step": step, "parents": {}},
            new_versions,
        )
        return _public(next_config)

    async def aupdate_state(self, config: dict, values: Any, as_node: str | None = None, task_id: str | None = None) -> dict:
        return self.update_state(config, values, as_node, task_id)

    def _default_as_node(self, checkpoint: dict) -> str:
        seen = checkpoint["versions_seen"]
        candidates = [n for n in self.nodes if n != START]
        if len(candidates) == 1:
            return candidates[0]
        if not any(n in seen for n in self.nodes if n != START):
            return START
        last = {n: max(v.values()) for n, v in seen.items() if n in self.nodes and v}
        if last:
            top = max(last.values())
            names = [n for n, v in last.items() if v == top]
            if len(names) == 1:
                return names[0]
        raise InvalidUpdateError("Ambiguous update, specify as_node")


class _UpdateTask:
    """The task an update_state stands in for: routers after `as_node` read the state as that
    node would see it after returning `values` (the snapshot plus the writes so far)."""

    def __init__(self, name: str, values: Any, writes: list, channels: dict, managed: Any, config: dict):
        from engine.constants import CONFIG_KEY_READ
        from engine.pregel.algo import local_read

        self.name = name
        self.input = values
        self.writes = writes
        self.config = {
            **config,
            CONF: {
                **config.get(CONF, {}),
                CONFIG_KEY_READ: lambda select, fresh=False: local_read(
                    channels, managed, None, select, writes if fresh else None
                ),
            },
        }


class _TaskStatus(NamedTuple):
    """What one task's recorded writes say: its output, the interrupts it raised, its error."""

    output: tuple = ()
    interrupts: tuple = ()
    error: Any = None


_NOT_STARTED = _TaskStatus()
_CONTROL_WRITES = frozenset((ERROR, INTERRUPT, RESUME))


def _task_statuses(pending_writes: list) -> dict[str, _TaskStatus]:
    output: dict[str, list] = {}
    interrupts: dict[str, list] = {}
    errors: dict[str, Any] = {}
    for tid, chan, value in pending_writes:
        if tid == NULL_TASK_ID:
            continue
        output.setdefault(tid, [])
        if chan == INTERRUPT:
            interrupts.setdefault(tid, []).extend(value if isinstance(value, (list, tuple)) else [value])
        elif chan == ERROR:
            errors.setdefault(tid, value)
        elif chan not in _CONTROL_WRITES:
            output[tid].append((chan, value))
    return {
        tid: _TaskStatus(tuple(out), tuple(interrupts.get(tid, ())), errors.get(tid))
        for tid, out in output.items()
    }


def own_namespace(ns: str) -> str:
    """Where a checkpointer=True subgraph keeps its one history per thread: its namespace
    without task ids, so every call of it in the thread continues the same history."""
    return NS_SEP.join(part.split(NS_END)[0] for part in ns.split(NS_SEP))


def _with_checkpoint_map(config: dict | None, metadata: dict | None) -> dict | None:
    """A subgraph checkpoint's config names its ancestors' checkpoints (and its own) by namespace."""
    parents = (metadata or {}).get("parents")
    if config is None or not parents:
        return config
    conf = config[CONF]
    return {CONF: {**conf, "checkpoint_map": {**parents, conf["checkpoint_ns"]: conf["checkpoint_id"]}}}


def _public(config: dict | None) -> dict | None:
    if config is None:
        return None
    conf = config.get(CONF, {})
    return {CONF: {k: conf[k] for k in ("thread_id", "checkpoint_ns", "checkpoint_id") if k in conf}}


__all__ = ["StateAccess", "NS_END", "NS_SEP", "ERROR"]
