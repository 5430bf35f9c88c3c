"""Deprecated home of the types now in engine.types (langgraph.pregel.types); importing warns."""

from warnings import warn

from engine.types import (
    All,
    CachePolicy,
    PregelExecutableTask,
    PregelTask,
    RetryPolicy,
    StateSnapshot,
    StateUpdate,
    StreamMode,
    StreamWriter,
    default_retry_on,
)
from engine.warnings import LangGraphDeprecatedSinceV10

__all__ = [
    "All",
    "StateUpdate",
    "CachePolicy",
    "PregelExecutableTask",
    "PregelTask",
    "RetryPolicy",
    "StateSnapshot",
    "StreamMode",
    "StreamWriter",
    "default_retry_on",
]

warn(
    "Importing from langgraph.pregel.types is deprecated. "
    "Please use 'from langgraph.types import ...' instead.",
    LangGraphDeprecatedSinceV10,
    stacklevel=2,
)
