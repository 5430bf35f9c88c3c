"""Type variables for graph state, input, output and run context (langgraph.typing).

A state is a TypedDict, a dataclass or a pydantic model; the bounds say so for type checkers.
"""

from __future__ import annotations

from dataclasses import Field
from typing import Any, ClassVar, Protocol, TypeAlias

from pydantic import BaseModel
from typing_extensions import TypeVar

__all__ = ("StateT", "StateT_co", "StateT_contra", "InputT", "OutputT", "ContextT")


class _TypedDictLike(Protocol):
    __required_keys__: ClassVar[frozenset[str]]
    __optional_keys__: ClassVar[frozenset[str]]


class _DataclassLike(Protocol):
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]


StateLike: TypeAlias = _TypedDictLike | _DataclassLike | BaseModel

StateT = TypeVar("StateT", bound=StateLike)
StateT_co = TypeVar("StateT_co", bound=StateLike, covariant=True)
StateT_contra = TypeVar("StateT_contra", bound=StateLike, contravariant=True)
ContextT = TypeVar("ContextT", bound=StateLike | None, default=None)
"""The run-scoped context of a graph (`context_schema`); None when it has none."""
ContextT_contra = TypeVar(
    "ContextT_contra", bound=StateLike | None, contravariant=True, default=None
)
InputT = TypeVar("InputT", bound=StateLike, default=StateT)
OutputT = TypeVar("OutputT", bound=StateLike, default=StateT)
NodeInputT = TypeVar("NodeInputT", bound=StateLike)
NodeInputT_contra = TypeVar("NodeInputT_contra", bound=StateLike, contravariant=True)
