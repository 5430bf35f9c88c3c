"""Public value types of the engine: routing packets, commands, interrupts, policies, snapshots.

These mirror `langgraph.types` name for name so user code can switch import prefixes.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Literal,
    NamedTuple,
    TypedDict,
    TypeVar,
)

from xxhash import xxh3_128_hexdigest

from engine._after_import import after_import
from engine._constants import CONF, CONFIG_KEY_SCRATCHPAD, EMPTY_SEQ, NS_SEP, TAG_HIDDEN
from engine._constants import DEFAULT_INTERRUPT_ID as _DEFAULT_INTERRUPT_ID
from engine._fields import update_as_tuples
from engine.warnings import LangGraphDeprecatedSinceV11

if TYPE_CHECKING:  # annotations only: pregel sits above this module
    from engine.pregel.read import PregelNode

StreamMode = Literal["values", "updates", "checkpoints", "tasks", "debug", "messages", "custom"]
Durability = Literal["sync", "async", "exit"]
All = Literal["*"]
StreamWriter = Callable[[Any], None]
# Checkpointer (None | bool | BaseCheckpointSaver) is built on first use, in __getattr__ below:
# None inherits the parent's saver, True gives a subgraph its own history, False disables.

OutputT = TypeVar("OutputT")
N = TypeVar("N", bound=Hashable)


# --------------------------------------------------------------------------- routing


class Send:
    """A packet asking the loop to run `node` once, next superstep, with `arg` as its input.

    Sends are written to the `__pregel_tasks` Topic; each becomes a PUSH task.
    """

    __slots__ = ("node", "arg", "timeout")

    def __init__(self, /, node: str, arg: Any, *, timeout: Any = None) -> None:
        self.node = node
        self.arg = arg
        # overrides the target node's own timeout for this task
        self.timeout = TimeoutPolicy.coerce(timeout) if timeout is not None else None

    def __hash__(self) -> int:
        return hash((self.node, self.arg, self.timeout))

    def __repr__(self) -> str:
        if self.timeout is None:
            return f"Send(node={self.node!r}, arg={self.arg!r})"
        return f"Send(node={self.node!r}, arg={self.arg!r}, timeout={self.timeout!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Send)
            and self.node == other.node
            and self.arg == other.arg
            and self.timeout == other.timeout
        )


@dataclass
class Command(Generic[N]):
    """Update state and choose what runs next in one return value, or resume an interrupt.

    Attributes:
        graph: None for the current graph, `Command.PARENT` for the closest parent graph.
        update: a dict (or list of (key, value) pairs, or a state object) applied like a node return.
        resume: the value `interrupt()` returns on resume, or a map of interrupt id -> value.
        goto: a node name, a list of names, a Send, or a list of Sends.
    """

    graph: str | None = None
    update: Any | None = None
    resume: dict[str, Any] | Any | None = None
    goto: Send | Sequence[Send | N] | N = ()

    PARENT: ClassVar[Literal["__parent__"]] = "__parent__"

    def __repr__(self) -> str:
        contents = ", ".join(f"{k}={v!r}" for k, v in asdict(self).items() if v)
        return f"Command({contents})"

    def _update_as_tuples(self) -> Sequence[tuple[str, Any]]:
        update = self.update
        if isinstance(update, dict):
            return list(update.items())
        if isinstance(update, (list, tuple)) and all(
            isinstance(t, tuple) and len(t) == 2 and isinstance(t[0], str) for t in update
        ):
            return list(update)
        if (pairs := update_as_tuples(update)) is not None:
            return pairs
        if update is not None:
            return [("__root__", update)]
        return []


def _join_tool_outputs(tool: Any) -> None:
    """A Command is a ToolOutputMixin, as langgraph's is: a langchain tool returns it as it is
    instead of wrapping it in a ToolMessage. The mixin joins Command's bases when langchain-core
    loads its messages (only code that has loaded them checks), so `import engine.types` does
    not load them itself."""
    if tool.ToolOutputMixin not in Command.__mro__:
        Command.__bases__ = (*Command.__bases__, tool.ToolOutputMixin)


after_import("langchain_core.messages.tool", _join_tool_outputs)


@dataclass(slots=True)
class Overwrite:
    """Write `value` to a reducer channel, replacing its value instead of reducing into it.

    `type` marks the JSON form ({"value": ..., "type": "__overwrite__"}), which reducer channels
    also accept, so the meaning survives a trip through JSON.
    """

    value: Any
    type: Literal["__overwrite__"] = "__overwrite__"


# --------------------------------------------------------------------------- interrupts


def interrupt_id(ns: str, answered: int = 0) -> str:
    """Stable id of the `answered`-th interrupt of the task at namespace `ns` (32 hex chars)."""
    key = f"{ns}{NS_SEP}{answered}" if answered else ns
    return xxh3_128_hexdigest(key.encode())  # langgraph's hash: the same ids on both


def is_interrupt_id(value: Any) -> bool:
    """True for a string shaped like an interrupt id (32 lowercase hex characters)."""
    return (
        isinstance(value, str) and len(value) == 32 and all(c in "0123456789abcdef" for c in value)
    )


class Interrupt:
    """A pause request raised in a node: `value` is shown to the human, `id` addresses the answer."""

    __slots__ = ("value", "id", "response_schema")

    def __init__(
        self,
        value: Any,
        id: str = _DEFAULT_INTERRUPT_ID,
        *,
        response_schema=None,
        **deprecated: Any,
    ):
        self.value = value
        self.response_schema = response_schema
        # langgraph < 0.6 made interrupts with ns=, when= and resumable=: those are ignored, but
        # an old ns still names the interrupt when no id is given (checkpoints written then)
        ns = deprecated.get("ns")
        if id == _DEFAULT_INTERRUPT_ID and isinstance(ns, (list, tuple)):
            id = xxh3_128_hexdigest(NS_SEP.join(ns).encode())
        self.id = id

    @classmethod
    def from_ns(cls, value: Any, ns: str, *, response_schema: Any = None) -> Interrupt:
        return cls(value=value, id=interrupt_id(ns), response_schema=response_schema)

    @property
    def interrupt_id(self) -> str:
        from engine.warnings import LangGraphDeprecatedSinceV10

        warnings.warn(
            "`interrupt_id` is deprecated. Use `id` instead.",
            LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )
        return self.id

    def __repr__(self) -> str:
        return (
            f"Interrupt(value={self.value!r}, id={self.id!r}, "
            f"response_schema={self.response_schema!r})"
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Interrupt) and (self.value, self.id, self.response_schema) == (
            other.value,
            other.id,
            other.response_schema,
        )

    def __hash__(self) -> int:
        return hash(self.id)


def interrupt(value: Any, *, response_schema: Any = None) -> Any:
    """Pause the graph here and show `value`; on resume, return the resume value instead.

    The node re-runs from its start when resumed; each `interrupt()` call in it is matched, in
    order, with the answers given so far. Requires a checkpointer. A typed `response_schema`
    (pydantic model, TypedDict, dataclass) is shown as JSON Schema and validates the answer; a
    dict schema is shown as-is.

    Raises:
        GraphInterrupt: when no answer is available yet for this call.
    """
    from engine.config import get_config

    try:
        # the running task's Scratchpad (engine.pregel.scratchpad), which the loop puts there
        scratchpad = get_config()[CONF][CONFIG_KEY_SCRATCHPAD]
    except (RuntimeError, KeyError):
        raise RuntimeError("Called interrupt() outside the context of a graph.") from None
    return scratchpad.interrupt(value, response_schema)


# --------------------------------------------------------------------------- policies


def default_retry_on(exc: Exception) -> bool:
    """LangGraph's default: retry network and server errors, never programming errors."""
    if isinstance(exc, ConnectionError):
        return True
    kinds = {(c.__module__.partition(".")[0], c.__name__) for c in type(exc).__mro__}
    response = getattr(exc, "response", None)
    if ("httpx", "HTTPStatusError") in kinds:
        return 500 <= response.status_code < 600
    if ("requests", "HTTPError") in kinds:
        # as langgraph tests it: no response (or a falsy one: requests' Response is falsy for
        # an error status) is retried
        return 500 <= response.status_code < 600 if response else True
    if isinstance(
        exc,
        (
            ValueError,
            TypeError,
            ArithmeticError,
            ImportError,
            LookupError,
            NameError,
            SyntaxError,
            RuntimeError,
            ReferenceError,
            StopIteration,
            StopAsyncIteration,
            OSError,
        ),
    ):
        return False
    return True


