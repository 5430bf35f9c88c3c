"""Node error handlers: a task that fails after its retries runs its node's handler instead.

The handler is a node of its own (`__error_handler__<node>`, or `__default_error_handler__` from
`set_node_defaults`). It runs in the same superstep, in place of the failed task: it reads the
failed task's input, gets `error: NodeError` injected, and its writes (a state update, a Command
with a goto) are applied at the barrier like any task's. The failed task keeps an ERROR write
plus an ERROR_SOURCE_NODE marker, so a run resumed from that step runs the handler, not the node.
"""

from __future__ import annotations

from typing import Any

from engine._constants import (
    CONF,
    CONFIG_KEY_NODE_ERROR,
    ERROR,
    ERROR_SOURCE_NODE,
    PUSH,
)
from engine.errors import GraphBubbleUp, NodeError
from engine.pregel.algo import PUSH_TRIGGER, StepContext, TaskSite, _graph_ns, _planned


def routes_to_handler(task: Any, error: BaseException) -> bool:
    """Whether `error` from `task` goes to an error handler rather than failing the run."""
    proc = task.proc
    return (
        proc.error_handler_node is not None
        and not proc.is_error_handler
        and isinstance(error, Exception)
        and not isinstance(error, GraphBubbleUp)
    )


def handler_task(loop: Any, failed: Any, error: BaseException) -> Any:
    """Plan the handler task for `failed` and add it to the loop's step; None if it has none."""
    name = failed.proc.error_handler_node
    proc = loop.graph.nodes.get(name)
    if proc is None:
        return None
    ctx = StepContext(
        loop.checkpoint,
        loop.checkpoint_pending_writes,
        loop.planner,
        loop.channels,
        loop.step,
        loop.stop,
    )
    ns = _graph_ns(loop.planner, name)
    tid = ctx.task_id(ns, str(loop.step), name, PUSH, "node_error_handler", failed.id)
    site = TaskSite(name, tid, (*failed.path[:3], "node_error_handler", False), PUSH_TRIGGER, ns)
    task = _planned(ctx, site, proc, failed.input, for_execution=True)
    task.config[CONF][CONFIG_KEY_NODE_ERROR] = NodeError(node=failed.name, error=error)
    loop.tasks[tid] = task
    return task


def resume_handlers(loop: Any) -> None:
    """A step resumed after a task failed into its handler: the task stays failed (it has
    writes, so it does not run again) and its handler is planned anew."""
    errors: dict[str, BaseException] = {}
    routed: set[str] = set()
    for tid, chan, value in loop.checkpoint_pending_writes:
        if chan == ERROR:
            errors[tid] = value
        elif chan == ERROR_SOURCE_NODE:
            routed.add(tid)
    for tid in routed:
        task = loop.tasks.get(tid)
        if task is None or tid not in errors or task.proc.error_handler_node is None:
            continue
        if any(c == ERROR for c, _ in task.writes):
            continue
        task.writes.append((ERROR, errors[tid]))
        # as langgraph: the handler runs again (with the saved error, as the saver decoded it)
        handler_task(loop, task, errors[tid])
