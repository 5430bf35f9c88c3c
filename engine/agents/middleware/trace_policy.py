"""The process-wide default TracePolicy of middleware hook nodes (langchain's
configure_trace_policy): a middleware's own `trace_policy` replaces it whole. The policy is
looked up when a run is traced, so setting it after create_agent still applies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.types import TracePolicy

_default: TracePolicy | None = None


def configure_trace_policy(policy: TracePolicy | None) -> None:
    """Set (None: clear) the default TracePolicy of middleware hook spans; call once at start."""
    global _default
    _default = policy


def _processor(own: TracePolicy | None, field: str) -> Callable[[Any], Any]:
    def process(value: Any) -> Any:
        effective = own if own is not None else _default
        fn = getattr(effective, field) if effective is not None else None
        return fn(value) if fn is not None else value

    return process


def node_trace_policy(own: TracePolicy | None) -> TracePolicy:
    """The policy of a middleware's hook node: its own, else the default at run time."""
    return TracePolicy(
        process_inputs=_processor(own, "process_inputs"),
        process_outputs=_processor(own, "process_outputs"),
    )


__all__ = ["configure_trace_policy", "node_trace_policy"]
