"""Run one task: bind its config to the context, call the node, run its writers, retry on failure."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from langchain_core.runnables.config import var_child_runnable_config

from engine._constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_OBSERVER,
    CONFIG_KEY_RESUMING,
    CONFIG_KEY_RUNTIME,
    CONFIG_KEY_SCRATCHPAD,
    CONFIG_KEY_TASK_HOOK,
    NS_SEP,
)
from engine.errors import GraphBubbleUp, NodeCancelledError, ParentCommand
from engine.pregel import trace
from engine.pregel.attempt_observer import start_attempt
from engine.pregel.messages import CONFIG_KEY_MESSAGES
from engine.pregel.state import own_namespace
from engine.pregel.timeouts import run_timed, sync_timeout_unsupported
from engine.pregel.tracing import CONFIG_KEY_GRAPH_RUN, anode_run, node_run, untraced_config
from engine.types import Command, RetryPolicy


def _matches(policy: RetryPolicy, exc: Exception) -> bool:
    retry_on = policy.retry_on
    if isinstance(retry_on, Sequence):
        return isinstance(exc, tuple(retry_on))
    if isinstance(retry_on, type) and issubclass(retry_on, BaseException):
        return isinstance(exc, retry_on)
    if callable(retry_on):
        return bool(retry_on(exc))
    raise TypeError("retry_on must be an Exception class, a list or tuple of them, or a callable")


def _write_outputs(task: Any, output: Any) -> None:
    for writer in task.writers:
        task.writes.extend(writer.get_writes(output, task))


def _handle_parent_command(task: Any, exc: ParentCommand) -> bool:
    """True if the command targets this task's graph (then it is applied as the task's output)."""
    ns: str = task.config[CONF][CONFIG_KEY_CHECKPOINT_NS]
    cmd: Command = exc.args[0]
    # a checkpointer=True graph names itself without task ids
    if cmd.graph in (ns, own_namespace(ns), task.name):
        _write_outputs(task, replace(cmd, graph=None))
        return True
    if cmd.graph == Command.PARENT:
        exc.args = (replace(cmd, graph=_parent_namespace(ns)),)
    return False


def _parent_namespace(ns: str) -> str:
    """The namespace of the graph running the task at `ns`: its own segment dropped, and the
    numeric segments (`|1`: a task's second graph) around it, which are not levels."""
    parts = ns.split(NS_SEP)
    while parts and parts[-1].isdigit():
        parts.pop()
    if parts:
        parts.pop()
    while parts and parts[-1].isdigit():
        parts.pop()
    return NS_SEP.join(parts)


def _interval(policy: RetryPolicy, attempts: int) -> float:
    interval = min(
        policy.max_interval, policy.initial_interval * policy.backoff_factor ** (attempts - 1)
    )
    return interval + random.uniform(0, 1) if policy.jitter else interval


def _next_attempt(task: Any, failed_attempts: int) -> None:
    """Ready the task's config for its next attempt: the runtime tells the node which execution
    comes next (1-indexed), and the attempt resumes."""
    conf = task.config[CONF]
    runtime = conf.get(CONFIG_KEY_RUNTIME)
    info = getattr(runtime, "execution_info", None)
    if info is not None:
        conf[CONFIG_KEY_RUNTIME] = runtime.for_task(info.patch(node_attempt=failed_attempts + 1))
    # as langgraph, a retry resumes: a checkpointed graph the node runs picks up the checkpoint
    # its namespace holds instead of taking the input anew, and the node's interrupt() calls
    # count from the first again, so they get the answers the task already has
    conf[CONFIG_KEY_RESUMING] = True
    if (scratchpad := conf.get(CONFIG_KEY_SCRATCHPAD)) is not None:
        scratchpad.restart_interrupts()


class TaskHook(Protocol):
    """A debugger's view of each task (CONFIG_KEY_TASK_HOOK): it may wait in `before` and
    `after` (the run pauses there), edit `task.input`, and answer `failed` with True to run the
    task again (its retry policy spent, or none)."""

    def before(self, task: Any) -> None: ...

    def after(self, task: Any) -> None: ...

    def failed(self, task: Any, error: Exception) -> bool: ...


def _hook(task: Any) -> TaskHook | None:
    return task.config[CONF].get(CONFIG_KEY_TASK_HOOK)


def _retry_policy_for(policies: Sequence[RetryPolicy], exc: Exception) -> RetryPolicy | None:
    return next((p for p in policies if _matches(p, exc)), None)


def run_with_retry(task: Any) -> None:
    """Run `task` to completion (filling task.writes), retrying per its policies."""
    if task.timeout is not None:  # a timed node cannot run on the sync API
        raise sync_timeout_unsupported(task.name)
    attempts = 0
    conf = task.config[CONF]
    hook = conf.get(CONFIG_KEY_TASK_HOOK)  # (_hook, inline: every task)
    # no handler listens (a graph run only when one does): no run to start, enter or end
    untraced = conf.get(CONFIG_KEY_GRAPH_RUN) is None
    if untraced:
        task.config = untraced_config(task.config)
    token, messages = _bind(task)  # not `with _running`: this runs for every task
    try:
        if hook is not None:
            hook.before(task)
        while True:
            try:
                if untraced:
                    _finish(task, task.proc.bound.invoke(task.input, task.config), messages)
                else:
                    run = node_run(task)
                    with run:
                        run.output = task.proc.bound.invoke(task.input, run.config)
                        _finish(task, run.output, messages, run)
                if hook is not None:
                    hook.after(task)
                return
            except ParentCommand as exc:
                if _handle_parent_command(task, exc):
                    return
                raise
            except GraphBubbleUp:
                raise
            except asyncio.CancelledError as exc:  # a sync node has no loop: its own raise
                raise NodeCancelledError(task.name) from exc
            except Exception as exc:
                attempts += 1
                if (delay := _retry_delay(task, exc, attempts)) is None:
                    if _again(hook, task, exc):
                        attempts = 0
                        continue
                    raise
                time.sleep(delay)
    finally:
        var_child_runnable_config.reset(token)


async def arun_with_retry(task: Any) -> None:
    """The async twin of run_with_retry: awaits async nodes, runs sync ones inline."""
    attempts = 0
    hook = _hook(task)
    if task.config[CONF].get(CONFIG_KEY_GRAPH_RUN) is None:
        task.config = untraced_config(task.config)
    with _running(task) as messages:
        if hook is not None:
            hook.before(task)  # waits with the event loop held: the run is paused as a whole
        while True:
            # a timed attempt's observer hears it end before any backoff or error handler
            observed = None if task.timeout is None else start_attempt(task, task.config)
            try:
                async with anode_run(task) as run:
                    if run.manager is None:
                        await _attempt(task, run, messages, observed)
                    else:  # as langgraph's node sequence: the node in a task of its own
                        await asyncio.create_task(_attempt(task, run, messages, observed))
                if observed is not None:
                    observed.finished()
                if hook is not None:
                    hook.after(task)
                return
            except ParentCommand as exc:
                try:
                    handled = _handle_parent_command(task, exc)
                except Exception as writer_exc:
                    if observed is not None:
                        observed.finished(writer_exc)
                    raise
                if observed is not None:
                    observed.finished()
                if handled:
                    return
                raise
            except GraphBubbleUp:
                if observed is not None:
                    observed.finished()
                raise
            except asyncio.CancelledError as exc:
                if observed is not None:
                    observed.finished(exc)
                # raised by the node's body (no cancel() pending on this task), not the engine
                current = asyncio.current_task()
                if current is not None and current.cancelling() == 0:
                    raise NodeCancelledError(task.name) from exc
                raise
            except Exception as exc:
                if observed is not None:
                    observed.finished(exc)
                attempts += 1
                if (delay := _retry_delay(task, exc, attempts)) is None:
                    if _again(hook, task, exc):
                        attempts = 0
                        continue
                    raise
                await asyncio.sleep(delay)


async def _attempt(task: Any, run: Any, messages: Any, observed: Any = None) -> None:
    """One attempt of a task under the async API: the node's output, its writes and, when a
    handler listens, its output as the run's stream (langgraph streams a node there)."""
    if task.timeout is None:
        run.output = await task.proc.bound.ainvoke(task.input, run.config)
    else:
        run.output = await run_timed(task, run.config, observed)
    await _afinish(task, run.output, messages, run)
    if run.manager is not None:
        run.stream_output()


class _running:
    """The task's config is the current config while it runs; entering gives its messages
    handler. A class, not a generator context manager: it is entered on every step."""

    __slots__ = ("task", "token")

    def __init__(self, task: Any) -> None:
        self.task = task

    def __enter__(self) -> Any:
        self.token, messages = _bind(self.task)
        return messages

    def __exit__(self, *exc_info: Any) -> None:
        var_child_runnable_config.reset(self.token)


def _bind(task: Any) -> tuple[Any, Any]:
    """Make the task's config the current one (the token resets it); tell its messages handler
    the node started. Returns (token, the handler or None)."""
    config = task.config
    token = var_child_runnable_config.set(config)
    messages = config[CONF].get(CONFIG_KEY_MESSAGES)
    if messages is not None:
        messages.node_started(task)
    return token, messages


def _finish(task: Any, output: Any, messages: Any, run: Any = None) -> None:
    if messages is not None:
        messages.node_finished(task, output)
    if run is None or run.manager is None:
        for writer in task.writers:  # _write_outputs, inline: once per task
            task.writes.extend(writer.get_writes(output, task))
        return
    # traced: routers run as child runs, numbered after the node in its sequence
    for step, writer in enumerate(task.writers, start=2):
        if hasattr(writer, "branch"):
            task.writes.extend(writer.get_writes(output, task, run, step))
        else:
            task.writes.extend(writer.get_writes(output, task))


async def _afinish(task: Any, output: Any, messages: Any, run: Any = None) -> None:
    """`_finish` under the async API: writers that can (routers) run their async side."""
    if messages is not None:
        messages.node_finished(task, output)
    for step, writer in enumerate(task.writers, start=2):
        if (awrites := getattr(writer, "aget_writes", None)) is not None:
            task.writes.extend(await awrites(output, task, run, step))
        else:
            task.writes.extend(writer.get_writes(output, task))


def _again(hook: TaskHook | None, task: Any, exc: Exception) -> bool:
    """The debugger asked to run the failed task again (its writes so far dropped)."""
    if hook is None or not hook.failed(task, exc):
        return False
    task.writes.clear()
    return True


def _retry_delay(task: Any, exc: Exception, attempts: int) -> float | None:
    """Seconds to wait before the next attempt, or None to give up (the error gets a note)."""
    policy = _retry_policy_for(task.retry_policy or (), exc)
    if policy is None or attempts >= policy.max_attempts:
        exc.add_note(f"During task with name '{task.name}' and id '{task.id}'")
        return None
    task.writes.clear()
    _next_attempt(task, attempts)
    delay = _interval(policy, attempts)
    _observe_retry(task, exc, attempts, delay)
    return delay


def _observe_retry(task: Any, exc: Exception, attempt: int, delay: float) -> None:
    """The trace's observer (the studio's run view) sees each failed attempt, under the
    namespace of the graph running the task."""
    conf = task.config[CONF]
    observer = conf.get(CONFIG_KEY_OBSERVER)
    if observer is not None:
        ns = tuple(conf[CONFIG_KEY_CHECKPOINT_NS].split(NS_SEP)[:-1])
        step = task.config.get("metadata", {}).get("langgraph_step", -1)
        observer(trace.TaskRetried(ns, step, task.id, task.name, attempt, exc, delay))
