"""What a stored value reads back as when its class cannot be found, as in langgraph.

A class defined inside a function (a test's or a factory's state model), one that pydantic's
`create_model` made, or one renamed since the checkpoint was written is in no module's
namespace. langgraph stores such values anyway and, failing to find the class when reading,
returns the plain data they were stored with: a dataclass's or a model's fields, an enum's
value, a named tuple's fields by name. It warns once per class name, except for pydantic models,
which it returns silently; so does the engine, in its words.
"""

from __future__ import annotations

import logging
from typing import Any

_MAX_WARNED = 1000  # as langgraph: classes made on the fly would grow the set without end
_warned: set[tuple[str, str]] = set()


def plain_data(kind: str, module: str, qualname: str, rest: list, log: logging.Logger) -> Any:
    """The stored data of a `kind` value whose class `module.qualname` cannot be found."""
    if not rest:  # the serializer reports it as a DeserializationError
        raise ValueError(f"a stored {kind} holds no data")
    data = rest[0]
    if kind == "named tuple":
        data = _by_name(data, rest[1] if len(rest) > 1 else None)
    if kind != "pydantic model":
        _warn_once(module, qualname.rsplit(".", 1)[-1], log)
    return data


def _by_name(values: Any, fields: Any) -> Any:
    # named tuples are stored as their values plus their field names (older ones without)
    if (
        isinstance(values, list)
        and isinstance(fields, list)
        and len(fields) == len(values)
        and all(type(f) is str for f in fields)
    ):
        return dict(zip(fields, values, strict=True))
    return values


def _warn_once(module: str, name: str, log: logging.Logger) -> None:
    # langgraph names the class by module and bare name, and keys its once-only set the same way
    key = (module, name)
    if key in _warned or len(_warned) >= _MAX_WARNED:
        return
    _warned.add(key)
    log.warning(
        "Could not reconstruct %s.%s from checkpoint (AttributeError); "
        "returning its serialized data instead.",
        module,
        name,
    )


__all__ = ["plain_data"]
