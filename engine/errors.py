"""The engine's exception tree, with langgraph's classes, names and messages.

Control-flow exceptions (`GraphBubbleUp` and below) stop a run on purpose and are never retried
nor shown to the user as failures; everything else is an error the studio can display.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any


class ErrorCode(Enum):
    """Stable codes of user-facing errors; each has a troubleshooting page upstream."""

    GRAPH_RECURSION_LIMIT = "GRAPH_RECURSION_LIMIT"
    INVALID_CONCURRENT_GRAPH_UPDATE = "INVALID_CONCURRENT_GRAPH_UPDATE"
    INVALID_GRAPH_NODE_RETURN_VALUE = "INVALID_GRAPH_NODE_RETURN_VALUE"
    MULTIPLE_SUBGRAPHS = "MULTIPLE_SUBGRAPHS"
    INVALID_CHAT_HISTORY = "INVALID_CHAT_HISTORY"


def create_error_message(*, message: str, error_code: ErrorCode) -> str:
    return (
        f"{message}\n"
        "For troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/"
        f"errors/{error_code.value}"
    )


class EmptyChannelError(Exception):
    """Raised when reading a channel that holds no value yet."""


class GraphRecursionError(RecursionError):
    """The graph ran `recursion_limit` supersteps without reaching a stop condition."""


class InvalidUpdateError(Exception):
    """A write a channel cannot accept (two values for a LastValue key, a bad node return)."""


class EmptyInputError(Exception):
    """The graph received an empty input."""


class TaskNotFound(Exception):
    """A task named in pending writes does not exist (usually a changed graph)."""


class GraphBubbleUp(Exception):
    """Base of control-flow exceptions that travel up through nodes to the loop."""


class GraphInterrupt(GraphBubbleUp):
    """Raised by `interrupt()` (or a breakpoint) to pause the run."""

    def __init__(self, interrupts: Sequence[Any] = ()) -> None:
        super().__init__(interrupts)


class GraphDrained(GraphBubbleUp):
    """The run stopped at a superstep boundary because `RunControl.request_drain()` was called."""

    def __init__(self, reason: str = "shutdown") -> None:
        self.reason = reason
        super().__init__(f"Graph drained: {reason}")


class NodeInterrupt(GraphInterrupt):
    """Deprecated upstream: raise from a node to interrupt with a value."""

    def __init__(self, value: Any, id: str | None = None) -> None:
        import warnings

        from engine.types import Interrupt
        from engine.warnings import LangGraphDeprecatedSinceV10

        warnings.warn(
            "NodeInterrupt is deprecated. Please use `langgraph.types.interrupt` instead.",
            LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )

        if id is None:
            super().__init__([Interrupt(value=value)])
        else:
            super().__init__([Interrupt(value=value, id=id)])


class NodeTimeoutError(Exception):
    """An attempt of a node ran past its TimeoutPolicy. Not a TimeoutError (an OSError), so the
    default RetryPolicy retries it. `timeout` and `kind` say which limit fired; `run_timeout`
    and `idle_timeout` are the policy's (None where unset)."""

    def __init__(
        self,
        node: str,
        elapsed: float,
        *,
        kind: str,
        idle_timeout: float | None = None,
        run_timeout: float | None = None,
    ) -> None:
        if kind == "idle":
            if idle_timeout is None:
                raise ValueError("idle_timeout is required when kind='idle'")
            message = (
                f"Node '{node}' exceeded its idle timeout of {idle_timeout:.3f}s without making "
                f"progress (elapsed: {elapsed:.3f}s)."
            )
            self.timeout = idle_timeout
        elif kind == "run":
            if run_timeout is None:
                raise ValueError("run_timeout is required when kind='run'")
            message = (
                f"Node '{node}' exceeded its run timeout of {run_timeout:.3f}s "
                f"(elapsed: {elapsed:.3f}s)."
            )
            self.timeout = run_timeout
        else:
            raise ValueError("kind must be 'idle' or 'run'")
        super().__init__(message)
        self.node = node
        self.elapsed = elapsed
        self.kind = kind
        self.idle_timeout = idle_timeout
        self.run_timeout = run_timeout

    def __reduce__(self) -> Any:
        kwargs = {"kind": self.kind, "idle_timeout": self.idle_timeout}
        kwargs["run_timeout"] = self.run_timeout
        return (_node_timeout_error, (self.node, self.elapsed, kwargs))


def _node_timeout_error(node: str, elapsed: float, kwargs: dict[str, Any]) -> NodeTimeoutError:
    return NodeTimeoutError(node, elapsed, **kwargs)


class NodeCancelledError(Exception):
    """A node's own body raised asyncio.CancelledError: a failure of the node, unlike the
    engine cancelling a task because a sibling failed (that stays a CancelledError)."""

    def __init__(self, node: str, message: str | None = None) -> None:
        super().__init__(message or f"Node {node!r} raised asyncio.CancelledError")
        self.node = node


@dataclass(frozen=True, slots=True)
class NodeError:
    """What a node's error handler gets as its `error: NodeError` parameter."""

    node: str
    """The node whose task failed (after its retries)."""
    error: BaseException
    """What it raised."""


class ParentCommand(GraphBubbleUp):
    """Carries a `Command(graph=Command.PARENT)` from a subgraph to the graph that owns it."""

    def __init__(self, command: Any) -> None:
        super().__init__(command)


_INVALID_RESUME = "_langgraph_invalid_resume"


def mark_invalid_resume(error: BaseException) -> None:
    setattr(error, _INVALID_RESUME, True)


def is_invalid_resume(error: BaseException) -> bool:
    """Whether `error` is a resume value that failed the interrupt's `response_schema`."""
    return getattr(error, _INVALID_RESUME, False) is True


__all__ = [
    "is_invalid_resume",
    "ErrorCode",
    "create_error_message",
    "EmptyChannelError",
    "GraphRecursionError",
    "InvalidUpdateError",
    "EmptyInputError",
    "TaskNotFound",
    "GraphBubbleUp",
    "GraphInterrupt",
    "GraphDrained",
    "NodeCancelledError",
    "NodeError",
    "NodeInterrupt",
    "NodeTimeoutError",
    "ParentCommand",
]
