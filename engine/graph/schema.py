"""State schemas (TypedDict, dataclass, pydantic) -> channels, one per key."""

from __future__ import annotations

import dataclasses
import typing
from inspect import isclass, signature
from typing import Any, NotRequired, Required

from pydantic import BaseModel

from engine.channels.base import BaseChannel
from engine.channels.binop import BinaryOperatorAggregate
from engine.channels.delta import DeltaChannel, _concrete
from engine.channels.last_value import LastValue
from engine.managed import is_managed_value


def _strip_required(annotation: Any) -> Any:
    if typing.get_origin(annotation) in (Required, NotRequired):
        return typing.get_args(annotation)[0]
    return annotation


def schema_fields(schema: Any) -> dict[str, Any]:
    """Key -> annotation (with Annotated extras) of a state schema class."""
    if schema is None:
        return {}
    if isclass(schema) and issubclass(schema, BaseModel):
        hints = typing.get_type_hints(schema, include_extras=True)
        return {name: hints.get(name, f.annotation) for name, f in schema.model_fields.items()}
    try:
        hints = typing.get_type_hints(schema, include_extras=True)
    except NameError:
        # as langgraph: a state whose annotations name something undefined (a string
        # annotation, `from __future__ import annotations`) is refused at once, not read as
        # plain LastValue keys that lose their reducers
        raise
    except Exception:
        hints = dict(getattr(schema, "__annotations__", {}))
    if dataclasses.is_dataclass(schema):
        return {f.name: hints.get(f.name, f.type) for f in dataclasses.fields(schema)}
    if hints or hasattr(schema, "__annotations__"):
        # a class with no fields (`class S(dict): pass`, an empty TypedDict) has no keys: only a
        # schema with no annotations at all (int, dict) is one value, as langgraph decides
        return {k: v for k, v in hints.items() if k != "__slots__"}
    return {"__root__": schema}


def channel_for(name: str, annotation: Any) -> BaseChannel | type:
    """The channel (or managed value class) a key's annotation asks for."""
    annotation = _strip_required(annotation)
    if managed := _managed(annotation):
        return managed
    metadata = getattr(annotation, "__metadata__", ())
    if (channel := annotated_channel(annotation)) is not None:
        channel.key = name
        return channel
    if metadata and callable(metadata[-1]):
        reducer = metadata[-1]
        params = [
            p
            for p in signature(reducer).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        if len(params) != 2:
            raise ValueError(
                f"Invalid reducer signature. Expected (a, b) -> c. Got {signature(reducer)}"
            )
        channel = BinaryOperatorAggregate(annotation, reducer)
        channel.key = name
        return channel
    channel = LastValue(annotation)
    channel.key = name
    return channel


def annotated_channel(annotation: Any) -> BaseChannel | None:
    """The channel an `Annotated[T, ...]` names among its extras: an instance (used as is) or
    a channel class (made for T); None when it names none."""
    base = getattr(annotation, "__origin__", annotation)
    for item in getattr(annotation, "__metadata__", ()):
        if isinstance(item, BaseChannel):
            if isinstance(item, DeltaChannel):
                item.typ = _concrete(base)  # the key's type, as langgraph infers it
            return item
        if isclass(item) and issubclass(item, BaseChannel):
            return item(base)
    return None


def _managed(annotation: Any) -> type | None:
    metadata = getattr(annotation, "__metadata__", ())
    if metadata:
        last = typing.get_origin(metadata[-1]) or metadata[-1]
        if is_managed_value(last):
            return last
    if typing.get_origin(annotation) is not None and (args := typing.get_args(annotation)):
        if typing.get_origin(annotation) is not typing.Annotated:
            return _managed(args[0])
    return None


def coercer(schema: Any) -> Any:
    """dict -> schema instance for pydantic and dataclass schemas; None for dict-like ones."""
    if isclass(schema) and (issubclass(schema, BaseModel) or dataclasses.is_dataclass(schema)):
        return lambda values: schema(**values)
    return None