class RetryPolicy(NamedTuple):
    """How to retry a failing node: exponential backoff between attempts."""

    initial_interval: float = 0.5
    backoff_factor: float = 2.0
    max_interval: float = 128.0
    max_attempts: int = 3
    jitter: bool = True
    retry_on: type[Exception] | Sequence[type[Exception]] | Callable[[Exception], bool] = (
        default_retry_on
    )


def _timeout_seconds(value: float | timedelta | None, *, field: str) -> float | None:
    if value is None:
        return None
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    if seconds <= 0:
        raise ValueError(f"{field} must be greater than 0")
    return seconds


@dataclass(kw_only=True, slots=True, frozen=True)
class TimeoutPolicy:
    """Time limits of one attempt of an async node (a sync one cannot be cancelled in-process).

    `run_timeout` caps the attempt's wall-clock time; `idle_timeout` caps the time without
    progress. With `refresh_on="auto"` progress is any write, stream write, child task, callback
    event or `runtime.heartbeat()`; with `"heartbeat"` only the heartbeat. A timed-out attempt
    raises NodeTimeoutError, which the default RetryPolicy retries.
    """

    run_timeout: float | timedelta | None = None
    idle_timeout: float | timedelta | None = None
    refresh_on: Literal["auto", "heartbeat"] = "auto"

    @classmethod
    def coerce(cls, value: float | timedelta | TimeoutPolicy | None) -> TimeoutPolicy | None:
        """A policy in positive float seconds; a bare number or timedelta is a run_timeout."""
        if value is None:
            return None
        if isinstance(value, TimeoutPolicy):
            run, idle = value.run_timeout, value.idle_timeout
            if (
                value.refresh_on in ("auto", "heartbeat")
                and (run is None or (type(run) is float and run > 0))
                and (idle is None or (type(idle) is float and idle > 0))
                and (run is not None or idle is not None)
            ):
                return value  # already coerced: share it
        else:
            value = cls(run_timeout=value)
        if value.refresh_on not in ("auto", "heartbeat"):
            raise ValueError("refresh_on must be 'auto' or 'heartbeat'")
        run = _timeout_seconds(value.run_timeout, field="run_timeout")
        idle = _timeout_seconds(value.idle_timeout, field="idle_timeout")
        if run is None and idle is None:
            return None
        return cls(run_timeout=run, idle_timeout=idle, refresh_on=value.refresh_on)


