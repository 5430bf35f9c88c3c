"""Run one scenario on real langgraph and on our engine, and normalise what differs by design.

A scenario is a function taking a `Backend`; it imports everything through it, so the same code
runs on `langgraph.*` and on `engine.*` (the promise: replace the import prefix, nothing else).
"""

from __future__ import annotations

import importlib
import re
from typing import Any

PREFIXES = ("langgraph", "engine")

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_HEX_ID = re.compile(r"\b[0-9a-f]{32}\b")


class Backend:
    """Module access by langgraph's public paths: `b.graph.StateGraph`, `b.mod("checkpoint.memory")`."""

    def __init__(self, prefix: str):
        self.prefix = prefix

    def mod(self, path: str):
        return importlib.import_module(f"{self.prefix}.{path}")

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return self.mod(name)

    def __repr__(self) -> str:
        return f"Backend({self.prefix!r})"


def run_both(scenario) -> tuple[Any, Any]:
    """Return (langgraph result, engine result) of `scenario(backend)`; exceptions become values."""
    out = []
    for prefix in PREFIXES:
        try:
            out.append(scenario(Backend(prefix)))
        except Exception as exc:  # compared as (class name, message) by the caller
            out.append(exc)
    return out[0], out[1]


def normalize(value: Any) -> Any:
    """Replace run-specific ids (uuids, hashes, object reprs) so two runs compare equal."""
    if isinstance(value, BaseException):
        return (type(value).__name__, normalize(str(value)))
    if isinstance(value, str):
        return _HEX_ID.sub("<id>", _UUID.sub("<uuid>", value))
    if isinstance(value, dict):
        return {normalize(k): normalize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [normalize(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    cls = type(value).__name__
    if cls == "Interrupt":
        return ("Interrupt", normalize(value.value))
    if cls in ("Send", "Command", "Overwrite"):
        return (cls, normalize(repr(value)))
    if hasattr(value, "model_dump") and callable(value.model_dump):  # pydantic, messages
        return (cls, normalize({k: v for k, v in value.model_dump().items() if k != "id"}))
    if hasattr(value, "__dataclass_fields__"):
        return (cls, normalize({k: getattr(value, k) for k in value.__dataclass_fields__}))
    return value


def assert_same(scenario) -> Any:
    """Run on both backends and assert equal normalised results; return the engine's."""
    expected, actual = run_both(scenario)
    assert normalize(actual) == normalize(expected), (
        f"engine differs from langgraph\n langgraph: {expected!r}\n engine:    {actual!r}"
    )
    return actual
