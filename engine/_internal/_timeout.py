"""langgraph._internal._timeout: node timeout helpers at langgraph's private path."""

from __future__ import annotations

from datetime import timedelta

from engine.pregel.timeouts import sync_timeout_unsupported
from engine.types import TimeoutPolicy


def coerce_timeout_policy(value: float | timedelta | TimeoutPolicy | None) -> TimeoutPolicy | None:
    """A TimeoutPolicy from seconds, a timedelta (both a run timeout) or a policy; None stays."""
    return TimeoutPolicy.coerce(value)


__all__ = ["coerce_timeout_policy", "sync_timeout_unsupported"]
