"""langgraph.managed.is_last_step: the recursion limit as state keys (programs import
`IsLastStep` from this path)."""

from __future__ import annotations

from typing import Annotated, Any

from engine.managed.base import ManagedValue


class IsLastStepManager(ManagedValue[bool]):
    @staticmethod
    def get(scratchpad: Any) -> bool:
        return scratchpad.step == scratchpad.stop - 1


class RemainingStepsManager(ManagedValue[int]):
    @staticmethod
    def get(scratchpad: Any) -> int:
        return scratchpad.stop - scratchpad.step


IsLastStep = Annotated[bool, IsLastStepManager]
"""True in the last superstep the recursion limit allows."""
RemainingSteps = Annotated[int, RemainingStepsManager]
"""How many supersteps remain before the recursion limit."""

__all__ = ("IsLastStep", "IsLastStepManager", "RemainingSteps", "RemainingStepsManager")
