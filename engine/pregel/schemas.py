"""JSON schemas of a graph's input, output and context, built as langgraph builds them.

A graph reading one channel takes that channel's type (a pydantic root model titled
"<name>Input"); a graph reading several takes a model with one optional field per channel.
A StateGraph describes its input/output schema class itself: pydantic and TypedDict classes
give their own JSON schema, other classes (dataclasses, plain annotated classes) a model
built from their keys, with the defaults langgraph gives them.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping, Sequence
from inspect import isclass
from typing import Any, NotRequired, Required

from pydantic import BaseModel, RootModel, TypeAdapter, create_model
from typing_extensions import is_typeddict

_NO_DEFAULT = ...


def root_model(name: str, typ: Any) -> type[BaseModel]:
    """A pydantic model whose value is `typ` itself, titled `name`."""
    return type(name, (RootModel[typ],), {"__module__": __name__})


def channels_model(
    name: str, channels: Mapping[str, Any], keys: Sequence[str], value: bool
) -> type[BaseModel]:
    """A model with an optional field per channel (its value type, or its update type)."""
    return create_model(
        name,
        **{
            k: (channels[k].ValueType if value else channels[k].UpdateType, None)
            for k in keys
            if k in channels and hasattr(channels[k], "UpdateType")
        },
    )


def context_jsonschema(context_schema: Any) -> dict[str, Any] | None:
    if context_schema is None:
        return None
    if isclass(context_schema) and issubclass(context_schema, BaseModel):
        return context_schema.model_json_schema()
    if is_typeddict(context_schema) or dataclasses.is_dataclass(context_schema):
        return TypeAdapter(context_schema).json_schema()
    raise ValueError(
        f"Invalid context schema type: {context_schema}. Must be a BaseModel, TypedDict or "
        "dataclass."
    )


def state_jsonschema(
    typ: Any, keys: Sequence[str], channels: Mapping[str, Any], name: str
) -> dict[str, Any]:
    """A StateGraph's input or output schema class as JSON schema."""
    if isclass(typ) and issubclass(typ, BaseModel):
        return typ.model_json_schema()
    if is_typeddict(typ):
        return TypeAdapter(typ).json_schema()
    if list(keys) == ["__root__"]:
        return create_model(name, root=(channels["__root__"].UpdateType, None)).model_json_schema()
    return create_model(
        name,
        **{
            k: (channels[k].UpdateType, _field_default(k, channels[k].UpdateType, typ))
            for k in keys
            if k in channels and hasattr(channels[k], "UpdateType")
        },
    ).model_json_schema()


def _field_default(name: str, annotation: Any, schema: Any) -> Any:
    """Required keys have no default; optional ones (NotRequired, Optional, a dataclass field
    with a default) default to what langgraph shows."""
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    origin = typing.get_origin(annotation)
    if name in getattr(schema, "__optional_keys__", ()) and origin is not Required:
        return None
    if origin is Required:
        return _NO_DEFAULT
    if origin is NotRequired:
        return None
    if dataclasses.is_dataclass(schema):
        for field in dataclasses.fields(schema):
            if field.name == name:
                if field.default is not dataclasses.MISSING and field.default is not ...:
                    return field.default
                if field.default_factory is not dataclasses.MISSING:
                    return field.default_factory()
    if type(None) in typing.get_args(annotation):
        return None
    return _NO_DEFAULT


__all__ = ["channels_model", "context_jsonschema", "root_model", "state_jsonschema"]
