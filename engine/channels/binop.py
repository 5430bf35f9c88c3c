"""BinaryOperatorAggregate: a state key with a reducer, `value = reducer(value, write)`."""

from __future__ import annotations

import collections.abc
import typing
from collections.abc import Callable, Sequence
from operator import add
from typing import Any, Self

from engine._constants import MISSING, OVERWRITE
from engine.channels.base import SameTypeChannel, Value
from engine.errors import EmptyChannelError, ErrorCode, InvalidUpdateError, create_error_message
from engine.types import Overwrite

_ABSTRACT_TO_CONCRETE = {
    collections.abc.Sequence: list,
    collections.abc.MutableSequence: list,
    collections.abc.Set: set,
    collections.abc.MutableSet: set,
    collections.abc.Mapping: dict,
    collections.abc.MutableMapping: dict,
}


def _initial_value(typ: Any) -> Any:
    """`typ()` when the type can be built empty (list -> []), else MISSING."""
    while typing.get_origin(typ) in (typing.Annotated, typing.Required, typing.NotRequired):
        typ = typing.get_args(typ)[0]
    typ = typing.get_origin(typ) or typ
    typ = _ABSTRACT_TO_CONCRETE.get(typ, typ)
    try:
        return typ()
    except Exception:
        return MISSING


def unwrap_overwrite(value: Any) -> tuple[bool, Any]:
    """(True, inner) for Overwrite(inner), {"__overwrite__": inner} or Overwrite's JSON form
    {"value": inner, "type": "__overwrite__"}; else (False, value)."""
    if isinstance(value, Overwrite):
        return True, value.value
    if isinstance(value, dict):
        if len(value) == 1 and OVERWRITE in value:
            return True, value[OVERWRITE]
        if value.get("type") == OVERWRITE and "value" in value:
            return True, value["value"]
    return False, value


def _get_overwrite(value: Any) -> tuple[bool, Any]:
    """langgraph's form of unwrap_overwrite: (False, None) for a plain value."""
    is_overwrite, inner = unwrap_overwrite(value)
    return (True, inner) if is_overwrite else (False, None)


class BinaryOperatorAggregate(SameTypeChannel[Value, Value, Value]):
    """Folds each write into the value with `operator`; starts from `typ()` when possible.

    Several writes in one superstep are reduced in task order; `Overwrite(v)` replaces the value
    (at most one Overwrite per superstep).
    """

    __slots__ = ("value", "operator")

    def __init__(self, typ: Any, operator: Callable[[Any, Any], Any]) -> None:
        super().__init__(typ)
        self.operator = operator
        self.value: Any = _initial_value(typ)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BinaryOperatorAggregate):
            return False
        a, b = self.operator, other.operator
        return a is b or "<lambda>" in (getattr(a, "__name__", ""), getattr(b, "__name__", ""))

    def copy(self) -> Self:
        new = self.__class__.__new__(self.__class__)
        new.typ, new.key, new.operator, new.value = self.typ, self.key, self.operator, self.value
        return new

    def from_checkpoint(self, checkpoint: Any) -> Self:
        new = self.__class__(self.typ, self.operator)
        new.key = self.key
        if checkpoint is not MISSING:
            new.value = checkpoint
        return new

    def update(self, values: Sequence[Any]) -> bool:
        if not values:
            return False
        if self.value is MISSING:
            self.value = unwrap_overwrite(values[0])[1]
            values = values[1:]
        if self.operator is add and type(self.value) is list:
            if len(values) == 1 and type(values[0]) is list:
                # one list written (a list is no Overwrite): value + write, a new list
                self.value = self.value + values[0]
                return True
            if len(values) > 1 and all(type(value) is list for value in values):
                # value + w1 + w2 + ...: one new list, not one per write (a fan-out's thousand
                # writes copied the list a thousand times); the old list stays as it was
                added = self.value.copy()
                for value in values:
                    added += value
                self.value = added
                return True
        seen_overwrite = False
        for value in values:
            is_overwrite, inner = unwrap_overwrite(value)
            if is_overwrite:
                if seen_overwrite:
                    raise InvalidUpdateError(
                        create_error_message(
                            message="Can receive only one Overwrite value per super-step.",
                            error_code=ErrorCode.INVALID_CONCURRENT_GRAPH_UPDATE,
                        )
                    )
                self.value = inner
                seen_overwrite = True
            elif not seen_overwrite:
                self.value = self.operator(self.value, value)
        return True

    def get(self) -> Value:
        if self.value is MISSING:
            raise EmptyChannelError()
        return self.value

    def is_available(self) -> bool:
        return self.value is not MISSING

    def checkpoint(self) -> Any:
        return self.value
