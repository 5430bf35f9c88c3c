"""Runtime: run-scoped dependencies a node can ask for (`runtime: Runtime[Ctx]`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from engine._constants import CONF, CONFIG_KEY_RUNTIME

ContextT = TypeVar("ContextT")


def _no_op_stream_writer(_: Any) -> None:
    return None


def _no_op_heartbeat() -> None:
    return None


class RunControl:
    """Asks one run to stop cooperatively at the next superstep boundary (e.g. on SIGTERM).

    One attribute write carries the request, so any thread may call `request_drain`.
    """

    __slots__ = ("_drain_reason",)

    def __init__(self) -> None:
        self._drain_reason: str | None = None

    def request_drain(self, reason: str = "shutdown") -> None:
        self._drain_reason = reason

    @property
    def drain_requested(self) -> bool:
        return self._drain_reason is not None

    @property
    def drain_reason(self) -> str | None:
        return self._drain_reason


@dataclass(frozen=True, slots=True)
class ExecutionInfo:
    """Read-only facts about the task being executed: where it is and which attempt this is."""

    checkpoint_id: str
    checkpoint_ns: str
    task_id: str
    thread_id: str | None = None
    """None when running without a checkpointer."""
    run_id: str | None = None
    node_attempt: int = 1
    """1 on the first execution, 2 on the first retry, ..."""
    node_first_attempt_time: float | None = None

    def patch(self, **overrides: Any) -> ExecutionInfo:
        return replace(self, **overrides)


@dataclass(frozen=True)
class Runtime(Generic[ContextT]):
    """What a node sees of its run besides state.

    Attributes:
        context: the `context=` given to invoke, validated against `context_schema`.
        store: the store given to compile, for memory shared across threads.
        stream_writer: sends a value to stream_mode="custom".
        previous: the previous return value of a functional-API entrypoint.
    """

    context: ContextT = field(default=None)  # type: ignore[assignment]
    store: Any = field(default=None)
    stream_writer: Any = field(default=_no_op_stream_writer)
    heartbeat: Any = field(default=_no_op_heartbeat)
    previous: Any = field(default=None)
    execution_info: Any = field(default=None)
    server_info: Any = field(default=None)

    def override(self, **overrides: Any) -> Runtime[ContextT]:
        return replace(self, **overrides)

    def for_task(self, execution_info: ExecutionInfo) -> Runtime[ContextT]:
        """This runtime with a task's execution info (a field copy: runs once per task)."""
        new = object.__new__(Runtime)
        new.__dict__.update(self.__dict__)
        new.__dict__["execution_info"] = execution_info
        return new


DEFAULT_RUNTIME: Runtime[Any] = Runtime()


def get_runtime(context_schema: Any = None) -> Runtime[Any]:
    """The runtime of the graph run this code is part of."""
    from engine.config import get_config

    return get_config()[CONF].get(CONFIG_KEY_RUNTIME)


__all__ = ["ExecutionInfo", "RunControl", "Runtime", "get_runtime"]
