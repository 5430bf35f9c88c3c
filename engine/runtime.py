"""Runtime: run-scoped dependencies a node can ask for (`runtime: Runtime[Ctx]`)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
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


# Each slot's setter: a task's ExecutionInfo is built through them (see first_attempt_info).
(
    _set_checkpoint_id,
    _set_checkpoint_ns,
    _set_task_id,
    _set_thread_id,
    _set_run_id,
    _set_node_attempt,
    _set_first_attempt_time,
) = (getattr(ExecutionInfo, f.name).__set__ for f in fields(ExecutionInfo))


def first_attempt_info(
    checkpoint_id: str,
    checkpoint_ns: str,
    task_id: str,
    thread_id: str | None,
    run_id: str | None,
    first_attempt_time: float,
) -> ExecutionInfo:
    """ExecutionInfo(..., node_attempt=1, ...) at a third of the cost of the frozen dataclass's
    __init__, which sets each slot through object.__setattr__: one is made for every task."""
    info = object.__new__(ExecutionInfo)
    _set_checkpoint_id(info, checkpoint_id)
    _set_checkpoint_ns(info, checkpoint_ns)
    _set_task_id(info, task_id)
    _set_thread_id(info, thread_id)
    _set_run_id(info, run_id)
    _set_node_attempt(info, 1)
    _set_first_attempt_time(info, first_attempt_time)
    return info


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """What LangGraph's server tells a run about itself (None when not run by a server)."""

    assistant_id: str
    graph_id: str
    user: Any = None
    """The authenticated user (langgraph_sdk's BaseUser), if any."""

    @classmethod
    def from_configurable(cls, configurable: dict) -> ServerInfo | None:
        """As the server passes them: `assistant_id`, `graph_id`, `langgraph_auth_user`."""
        assistant_id = configurable.get("assistant_id")
        graph_id = configurable.get("graph_id")
        user = configurable.get("langgraph_auth_user")
        if user is not None and not hasattr(user, "identity"):
            user = None
        if assistant_id is None and graph_id is None and user is None:
            return None
        return cls(str(assistant_id or ""), str(graph_id or ""), user)


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
    control: RunControl | None = field(default=None)
    """Asks the run to drain (stop at the next superstep boundary); set during a graph run."""

    def merge(self, other: Runtime[ContextT]) -> Runtime[ContextT]:
        """`other`'s values where it has them (not falsy, not the no-op writers), else ours."""
        return Runtime(
            context=other.context or self.context,
            store=other.store or self.store,
            stream_writer=self.stream_writer
            if other.stream_writer is _no_op_stream_writer
            else other.stream_writer,
            heartbeat=self.heartbeat if other.heartbeat is _no_op_heartbeat else other.heartbeat,
            previous=self.previous if other.previous is None else other.previous,
            execution_info=other.execution_info or self.execution_info,
            server_info=other.server_info or self.server_info,
            control=other.control or self.control,
        )

    def override(self, **overrides: Any) -> Runtime[ContextT]:
        return replace(self, **overrides)

    def patch_execution_info(self, **overrides: Any) -> Runtime[ContextT]:
        """This runtime with some of its execution_info's fields replaced."""
        if self.execution_info is None:
            raise RuntimeError("Cannot patch execution_info before it has been set")
        return replace(self, execution_info=self.execution_info.patch(**overrides))

    @property
    def drain_requested(self) -> bool:
        return self.control is not None and self.control.drain_requested

    @property
    def drain_reason(self) -> str | None:
        return self.control.drain_reason if self.control is not None else None

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


__all__ = ["ExecutionInfo", "RunControl", "Runtime", "ServerInfo", "get_runtime"]
