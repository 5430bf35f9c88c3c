"""langgraph._internal._typing: the private typing helpers third-party packages import
(langgraph-supervisor and langgraph-swarm take `**kwargs: Unpack[DeprecatedKwargs]`)."""

from __future__ import annotations

from typing_extensions import TypedDict

from engine._constants import MISSING  # noqa: F401
from engine.typing import StateLike  # noqa: F401


class DeprecatedKwargs(TypedDict):
    """The keyword arguments a function still accepts but deprecates (none by default: a
    function's `**kwargs: Unpack[DeprecatedKwargs]` lets type checkers flag any)."""


EMPTY_SEQ: tuple[str, ...] = ()
"""An empty sequence of strings."""
