"""langgraph._internal._retry: the default retry predicate a program's own `retry_on` can
delegate to, at langgraph's private path."""

from __future__ import annotations

from engine.types import default_retry_on

__all__ = ["default_retry_on"]
