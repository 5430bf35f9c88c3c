"""Deep Agents differential tests: one scenario, written against langgraph, run by the same
deepagents on real langgraph and on the engine (tests/engine_imports.py), with a scripted model."""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import AIMessage

from tests.engine.agents.helpers import FakeToolModel, ai
from tests.engine_imports import run_on_both
from tests.oracle import normalize

__all__ = ["FakeToolModel", "ai", "assert_same_deep", "checkpoint_shapes", "first_diff", "model"]

# a file's created_at/modified_at: the time the tool ran
_ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?")
# the summarization history file of a thread without a thread id: session_<uuid hex>
_SESSION = re.compile(r"session_[0-9a-f]{32}")


def model(*replies: AIMessage, **fields: Any) -> FakeToolModel:
    """A chat model replying with `replies` in order (tools bound are ignored)."""
    return FakeToolModel(responses=list(replies), **fields)


def normalize_deep(value: Any) -> Any:
    value = normalize(value)
    if isinstance(value, str):
        return _SESSION.sub("session_<id>", _ISO_TIME.sub("<time>", value))
    if isinstance(value, dict):
        return {normalize_deep(k): normalize_deep(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        items = [normalize_deep(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    return value


def first_diff(a: Any, b: Any, path: str = "$") -> str | None:
    """Where two normalised results first differ, for a readable failure."""
    if type(a) is not type(b):
        return f"{path}: {a!r:.400} != {b!r:.400}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}[{k!r}] only on {'langgraph' if k in a else 'engine'}"
            if found := first_diff(a[k], b[k], f"{path}[{k!r}]"):
                return found
        return None
    if isinstance(a, list | tuple):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}\n {a!r:.600}\n {b!r:.600}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if found := first_diff(x, y, f"{path}[{i}]"):
                return found
        return None
    return None if a == b else f"{path}: {a!r:.600} != {b!r:.600}"


def assert_same_deep(scenario) -> Any:
    """Run `scenario` on langgraph and on the engine; assert equal normalised results and
    return the engine's (raising it if it is an exception and langgraph's is not)."""
    expected, actual = run_on_both(scenario)
    if isinstance(expected, Exception) and not isinstance(actual, Exception):
        raise expected
    if isinstance(actual, Exception) and not isinstance(expected, Exception):
        raise actual
    a, b = normalize_deep(expected), normalize_deep(actual)
    assert a == b, f"engine differs from langgraph: {first_diff(a, b)}"
    return actual


def checkpoint_shapes(saver: Any, config: dict) -> list[tuple]:
    """Per saved checkpoint, oldest first: step, source, the channels stored with a value, and
    the delta counters in its metadata. The Send topic is left out: langgraph stores it as []
    once consumed, the engine stores no value for an empty topic."""
    rows = []
    for t in reversed(list(saver.list(config))):
        values = {k for k in t.checkpoint["channel_values"] if k != "__pregel_tasks"}
        rows.append(
            (
                t.metadata.get("step"),
                t.metadata.get("source"),
                sorted(values),
                t.metadata.get("counters_since_delta_snapshot"),
            )
        )
    return rows
