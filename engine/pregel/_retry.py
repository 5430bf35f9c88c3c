"""langgraph.pregel._retry: the retry helpers at langgraph's private path, for code that calls
them by that name (a server's executor, langgraph's own tests).

langgraph's task differs from ours: its `proc` runs the node and its writers in one call and
returns the node's output, and `writers` are kept only to apply a Command a node raised for its
own graph. `run_with_retry` / `arun_with_retry` take such a task and run it through the engine's
runner (engine.pregel.retry): `_LanggraphTask` presents it as one of ours.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from engine._constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_RUNTIME,
    CONFIG_KEY_TASK_ID,
    CONFIG_KEY_THREAD_ID,
    RETURN,
)
from engine.pregel import retry
from engine.pregel.attempt_observer import AttemptContext as _AttemptContext
from engine.pregel.attempt_observer import AttemptEvent as _AttemptEvent
from engine.pregel.retry import _matches as _should_retry_on
from engine.pregel.retry import _parent_namespace as _checkpoint_ns_for_parent_command
from engine.pregel.timeouts import TimedAttemptScope as _TimedAttemptScope
from engine.runtime import ExecutionInfo, Runtime
from engine.types import RetryPolicy


def _ensure_execution_info(runtime: Runtime, config: dict, task: Any) -> Runtime:
    """`runtime`, given the execution info its task's config describes when it has none (a
    task prepared elsewhere, e.g. by a server, arrives without it)."""
    if runtime.execution_info is not None:
        return runtime
    conf = config.get(CONF, {})
    run_id = config.get("run_id")
    return runtime.override(
        execution_info=ExecutionInfo(
            checkpoint_id=conf.get(CONFIG_KEY_CHECKPOINT_ID) or "",
            checkpoint_ns=conf.get(CONFIG_KEY_CHECKPOINT_NS) or "",
            task_id=conf.get(CONFIG_KEY_TASK_ID) or task.id,
            thread_id=conf.get(CONFIG_KEY_THREAD_ID),
            run_id=str(run_id) if run_id else None,
        )
    )


def run_with_retry(
    task: Any, retry_policy: Sequence[RetryPolicy] | None, configurable: dict | None = None
) -> Any:
    """Run langgraph-shaped `task` (its own retry policy first, else `retry_policy`); the
    node's output is returned, its writes are in task.writes."""
    adapted = _LanggraphTask(task, retry_policy, configurable, stream=False)
    retry.run_with_retry(adapted)
    return adapted.result


async def arun_with_retry(
    task: Any,
    retry_policy: Sequence[RetryPolicy] | None,
    stream: bool = False,
    configurable: dict | None = None,
) -> Any:
    """run_with_retry's async twin, under the task's timeout. With `stream` the proc is
    drained through `astream` (each chunk is progress) and the task's RETURN write returned."""
    adapted = _LanggraphTask(task, retry_policy, configurable, stream=stream)
    await retry.arun_with_retry(adapted)
    return adapted.result


class _LanggraphTask:
    """A langgraph task as the engine's runner takes one: the config copied (the runner
    updates its runtime per attempt), the proc behind `proc.bound`, and a writer that only
    applies a raised Command (langgraph's proc applies its writers itself)."""

    __slots__ = (
        "config",
        "id",
        "input",
        "name",
        "proc",
        "ran",
        "result",
        "retry_policy",
        "timeout",
        "writers",
        "writes",
    )

    def __init__(
        self, task: Any, retry_policy: Any, configurable: dict | None, *, stream: bool
    ) -> None:
        self.name, self.id, self.input = task.name, task.id, task.input
        self.writes = task.writes
        self.timeout = task.timeout
        self.retry_policy = task.retry_policy or retry_policy or ()
        self.config = _attempt_config(task, configurable)
        self.proc = _Proc(self, task.proc, stream)
        self.writers = [_CommandWriter(task.writers)]
        self.ran = False
        self.result = None


def _attempt_config(task: Any, configurable: dict | None) -> dict:
    conf = {**task.config.get(CONF, {}), **(configurable or {})}
    config = {**task.config, CONF: conf}
    runtime = conf.get(CONFIG_KEY_RUNTIME)
    if isinstance(runtime, Runtime):
        runtime = _ensure_execution_info(runtime, config, task)
        conf[CONFIG_KEY_RUNTIME] = runtime.patch_execution_info(
            node_attempt=1, node_first_attempt_time=time.time()
        )
    return config


class _Proc:
    """`bound`: what the runner calls, each call one attempt of the langgraph proc."""

    __slots__ = ("bound", "task")

    def __init__(self, task: _LanggraphTask, proc: Any, stream: bool) -> None:
        self.task = task
        self.bound = (_Streamed if stream else _Called)(task, proc)


class _Called:
    __slots__ = ("proc", "task")

    def __init__(self, task: _LanggraphTask, proc: Any) -> None:
        self.task, self.proc = task, proc

    def invoke(self, input: Any, config: dict) -> Any:
        self.task.ran = False
        self.task.result = result = self.proc.invoke(input, config)
        self.task.ran = True
        return result

    async def ainvoke(self, input: Any, config: dict) -> Any:
        self.task.ran = False
        self.task.result = result = await self.proc.ainvoke(input, config)
        self.task.ran = True
        return result


class _Streamed(_Called):
    """The proc drained through astream; its result is the RETURN value it wrote."""

    __slots__ = ()

    async def ainvoke(self, input: Any, config: dict) -> Any:
        task = self.task
        task.ran = False
        # a chunk is progress unless only heartbeats count: the timed scope's heartbeat
        timeout = task.timeout
        runtime = config[CONF].get(CONFIG_KEY_RUNTIME)
        beat = (
            runtime.heartbeat
            if timeout is not None and timeout.refresh_on == "auto" and runtime is not None
            else None
        )
        async for _ in self.proc.astream(input, config):
            if beat is not None:
                beat()
        task.result = next((value for channel, value in task.writes if channel == RETURN), None)
        task.ran = True
        return task.result


class _CommandWriter:
    """Applies a Command raised for the task's own graph through langgraph's writers; after
    an attempt that ran to the end it has nothing to do (the proc wrote already)."""

    __slots__ = ("writers",)

    def __init__(self, writers: Sequence[Any]) -> None:
        self.writers = writers

    def get_writes(self, output: Any, task: _LanggraphTask) -> list:
        if not task.ran:
            for writer in self.writers:
                writer.invoke(output, task.config)
        return []


__all__ = [
    "_AttemptContext",
    "_AttemptEvent",
    "_TimedAttemptScope",
    "_checkpoint_ns_for_parent_command",
    "_ensure_execution_info",
    "_should_retry_on",
    "arun_with_retry",
    "run_with_retry",
]
