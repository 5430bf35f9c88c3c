"""The fields of a state object, read without the graph builder: `Command.update` may be one
(a pydantic model, a dataclass, an annotated class), and engine.types sits below engine.graph."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def _annotated_keys(cls: type) -> list[str]:
    keys: list[str] = []
    for base in reversed(cls.__mro__):
        for key in (
            getattr(base, "__annotations__", {}) if "__annotations__" in base.__dict__ else {}
        ):
            if key != "__slots__" and key not in keys:
                keys.append(key)
    return keys


def update_as_tuples(value: Any) -> list[tuple[str, Any]] | None:
    """(key, value) pairs of a state object (pydantic, dataclass, annotated class), or None.

    As langgraph does: a None value is dropped unless its default is not None or (pydantic) it
    was set explicitly.
    """
    cls = type(value)
    if isinstance(value, (dict, str, bytes, list, tuple)) or not (keys := _annotated_keys(cls)):
        return None
    if isinstance(value, BaseModel):
        keep = value.model_fields_set
        defaults = {k: f.default for k, f in cls.model_fields.items()}
    else:
        keep, defaults = None, {}
    missing = object()
    return [
        (k, v)
        for k in keys
        if (v := getattr(value, k, missing)) is not missing
        and (
            v is not None
            or defaults.get(k, missing) is not None
            or (keep is not None and k in keep)
        )
    ]
