"""Reading and editing a thread's state: get_state, get_state_history, update_state."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from typing import Any
from uuid import UUID, uuid5

from engine._constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_CHECKPOINTER,
    CONFIG_KEY_THREAD_ID,
    END,
    ERROR,
    INPUT,
    INTERRUPT,
    NS_END,
    NS_SEP,
    NULL_TASK_ID,
    PUSH,
)
from engine.checkpoint.base import (
    CheckpointTuple,
    copy_checkpoint,
    create_checkpoint,
    empty_checkpoint,
)
from engine.errors import InvalidUpdateError
from engine.pregel.algo import TaskPlanner, WritesOnly, apply_writes, prepare_next_tasks
from engine.pregel.delta_messages import ensure_message_ids
from engine.pregel.deltas import (
    COUNTERS,
    bump_snapshots,
    delta_names,
    overwritten_delta_channels,
    pending_delta_channels,
    restore_channels,
    set_counters,
    update_plan,
)
from engine.pregel.exit_deltas import takes_task_path
from engine.pregel.io import map_input, read_channels
from engine.pregel.replay import superseded
from engine.pregel.task_ids import path_text
from engine.pregel.task_status import NOT_STARTED, apply_saved, task_result, task_statuses
from engine.runtime import DEFAULT_RUNTIME
from engine.types import PregelTask, StateSnapshot, StateUpdate


class StateAccess:
    """Mixin of Pregel: thread state through the checkpointer."""

    def _state_saver(self, config: dict) -> Any:
        saver = self.checkpointer if self.checkpointer not in (None, True, False) else None
        saver = saver or (config.get(CONF) or {}).get(CONFIG_KEY_CHECKPOINTER)
        if saver is None:
            raise ValueError("No checkpointer set")
        return saver

    def _channels_of(self, checkpoint: dict, saver: Any = None, config: Any = None) -> dict:
        # the saver and the checkpoint's config rebuild delta channels from their history
        return restore_channels(self.channels, checkpoint, saver, config)

    def _snapshot(
        self, saved: CheckpointTuple, live: bool, saver: Any = None, planners: Any = None
    ) -> StateSnapshot:
        """A StateSnapshot of a saved checkpoint and its pending writes.

        Live (the thread's latest state) shows the current status: values include what finished
        tasks wrote, `next` lists only tasks still to run, interrupts only unanswered ones. A
        past checkpoint is a record of its step: values as the step began, every task in it,
        and all the interrupts they raised.
        """
        # a snapshot only reads the saved checkpoint: it is copied only to apply writes to it
        checkpoint, config, metadata = saved.checkpoint, saved.config, saved.metadata
        if checkpoint["v"] < 4:  # saved by an older langgraph: read in today's form, a copy
            checkpoint = copy_checkpoint(checkpoint)
            self._migrate_checkpoint(checkpoint)
        channels = restore_channels(self.channels, checkpoint, saver, config)
        conf = config[CONF]
        ns = conf.get(CONFIG_KEY_CHECKPOINT_NS, "")
        # task records read no config (nor change it): the saved one is lent as it is, and a
        # history lends one planner (its sorted triggers) to every checkpoint of a namespace
        planner = planners.get(ns) if planners is not None else None
        if planner is None:
            planner = TaskPlanner(self.nodes, self.managed, config, ns, DEFAULT_RUNTIME)
            if planners is not None:
                planners[ns] = planner
        step = metadata.get("step", -1) + 1
        pending = saved.pending_writes or ()
        tasks = prepare_next_tasks(
            checkpoint, pending, planner, channels, step, step + 2, for_execution=False
        )
        statuses = task_statuses(pending) if pending else {}
        if pending:
            apply_saved(checkpoint, channels, pending, statuses, tasks, live)
        keys = self.stream_channels_asis
        out_tasks, interrupts = [], []
        for task in tasks.values():
            status = statuses.get(task.id, NOT_STARTED)
            state = None
            if task.subgraphs and any(sub.checkpointer is not False for sub in task.subgraphs):
                task_ns = f"{task.name}{NS_END}{task.id}"
                task_ns = f"{ns}{NS_SEP}{task_ns}" if ns else task_ns
                state = {CONF: {"thread_id": conf.get("thread_id"), "checkpoint_ns": task_ns}}
            if status is NOT_STARTED:
                out_tasks.append(PregelTask(task.id, task.name, task.path, None, (), state))
                continue
            result = task_result(status.output, keys) if status.output else None
            raised = () if live and status.output else status.interrupts
            interrupts += raised
            out_tasks.append(
                PregelTask(task.id, task.name, task.path, status.error, raised, state, result)
            )
        return StateSnapshot(
            read_channels(channels, keys),
            tuple(t.name for t in tasks.values() if not t.writes),
            _with_checkpoint_map(_public(config), metadata),
            metadata,
            checkpoint["ts"],
            _with_checkpoint_map(_public(saved.parent_config), metadata),
            tuple(out_tasks),
            tuple(interrupts),
        )

    # ------------------------------------------------------------------ subgraphs
    def get_subgraphs(
        self, *, namespace: str | None = None, recurse: bool = False
    ) -> Iterator[tuple[str, Any]]:
        """(namespace, graph) of each node's subgraph; with `namespace`, only the one there
        (task ids left out: "outer|inner"); with `recurse`, theirs too."""
        for name, node in self.nodes.items():
            if (
                namespace is not None
                and namespace != name
                and not namespace.startswith(name + NS_SEP)
            ):
                continue
            for graph in node.subgraphs[:1]:
                if namespace is None or namespace == name:
                    yield name, graph
                if recurse and namespace != name:
                    rest = None if namespace is None else namespace[len(name) + 1 :]
                    for ns, inner in graph.get_subgraphs(namespace=rest, recurse=True):
                        yield f"{name}{NS_SEP}{ns}", inner

    async def aget_subgraphs(self, *, namespace: str | None = None, recurse: bool = False):
        for item in self.get_subgraphs(namespace=namespace, recurse=recurse):
            yield item

    def _subgraph_for(self, config: dict, saver: Any, *, for_update: bool = False) -> Any:
        """The subgraph a config from get_state(subgraphs=True) addresses, with the config to
        call it with (lending it the saver); None when the config is this graph's."""
        ns = config.get(CONF, {}).get(CONFIG_KEY_CHECKPOINT_NS, "")
        if not ns or CONFIG_KEY_CHECKPOINTER in config.get(CONF, {}):
            return None
        stable = NS_SEP.join(part.split(NS_END)[0] for part in ns.split(NS_SEP))
        for _, graph in self.get_subgraphs(namespace=stable, recurse=True):
            return graph, {**config, CONF: {**config[CONF], CONFIG_KEY_CHECKPOINTER: saver}}
        if for_update:
            raise ValueError(f"Subgraph {stable} not found")
        return None

    def get_state(self, config: dict, *, subgraphs: bool = False) -> StateSnapshot:
        config = text_thread_id(config)
        saver = self._state_saver(config)
        if (found := self._subgraph_for(config, saver)) is not None:
            graph, sub_config = found
            return graph.get_state(sub_config, subgraphs=subgraphs)
        conf = {**config.get(CONF, {})}
        conf.setdefault(CONFIG_KEY_CHECKPOINT_NS, "")
        saved = saver.get_tuple({**config, CONF: conf})
        if saved is None:
            return StateSnapshot({}, (), config, None, None, None, ())
        snapshot = self._snapshot(
            saved, live=CONFIG_KEY_CHECKPOINT_ID not in config.get(CONF, {}), saver=saver
        )
        if subgraphs:
            snapshot = self._with_subgraph_states(snapshot, saver)
        return snapshot

    def _with_subgraph_states(self, snapshot: StateSnapshot, saver: Any) -> StateSnapshot:
        tasks = []
        for task in snapshot.tasks:
            if task.state is not None and (node := self.nodes.get(task.name)) and node.subgraphs:
                sub = node.subgraphs[0]
                conf = task.state[CONF]
                ns = (
                    own_namespace(conf["checkpoint_ns"])
                    if sub.checkpointer is True
                    else conf["checkpoint_ns"]
                )
                saved = saver.get_tuple(
                    {CONF: {"thread_id": conf["thread_id"], "checkpoint_ns": ns}}
                )
                if saved is not None:
                    task = task._replace(
                        state=sub._with_subgraph_states(
                            sub._snapshot(saved, live=True, saver=saver), saver
                        )
                    )
            tasks.append(task)
        return snapshot._replace(tasks=tuple(tasks))

    async def aget_state(self, config: dict, *, subgraphs: bool = False) -> StateSnapshot:
        return self.get_state(config, subgraphs=subgraphs)

    def get_state_history(
        self,
        config: dict,
        *,
        filter: dict | None = None,
        before: dict | None = None,
        limit: int | None = None,
    ) -> Iterator[StateSnapshot]:
        config = text_thread_id(config)
        saver = self._state_saver(config)
        if (found := self._subgraph_for(config, saver)) is not None:
            graph, sub_config = found
            yield from graph.get_state_history(
                sub_config, filter=filter, before=before, limit=limit
            )
            return
        conf = {  # a checkpoint_id lists that checkpoint alone, as langgraph's savers do
            k: v
            for k, v in config.get(CONF, {}).items()
            if k in ("thread_id", "checkpoint_ns", "checkpoint_id")
        }
        conf.setdefault(CONFIG_KEY_CHECKPOINT_NS, "")
        planners: dict[str, TaskPlanner] = {}
        for saved in saver.list({CONF: conf}, filter=filter, before=before, limit=limit):
            yield self._snapshot(saved, live=False, saver=saver, planners=planners)

    async def aget_state_history(self, config: dict, **kwargs: Any):
        for snapshot in self.get_state_history(config, **kwargs):
            yield snapshot

    def update_state(
        self, config: dict, values: Any, as_node: str | None = None, task_id: str | None = None
    ) -> dict:
        """Write `values` as if node `as_node` returned them; returns the new checkpoint's config."""
        return self.bulk_update_state(config, [[StateUpdate(values, as_node, task_id)]])

    async def aupdate_state(
        self, config: dict, values: Any, as_node: str | None = None, task_id: str | None = None
    ) -> dict:
        return await self.abulk_update_state(config, [[StateUpdate(values, as_node, task_id)]])

    def bulk_update_state(self, config: dict, supersteps: Sequence[Sequence[Any]]) -> dict:
        """Apply each superstep's updates together, one checkpoint per superstep.

        An update is `StateUpdate(values, as_node, task_id)` (or a tuple of it). Special nodes:
        `as_node=END` with no values ends the pending tasks, `"__input__"` applies values as
        graph input, `"__copy__"` forks the checkpoint (then applies `values`, a list of
        (values, as_node) updates, if given). Returns the config of the last checkpoint.
        """
        config = text_thread_id(config)
        saver = self._state_saver(config)
        if len(supersteps) == 0:
            raise ValueError("No supersteps provided")
        if any(len(updates) == 0 for updates in supersteps):
            raise ValueError("No updates provided")
        if (found := self._subgraph_for(config, saver, for_update=True)) is not None:
            graph, sub_config = found
            return graph.bulk_update_state(sub_config, supersteps)
        for i, updates in enumerate(supersteps):
            config = self._update_superstep(
                saver, config, [_as_update(u) for u in updates], first=i == 0
            )
        return config

    async def abulk_update_state(self, config: dict, supersteps: Sequence[Sequence[Any]]) -> dict:
        """bulk_update_state off the event loop; the nodes' writers that have an async side (a
        router under the async API) run it, awaited on this loop."""
        token = _UPDATE_LOOP.set(asyncio.get_running_loop())
        try:
            return await asyncio.to_thread(self.bulk_update_state, config, supersteps)
        finally:
            _UPDATE_LOOP.reset(token)

    def _update_superstep(
        self, saver: Any, config: dict, updates: list[StateUpdate], first: bool = False
    ) -> dict:
        conf = {**config.get(CONF, {})}
        conf.setdefault(CONFIG_KEY_CHECKPOINT_NS, "")
        saved = saver.get_tuple({**config, CONF: conf})
        base = _UpdateBase(self, saver, saved, conf, first)
        values, as_node = updates[0].values, updates[0].as_node
        if values is None and as_node == END:
            _alone(updates, "Cannot apply multiple updates when clearing state")
            return base.end_pending_tasks()
        if as_node == INPUT:
            _alone(updates, "Cannot apply multiple updates when updating as input")
            return base.as_input(values)
        if as_node == COPY:
            _alone(updates, "Cannot copy checkpoint with multiple updates")
            forked = base.fork()
            if isinstance(values, list) and values:
                for item in values:
                    if not isinstance(item, Sequence):
                        raise InvalidUpdateError(
                            f"Invalid update item: {item} when copying checkpoint"
                        )
                return self._update_superstep(
                    saver, forked, [StateUpdate(*item[:2]) for item in values]
                )
            return forked
        if len(updates) == 1:
            node = as_node if as_node is not None else self._default_as_node(base.checkpoint)
            updates = [StateUpdate(values, node, updates[0].task_id)]
        elif any(u.as_node is None for u in updates):
            raise InvalidUpdateError("as_node is required when applying multiple updates")
        for update in updates:
            if update.as_node not in self.nodes and update.as_node != END:
                raise InvalidUpdateError(f"Node {update.as_node} does not exist")
        return base.as_nodes(updates)

    def _default_as_node(self, checkpoint: dict) -> str:
        """The node an update without `as_node` is written as: the one that updated the state
        last (by the channel versions it saw); on a fresh thread, the input node."""
        if len(self.nodes) == 1:
            return next(iter(self.nodes))
        seen = checkpoint["versions_seen"]
        if not any(v for versions in seen.values() for v in versions.values()):
            if isinstance(self.input_channels, str) and self.input_channels in self.nodes:
                return self.input_channels
            raise InvalidUpdateError("Ambiguous update, specify as_node")
        last = sorted(
            (v, n) for n, versions in seen.items() if n in self.nodes for v in versions.values()
        )
        # two nodes that updated the state in the same superstep: ambiguous
        if len(last) == 1 or (last and last[-1][0] != last[-2][0]):
            return last[-1][1]
        raise InvalidUpdateError("Ambiguous update, specify as_node")


_UPDATE_LOOP: ContextVar[asyncio.AbstractEventLoop | None] = ContextVar(
    "superstep_update_loop", default=None
)
"""The event loop an async update_state waits on, from the thread that applies it."""


def _writer_writes(writer: Any, values: Any, task: Any) -> list:
    loop = _UPDATE_LOOP.get()
    if loop is not None and (awrites := getattr(writer, "aget_writes", None)) is not None:
        return asyncio.run_coroutine_threadsafe(awrites(values, task), loop).result()
    return writer.get_writes(values, task)


COPY = "__copy__"
"""update_state's as_node that forks the checkpoint instead of writing to it."""


def _as_update(update: Any) -> StateUpdate:
    values, as_node, task_id = update  # a plain tuple needs all three, as in langgraph
    return StateUpdate(values, as_node, task_id)


def _alone(updates: list, message: str) -> None:
    if len(updates) > 1:
        raise InvalidUpdateError(message)


class _UpdateBase:
    """The checkpoint an update superstep starts from, and the ways to write the next one."""

    def __init__(
        self, graph: Any, saver: Any, saved: CheckpointTuple | None, conf: dict, first: bool
    ) -> None:
        self.graph, self.saver, self.saved, self.first = graph, saver, saved, first
        # delta channels the new checkpoint stores whole: the saved checkpoint's writes to them
        # fed another child (asked of a bulk update's first superstep only: the later ones
        # build on checkpoints it made), an Overwrite, or writes that could not be kept
        self.whole: set[str] = (
            pending_delta_channels(graph.channels, saved.pending_writes)
            if saved is not None and first
            else set()
        )
        self.checkpoint = copy_checkpoint(saved.checkpoint) if saved else empty_checkpoint()
        graph._migrate_checkpoint(self.checkpoint)  # one saved by an older langgraph
        self.step = saved.metadata.get("step", -1) if saved else -1
        self.channels = graph._channels_of(self.checkpoint, saver, saved.config if saved else None)
        self.config = (
            {
                **saved.config,
                CONF: {
                    **saved.config[CONF],
                    **conf,
                    "checkpoint_id": saved.config[CONF]["checkpoint_id"],
                },
            }
            if saved
            else {CONF: conf}
        )
        self.parents = saved.metadata.get("parents", {}) if saved else {}

    def _apply(self, tasks: list) -> set[str]:
        self.whole |= overwritten_delta_channels(
            self.graph.channels, (w for t in tasks for w in t.writes)
        )
        return apply_writes(
            self.checkpoint,
            self.channels,
            tasks,
            self.saver.get_next_version,
            self.graph.trigger_to_nodes,
        )

    def _put(
        self, source: str, step: int, updated: set[str], checkpoint_step: int | None = None
    ) -> dict:
        metadata = {"source": source, "step": step, "parents": self.parents}
        previous = self.saved.checkpoint["channel_versions"] if self.saved else {}
        snapshot: set[str] = set()
        if names := delta_names(self.graph.channels):
            snapshot, counters = update_plan(
                self.channels,
                names,
                self.saved.metadata if self.saved else None,
                updated,
                self.checkpoint["channel_versions"],
                self.whole,
            )
            set_counters(metadata, counters)
            # a channel stored whole that this update did not write needs a version of its
            # own, or the put would not store it
            bump_snapshots(self.checkpoint, snapshot, previous, self.saver.get_next_version)
        new = create_checkpoint(
            self.checkpoint,
            self.channels,
            step if checkpoint_step is None else checkpoint_step,
            channels_to_snapshot=snapshot,
        )
        new_versions = {k: v for k, v in new["channel_versions"].items() if previous.get(k) != v}
        saved_config = self.saver.put(self.config, new, metadata, new_versions)
        # a subgraph's new checkpoint names its ancestors', so running from it finds them
        return _with_checkpoint_map(_public(saved_config), {"parents": self.parents})

    def as_nodes(self, updates: list[StateUpdate]) -> dict:
        """Each update written as its node's output, all applied at one barrier; the writes are
        kept on the checkpoint updated, under the task ids its next step planned, so the history
        shows them as those tasks' results."""
        graph, tasks, kept = self.graph, [], []
        planned: dict[str, list[str]] = {}
        if self.saved is not None and self.saved.pending_writes is not None:
            for task in self._planned_tasks().values():
                planned.setdefault(task.name, []).append(task.id)
        for i, update in enumerate(updates):
            writes: list = []
            if update.as_node != END:
                stand_in = _UpdateTask(update.as_node, update.values, writes, self.channels,
                                       graph.managed, self.config, self.step)  # fmt: skip
                for writer in graph.nodes[update.as_node].writers:
                    writes.extend(_writer_writes(writer, update.values, stand_in))
                ensure_message_ids(graph.channels, writes)  # as the loop's writes
            ids = planned.get(update.as_node)
            task_id = update.task_id or (ids.pop(0) if ids else self._update_task_id(i))
            # as langgraph's: the i-th update's path, which savers order its writes by
            task = WritesOnly(update.as_node, writes, triggers=(INTERRUPT,), path=(INTERRUPT, i))
            tasks.append(task)
            kept.append((task_id, writes, task.path))
        self._keep_writes(kept)
        self._apply(tasks)
        written = {c for t in tasks for c, _ in t.writes if c != PUSH}
        return self._put("update", self.step + 1, written)

    def _update_task_id(self, i: int) -> str:
        """The id of the i-th update of a superstep with no planned task to take it (distinct
        ids: a saver keeps one write per task and index)."""
        suffix = INTERRUPT if i == 0 else f"{INTERRUPT}:{i}"
        return str(uuid5(UUID(self.checkpoint["id"]), suffix))

    def _keep_writes(self, writes: list[tuple[str, list, tuple]]) -> None:
        """Save the writes on the checkpoint updated, unless the thread moved past it (its
        other children must not see them); each (task id, writes, task path: the input's is
        empty) given its path's text when the saver takes one."""
        if self.saved is None:
            return
        if self.first and self._superseded():
            mine = [(tid, c, v) for tid, ws, _ in writes for c, v in ws]
            self.whole |= pending_delta_channels(self.graph.channels, mine)
            return
        with_path = takes_task_path(self.saver)
        for task_id, task_writes, path in writes:
            if kept := [w for w in task_writes if w[0] != PUSH]:
                if with_path and path:
                    self.saver.put_writes(self.saved.config, kept, task_id, path_text(path))
                else:
                    self.saver.put_writes(self.saved.config, kept, task_id)

    def _superseded(self) -> bool:
        return superseded(self.saver, self.saved.config, self.saved)

    def _planned_tasks(self) -> dict:
        """The tasks the updated checkpoint's next step would run (records only)."""
        planner = TaskPlanner(
            nodes=self.graph.nodes,
            managed=self.graph.managed,
            config={**self.saved.config, CONF: dict(self.saved.config[CONF])},
            parent_ns=self.config[CONF][CONFIG_KEY_CHECKPOINT_NS],
            runtime=DEFAULT_RUNTIME,
        )
        return prepare_next_tasks(
            self.checkpoint,
            list(self.saved.pending_writes or []),
            planner,
            self.channels,
            self.step + 1,
            self.step + 3,
            for_execution=False,
        )

    def end_pending_tasks(self) -> dict:
        """What the pending tasks already wrote is applied and the rest will not run."""
        updated: set[str] = set()
        if self.saved is not None:
            pending = list(self.saved.pending_writes or [])
            tasks = self._planned_tasks()
            if null_writes := [(c, v) for tid, c, v in pending if tid == NULL_TASK_ID]:
                updated |= self._apply([WritesOnly(INPUT, null_writes)])
            for tid, status in task_statuses(pending).items():
                if tid in tasks:
                    tasks[tid].writes.extend(status.output)
            updated |= self._apply(list(tasks.values()))
        return self._put("update", self.step + 1, updated, checkpoint_step=self.step)

    def as_input(self, values: Any) -> dict:
        writes = list(map_input(self.graph.input_channels, values))
        if not writes:
            raise InvalidUpdateError(f"Received no input writes for {self.graph.input_channels}")
        ensure_message_ids(self.graph.channels, writes)
        if self.saved is not None:
            self._keep_writes([(str(uuid5(UUID(self.saved.checkpoint["id"]), INPUT)), writes, ())])
        updated = self._apply([WritesOnly(INPUT, writes)])
        step = self.step + 1 if self.saved and self.saved.metadata.get("step") is not None else -1
        return self._put("input", step, updated)

    def fork(self) -> dict:
        """A copy of the checkpoint (same values, same parent) that a new branch grows from."""
        if self.saved is None:
            raise InvalidUpdateError("Cannot copy a non-existent checkpoint")
        copy = create_checkpoint(self.checkpoint, None, self.step)
        parent = self.saved.parent_config or {
            CONF: {k: v for k, v in self.config[CONF].items() if k != CONFIG_KEY_CHECKPOINT_ID}
        }
        metadata = {"source": "fork", "step": self.step + 1, "parents": self.parents}
        # the copy has the same values and parent, so as many updates since a snapshot
        if counters := self.saved.metadata.get(COUNTERS):
            metadata[COUNTERS] = counters
        return _public(self.saver.put(parent, copy, metadata, {}))


class _UpdateTask:
    """The task an update_state stands in for: routers after `as_node` read the state as that
    node would see it after returning `values` (the snapshot plus the writes so far)."""

    def __init__(
        self,
        name: str,
        values: Any,
        writes: list,
        channels: dict,
        managed: Any,
        config: dict,
        step: int,
    ):
        from engine._constants import CONFIG_KEY_READ
        from engine.pregel.algo import local_read
        from engine.pregel.scratchpad import Scratchpad

        # a router reading a managed value (RemainingSteps, IsLastStep) sees the step of the
        # checkpoint updated and two steps left, as langgraph's update_state shows it
        scratchpad = Scratchpad(step, step + 2, [], lambda _consume=False: None, "", writes.extend)
        self.name = name
        self.input = values
        self.writes = writes
        self.config = {
            **config,
            CONF: {
                **config.get(CONF, {}),
                CONFIG_KEY_READ: lambda select, fresh=False: local_read(
                    channels, managed, scratchpad, select, writes if fresh else None
                ),
            },
        }


def text_thread_id(config: dict) -> dict:
    """The config with a thread id that is not a string as its string, as langgraph stores
    and reads threads (a thread run with `1` is read back with `"1"`); else the config itself."""
    conf = config.get(CONF) or {}
    if not (thread_id := conf.get(CONFIG_KEY_THREAD_ID)) or isinstance(thread_id, str):
        return config
    return {**config, CONF: {**conf, CONFIG_KEY_THREAD_ID: str(thread_id)}}


def own_namespace(ns: str) -> str:
    """Where a checkpointer=True subgraph keeps its one history per thread: its namespace
    without task ids (nor the `|N` of a task's later graphs), so every call of it in the thread
    continues the same history."""
    return NS_SEP.join(part.split(NS_END)[0] for part in ns.split(NS_SEP) if not part.isdigit())


def _with_checkpoint_map(config: dict | None, metadata: dict | None) -> dict | None:
    """A subgraph checkpoint's config names its ancestors' checkpoints (and its own) by namespace."""
    parents = (metadata or {}).get("parents")
    if config is None or not parents:
        return config
    conf = config[CONF]
    return {
        CONF: {**conf, "checkpoint_map": {**parents, conf["checkpoint_ns"]: conf["checkpoint_id"]}}
    }


_PUBLIC_KEYS = ("thread_id", "checkpoint_ns", "checkpoint_id")


def _public(config: dict | None) -> dict | None:
    if config is None:
        return None
    conf = config.get(CONF, {})
    if tuple(conf) == _PUBLIC_KEYS:  # a saver's own config (twice per snapshot): copied whole
        return {CONF: {**conf}}
    return {CONF: {k: conf[k] for k in _PUBLIC_KEYS if k in conf}}


__all__ = ["StateAccess", "NS_END", "NS_SEP", "ERROR"]