@dataclass(kw_only=True, slots=True, frozen=True)
class TracePolicy:
    """What tracers record for a node's own run: each processor gets the raw input or output
    and returns the value to record (a processor that raises records the raw value). Stream
    handlers, the node itself and its child runs see the real values; not a redaction tool."""

    process_inputs: Callable[[Any], Any] | None = None
    process_outputs: Callable[[Any], Any] | None = None


def omit_payload(_value: Any) -> dict[str, Any]:
    """A TracePolicy processor recording an empty payload (the run and its timing stay)."""
    return {}


def ensure_valid_checkpointer(checkpointer: Any) -> Any:
    """`checkpointer` if it is a saver, True, False or None; else TypeError, as langgraph."""
    # Reaches up to the savers, because langgraph.types exports this check; at call time only.
    from engine.checkpoint.base import BaseCheckpointSaver

    if checkpointer not in (None, True, False) and not isinstance(
        checkpointer, BaseCheckpointSaver
    ):
        raise TypeError(
            "Invalid checkpointer provided. Expected an instance of `BaseCheckpointSaver`, "
            f"`True`, `False`, or `None`. Received {type(checkpointer).__name__!s}. "
            "Pass a proper saver (e.g., InMemorySaver, AsyncPostgresSaver)."
        )
    return checkpointer


def _freeze(obj: Any, depth: int = 10) -> Hashable:
    """`obj` made hashable as langgraph's cache keys make it: a mapping becomes its items sorted
    by key, a sequence a tuple, something with `tobytes` (a numpy array) its type name, bytes and
    shape; what is already hashable (a tuple too, whatever it holds) stays as it is, and so does
    everything below `depth` levels."""
    if depth <= 0 or isinstance(obj, Hashable):
        return obj
    if isinstance(obj, Mapping):
        return tuple(sorted((key, _freeze(value, depth - 1)) for key, value in obj.items()))
    if isinstance(obj, Sequence):
        return tuple(_freeze(item, depth - 1) for item in obj)
    if hasattr(obj, "tobytes"):
        return (type(obj).__name__, obj.tobytes(), getattr(obj, "shape", None))
    return obj


def default_cache_key(*args: Any, **kwargs: Any) -> str | bytes:
    """The pickled (args, kwargs), frozen first, as langgraph's: equal inputs give equal keys
    (the same bytes as langgraph's, for a program that compares or prints them)."""
    import pickle

    return pickle.dumps((_freeze(args), _freeze(kwargs)), protocol=5, fix_imports=False)


@dataclass
class CachePolicy(Generic[N]):
    """Reuse a node's writes for equal input: `key_func(input)` names the entry, `ttl` in seconds."""

    key_func: Callable[..., str | bytes] = default_cache_key
    ttl: int | None = None


class CacheKey(NamedTuple):
    ns: tuple[str, ...]
    key: str
    ttl: int | None


# --------------------------------------------------------------------------- tasks


@dataclass(slots=True, eq=False)
class PregelExecutableTask:
    """One node execution planned for the current superstep (made by engine.pregel.algo)."""

    name: str
    input: Any
    proc: PregelNode
    writes: list[tuple[str, Any]]
    config: dict
    triggers: Sequence[str]
    retry_policy: Sequence[Any]
    cache_key: CacheKey | None
    id: str
    path: tuple
    writers: list[Any] = field(default_factory=list)
    subgraphs: Sequence[Any] = ()
    timeout: Any = None  # a coerced TimeoutPolicy (engine.pregel.timeouts)
    # a functional-API call's: the callbacks of its caller's config (its run nests there)
    caller_callbacks: Any = None

    @property
    def hidden(self) -> bool:
        return TAG_HIDDEN in (self.config.get("tags") or EMPTY_SEQ)


