"""langgraph.pregel._retry: the retry helpers at langgraph's private path, for code that calls
them by that name. The engine's task runner is engine.pregel.retry; its task objects differ
from langgraph's, so langgraph's `run_with_retry(task, retry_policy)` entry points are not
offered here."""

from __future__ import annotations

from typing import Any

from engine._constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_TASK_ID,
    CONFIG_KEY_THREAD_ID,
)
from engine.pregel.retry import _matches as _should_retry_on
from engine.pregel.retry import _parent_namespace as _checkpoint_ns_for_parent_command
from engine.runtime import ExecutionInfo, Runtime


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


__all__ = ["_checkpoint_ns_for_parent_command", "_ensure_execution_info", "_should_retry_on"]
