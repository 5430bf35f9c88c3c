"""Managed values: state keys the runtime fills in per task (never written by nodes)."""

from __future__ import annotations

from typing import Annotated, Any


class ManagedValue:
    """Base of managed values; `get(scratchpad)` computes the value for one task."""

    @staticmethod
    def get(scratchpad: Any) -> Any:
        raise NotImplementedError


class IsLastStepManager(ManagedValue):
    @staticmethod
    def get(scratchpad: Any) -> bool:
        return scratchpad.step == scratchpad.stop - 1


class RemainingStepsManager(ManagedValue):
    @staticmethod
    def get(scratchpad: Any) -> int:
        return scratchpad.stop - scratchpad.step


IsLastStep = Annotated[bool, IsLastStepManager]
"""True in the last superstep the recursion limit allows."""
RemainingSteps = Annotated[int, RemainingStepsManager]
"""How many supersteps remain before the recursion limit."""


def is_managed_value(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, ManagedValue)


__all__ = ["IsLastStep", "RemainingSteps", "ManagedValue", "is_managed_value"]
