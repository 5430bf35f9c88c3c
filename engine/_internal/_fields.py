"""langgraph._internal._fields: how langgraph reads the fields of a state or config schema
(whether a key is optional, required or read-only, its default, its description), at
langgraph's private path for the packages and tests that call it."""

from __future__ import annotations

import dataclasses
import types
import typing
import weakref
from collections.abc import Iterator, Sequence
from typing import Annotated, Any, NotRequired, Required, Union

from pydantic_core import PydanticUndefined
from typing_extensions import ReadOnly

from engine._fields import _annotated_keys, update_as_tuples


def _is_optional_type(type_: Any) -> bool:
    """Whether None is a value of `type_`: a union with None (at any depth), an Annotated or a
    TypeVar bound to one, or None itself (not `type(None)`)."""
    if isinstance(type_, types.UnionType):
        return any(arg is type(None) or _is_optional_type(arg) for arg in type_.__args__)
    if hasattr(type_, "__origin__") and hasattr(type_, "__args__"):
        origin = typing.get_origin(type_)
        if origin is Union:
            return any(arg is type(None) or _is_optional_type(arg) for arg in type_.__args__)
        if origin is Annotated:
            return _is_optional_type(type_.__args__[0])
        return origin is None
    if getattr(type_, "__bound__", None) is not None:
        return _is_optional_type(type_.__bound__)
    return type_ is None


def _is_required_type(type_: Any) -> bool | None:
    """True for Required[...], False for NotRequired[...], None when marked neither (looking
    inside Annotated and other parametrised wrappers)."""
    origin = typing.get_origin(type_)
    if origin is Required:
        return True
    if origin is NotRequired:
        return False
    if origin is Annotated or getattr(origin, "__args__", None):
        return _is_required_type(type_.__args__[0])
    return None


def _is_readonly_type(type_: Any) -> bool:
    """Whether `type_` is ReadOnly[...] (possibly inside Annotated)."""
    origin = typing.get_origin(type_)
    if origin is Annotated:
        return _is_readonly_type(type_.__args__[0])
    return origin is ReadOnly


def get_field_default(name: str, type_: Any, schema: type[Any]) -> Any:
    """A key's default: `...` when it is required, None when it may be left out (a TypedDict's
    optional key, NotRequired, an Optional type), else a dataclass field's own default."""
    required = _is_required_type(type_)
    if name in getattr(schema, "__optional_keys__", frozenset()):
        return ... if required else None
    if required is not None:
        return ... if required else None
    if dataclasses.is_dataclass(schema):
        for field in dataclasses.fields(schema):
            if field.name != name:
                continue
            if field.default is not dataclasses.MISSING and field.default is not ...:
                return field.default
            if field.default_factory is not dataclasses.MISSING:
                return field.default_factory()
    return None if _is_optional_type(type_) else ...


def get_enhanced_type_hints(type: type[Any]) -> Iterator[tuple[str, Any, Any, str | None]]:
    """(name, type, default, description) of each field of a config schema: a pydantic
    field's default and description, or the class attribute a TypedDict or dataclass sets."""
    model_fields = getattr(type, "model_fields", None) or {}
    for name, typ in typing.get_type_hints(type).items():
        default = description = None
        if (field := model_fields.get(name)) is not None:
            description = getattr(field, "description", None)
            if field.default not in (None, PydanticUndefined):
                default = field.default
        if name in getattr(type, "__dict__", {}):
            default = type.__dict__[name]
        yield name, typ, default, description


def get_update_as_tuples(input: Any, keys: Sequence[str]) -> list[tuple[str, Any]]:
    """(key, value) pairs of a state object for `keys`, leaving out None values as langgraph
    does (kept when the default is not None or, for pydantic, the field was set)."""
    pairs = dict(update_as_tuples(input) or ())
    return [(k, pairs[k]) for k in keys if k in pairs]


_ANNOTATED_KEYS: weakref.WeakKeyDictionary[type, tuple[str, ...]] = weakref.WeakKeyDictionary()


def get_cached_annotated_keys(obj: type[Any]) -> tuple[str, ...]:
    """The annotated names of a class and its bases, base first (cached per class)."""
    if not isinstance(obj, type):
        raise TypeError(f"Expected a type, got {type(obj)}. ")
    if obj not in _ANNOTATED_KEYS:
        _ANNOTATED_KEYS[obj] = tuple(_annotated_keys(obj))
    return _ANNOTATED_KEYS[obj]
