"""langgraph.managed.base: the base of managed values (state keys the runtime fills in per task,
never written by nodes)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, TypeGuard, TypeVar

V = TypeVar("V")


class ManagedValue(ABC, Generic[V]):
    """`get(scratchpad)` computes the value for one task; subscripted by its value's type
    (`ManagedValue[int]`), as langgraph's."""

    @staticmethod
    @abstractmethod
    def get(scratchpad: Any) -> V: ...


ManagedValueSpec = type[ManagedValue]
ManagedValueMapping = dict[str, ManagedValueSpec]


def is_managed_value(value: Any) -> TypeGuard[ManagedValueSpec]:
    return isinstance(value, type) and issubclass(value, ManagedValue)


__all__ = ("ManagedValue", "ManagedValueSpec", "ManagedValueMapping", "is_managed_value")
