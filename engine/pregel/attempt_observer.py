"""Events of a timed node's attempts, for an outside watchdog (langgraph's server).

A caller that puts a callable under CONFIG_KEY_TIMED_ATTEMPT_OBSERVER gets, for every attempt of
a node with a TimeoutPolicy: `start` before it runs, `progress` (at most four times per idle
window) while it shows signs of life, and `finish` once it is over, before any retry backoff or
error handler. The watchdog kills a worker whose attempt never finishes (a sync call blocking
the event loop defeats the in-process timeout). Interrupts and parent commands finish as
"success": the node did not fail. An observer that raises is logged and ignored.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple

from engine._constants import CONF, CONFIG_KEY_RUNTIME, CONFIG_KEY_TIMED_ATTEMPT_OBSERVER
from engine.errors import GraphBubbleUp, ParentCommand

logger = logging.getLogger(__name__)


class AttemptContext(NamedTuple):
    """What every event of one attempt shares (made once, at its start)."""

    task_id: str
    task_name: str
    attempt: int
    run_id: str | None
    thread_id: str | None
    checkpoint_ns: str | None
    started_at: datetime
    run_timeout_secs: float | None
    idle_timeout_secs: float | None
    refresh_on: Literal["auto", "heartbeat"] | None


@dataclass(frozen=True, slots=True)
class AttemptEvent:
    context: AttemptContext
    event: Literal["start", "progress", "finish"]
    progress_at: datetime | None = None
    finished_at: datetime | None = None
    status: Literal["success", "error"] | None = None
    error_type: str | None = None
    error_message: str | None = None


class ObservedAttempt:
    """One timed attempt that an observer watches."""

    __slots__ = ("context", "observer")

    def __init__(self, observer: Callable[[AttemptEvent], None], context: AttemptContext):
        self.observer = observer
        self.context = context

    def progressed(self) -> None:
        self._tell(AttemptEvent(self.context, "progress", progress_at=_now()))

    def finished(self, error: BaseException | None = None) -> None:
        if isinstance(error, (GraphBubbleUp, ParentCommand)):
            error = None  # an interrupt or a command for another graph: the node did not fail
        self._tell(
            AttemptEvent(
                self.context,
                "finish",
                finished_at=_now(),
                status="success" if error is None else "error",
                error_type=None if error is None else type(error).__name__,
                error_message=None if error is None else str(error),
            )
        )

    def _tell(self, event: AttemptEvent) -> None:
        try:
            self.observer(event)
        except Exception:
            logger.warning("Timed attempt observer failed", exc_info=True)


def start_attempt(task: Any, config: dict) -> ObservedAttempt | None:
    """Tell the config's observer, if any, that an attempt of timed `task` starts."""
    conf = config.get(CONF, {})
    observer = conf.get(CONFIG_KEY_TIMED_ATTEMPT_OBSERVER)
    if observer is None:
        return None
    info = getattr(conf.get(CONFIG_KEY_RUNTIME), "execution_info", None)
    policy = task.timeout
    idle = policy.idle_timeout
    attempt = ObservedAttempt(
        observer,
        AttemptContext(
            task_id=task.id,
            task_name=task.name,
            attempt=info.node_attempt if info is not None else 1,
            run_id=info.run_id if info is not None else None,
            thread_id=info.thread_id if info is not None else None,
            checkpoint_ns=info.checkpoint_ns if info is not None else None,
            started_at=_now(),
            run_timeout_secs=policy.run_timeout,
            idle_timeout_secs=idle,
            refresh_on=policy.refresh_on if idle is not None else None,
        ),
    )
    attempt._tell(AttemptEvent(attempt.context, "start"))
    return attempt


def _now() -> datetime:
    return datetime.now(UTC)
