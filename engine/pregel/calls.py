"""Functional-API calls inside a run: the task a `@task` call becomes (a PUSH task of the
caller's step, whose id depends on the caller and the call's place, so a rerun of the caller
finds its saved result) and how the loop accepts one (PregelLoop mixes in LoopCalls)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xxhash import xxh3_128_hexdigest

from engine._constants import (
    CACHE_NS_WRITES,
    CONF,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_SCRATCHPAD,
    CONFIG_KEY_TASK_ID,
    ERROR,
    INTERRUPT,
    NS_SEP,
    PUSH,
    RETURN,
)
from engine.channels.base import BaseChannel
from engine.checkpoint.base import Checkpoint, PendingWrite
from engine.pregel.algo import (
    PUSH_TRIGGER,
    PregelExecutableTask,
    StepContext,
    TaskPlanner,
    TaskSite,
    _graph_ns,
    _planned,
)
from engine.pregel.call import Call, CallFuture, done_future
from engine.pregel.callable import CallRunnable
from engine.pregel.debug import task_payload
from engine.pregel.read import PregelNode
from engine.pregel.task_ids import legacy_task_id, task_path_str
from engine.types import CacheKey


def call_task(
    call: Any,
    parent: PregelExecutableTask,
    idx: int,
    checkpoint: Checkpoint,
    pending_writes: Sequence[PendingWrite],
    planner: TaskPlanner,
    channels: Mapping[str, BaseChannel],
    step: int,
    stop: int,
) -> PregelExecutableTask:
    """The task for the `idx`-th functional-API call `parent` made: a PUSH task whose id
    depends on the parent and the call's place, so a rerun of the parent finds its writes."""
    from engine.pregel.write import ChannelWrite, ChannelWriteEntry

    proc = PregelNode(
        channels=[],
        triggers=PUSH_TRIGGER,
        bound=CallRunnable(call),
        writers=[ChannelWrite([ChannelWriteEntry(RETURN)])],
        retry_policy=call.retry_policy or None,
    )
    ctx = StepContext(checkpoint, pending_writes, planner, channels, step, stop)
    # under the caller's namespace, as langgraph plans a call from its caller's config
    checkpoint_ns = f"{parent.config[CONF][CONFIG_KEY_CHECKPOINT_NS]}{NS_SEP}{call.name}"
    place = (str(step), call.name, PUSH)
    # what earlier engine versions hashed: the graph's namespace, the caller's id
    legacy = (_graph_ns(planner, call.name), *place, parent.id, str(idx))
    tid = ctx.task_id(checkpoint_ns, *place, task_path_str(parent.path), str(idx), legacy=legacy)
    if pending_writes and tid == legacy_task_id(checkpoint["id"], *legacy):
        checkpoint_ns = legacy[0]  # a call saved by such a version keeps its namespace
    # the last path element True marks a call (langgraph's convention)
    site = TaskSite(call.name, tid, (PUSH, parent.path, idx, True), PUSH_TRIGGER, checkpoint_ns)
    task = _planned(ctx, site, proc, call.input, for_execution=True)
    task.cache_key = None
    task.timeout = call.timeout
    if (policy := call.cache_policy) is not None:
        key = policy.key_func(*call.args, **call.kwargs)
        key = key.encode() if isinstance(key, str) else key
        task.cache_key = CacheKey(call_cache_ns(call.func), xxh3_128_hexdigest(key), policy.ttl)
    return task


def call_cache_ns(func: Any) -> tuple[str, str]:
    """The cache namespace of a task function's results (what `task.clear_cache` clears)."""
    module = getattr(func, "__module__", None)
    qualname = getattr(func, "__qualname__", None)
    return (CACHE_NS_WRITES, f"{module}.{qualname}" if module and qualname else "__dynamic__")


def is_call(task: Any) -> bool:
    return bool(task.path) and task.path[-1] is True


def call_result(writes: Sequence[tuple[str, Any]]) -> Any:
    """What a finished call returned (None when it wrote nothing)."""
    return next((v for c, v in writes if c == RETURN), None)


class LoopCalls:
    """PregelLoop's side of functional-API calls; the loop's state (tasks, calls...) is its own."""

    def accept_call(self, config: dict, call: Call) -> CallFuture:
        """Plan a `@task` call made by a running task and start it; a call that finished in an
        earlier attempt of this step (before an interrupt or a crash) returns its saved result."""
        conf = config[CONF]
        parent = self.tasks.get(conf[CONFIG_KEY_TASK_ID]) or self.calls[conf[CONFIG_KEY_TASK_ID]]
        idx = next(conf[CONFIG_KEY_SCRATCHPAD].call_counter)
        task = call_task(
            call,
            parent,
            idx,
            self.checkpoint,
            self.checkpoint_pending_writes,
            self.planner,
            self.channels,
            self.step,
            self.stop,
        )
        task.caller_callbacks = config.get("callbacks")  # its run is a child of the caller's
        self.calls[task.id] = task
        # every call is announced, as langgraph does, also one answered below from the writes
        # an earlier attempt saved or from the cache
        if "tasks" in self._wanted and not task.hidden:
            self.emit("tasks", task_payload(task))
        saved = [(c, v) for tid, c, v in self.checkpoint_pending_writes if tid == task.id]
        if saved and not self._replaying and not any(c in (ERROR, INTERRUPT) for c, _ in saved):
            task.writes.extend(saved)
            return done_future(call_result(saved))
        if self._cached(task):
            return done_future(call_result(task.writes))
        return self.submit_call(task, parent)


__all__ = ["LoopCalls", "call_cache_ns", "call_result", "call_task", "is_call"]
