"""A scenario written against langgraph, run on real langgraph and on the engine, third-party
packages included (deepagents loads its engine-world copy: graphspec.engine_world)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphspec.engine_world import on_engine

__all__ = ["on_engine", "run_on_both"]


def run_on_both(scenario: Callable[[], Any]) -> tuple[Any, Any]:
    """(result on langgraph, result on the engine); an exception is returned as the result."""
    results = []
    for world in (None, on_engine):
        try:
            if world is None:
                results.append(scenario())
            else:
                with world():
                    results.append(scenario())
        except Exception as exc:  # compared as (class name, message)
            results.append(exc)
    return results[0], results[1]