# --------------------------------------------------------------------------- snapshots


class PregelTask(NamedTuple):
    """A task as seen from outside: in get_state().tasks and in debug output."""

    id: str
    name: str
    path: tuple[str | int | tuple, ...]
    error: Exception | None = None
    interrupts: tuple[Interrupt, ...] = ()
    state: Any = None
    result: Any | None = None


class StateSnapshot(NamedTuple):
    """The state of a thread at one checkpoint."""

    values: dict[str, Any] | Any
    next: tuple[str, ...]
    config: dict
    metadata: dict | None
    created_at: str | None
    parent_config: dict | None
    tasks: tuple[PregelTask, ...]
    interrupts: tuple[Interrupt, ...] = ()


class StateUpdate(NamedTuple):
    values: dict[str, Any] | None
    as_node: str | None = None
    task_id: str | None = None


# --------------------------------------------------------------------------- stream parts (v2)


class ValuesStreamPart(TypedDict):
    type: Literal["values"]
    ns: tuple[str, ...]
    data: Any
    interrupts: tuple[Interrupt, ...]


class UpdatesStreamPart(TypedDict):
    type: Literal["updates"]
    ns: tuple[str, ...]
    data: dict[str, Any]


class MessagesStreamPart(TypedDict):
    type: Literal["messages"]
    ns: tuple[str, ...]
    data: tuple[Any, dict[str, Any]]


class CustomStreamPart(TypedDict):
    type: Literal["custom"]
    ns: tuple[str, ...]
    data: Any


class CheckpointStreamPart(TypedDict):
    type: Literal["checkpoints"]
    ns: tuple[str, ...]
    data: dict[str, Any]


class TasksStreamPart(TypedDict):
    type: Literal["tasks"]
    ns: tuple[str, ...]
    data: dict[str, Any]


class DebugStreamPart(TypedDict):
    type: Literal["debug"]
    ns: tuple[str, ...]
    data: dict[str, Any]


StreamPart = (
    ValuesStreamPart
    | UpdatesStreamPart
    | MessagesStreamPart
    | CustomStreamPart
    | CheckpointStreamPart
    | TasksStreamPart
    | DebugStreamPart
)


@dataclass(frozen=True)
class GraphOutput(Generic[OutputT]):
    """What `invoke(..., version="v2")` returns: the output value and any pending interrupts."""

    value: Any
    interrupts: tuple[Interrupt, ...] = field(default=())

    def __getitem__(self, key: str) -> Any:
        warnings.warn(
            "Accessing GraphOutput via `result[key]` is deprecated. "
            "Use `result.value` to access the output value directly, "
            "or `result.interrupts` for interrupts.",
            LangGraphDeprecatedSinceV11,
            stacklevel=2,
        )
        if key == "__interrupt__":
            return self.interrupts
        if isinstance(self.value, dict):
            return self.value[key]
        try:
            return getattr(self.value, key)
        except AttributeError:
            raise KeyError(key) from None

    def __contains__(self, key: object) -> bool:
        warnings.warn(
            "Accessing GraphOutput via `key in result` is deprecated. "
            "Use `result.value` to access the output value directly, "
            "or `result.interrupts` for interrupts.",
            LangGraphDeprecatedSinceV11,
            stacklevel=2,
        )
        if key == "__interrupt__":
            return bool(self.interrupts)
        if isinstance(self.value, dict):
            return key in self.value
        return isinstance(key, str) and hasattr(self.value, key)


__all__ = [
    "All",
    "CachePolicy",
    "Checkpointer",  # noqa: F822  (module __getattr__)
    "Command",
    "Durability",
    "GraphOutput",
    "Interrupt",
    "Overwrite",
    "PregelExecutableTask",
    "PregelTask",
    "RetryPolicy",
    "Send",
    "StateSnapshot",
    "StateUpdate",
    "StreamMode",
    "StreamPart",
    "StreamWriter",
    "TimeoutPolicy",
    "TracePolicy",
    "ensure_valid_checkpointer",
    "interrupt",
    "omit_payload",
]


def __getattr__(name: str) -> Any:
    if name == "Checkpointer":
        # Reaches up to the savers, because langgraph.types exports this union (annotations
        # evaluate it); built on first use, so loading this module loads no saver.
        from engine.checkpoint.base import BaseCheckpointSaver

        globals()[name] = None | bool | BaseCheckpointSaver
        return globals()[name]
    raise AttributeError(f"module 'engine.types' has no attribute {name!r}")
