"""Managed values: state keys the runtime fills in per task (never written by nodes)."""

from __future__ import annotations

from engine.managed.base import ManagedValue, is_managed_value
from engine.managed.is_last_step import (
    IsLastStep,
    IsLastStepManager,
    RemainingSteps,
    RemainingStepsManager,
)

__all__ = [
    "IsLastStep",
    "IsLastStepManager",
    "RemainingSteps",
    "RemainingStepsManager",
    "ManagedValue",
    "is_managed_value",
]
