"""langgraph._internal._serde: the classes a graph's checkpoints may hold, read off its state
schemas and channels, as (module, class name) pairs, for a serializer that only revives listed
classes (langgraph's strict msgpack mode).

Listed: pydantic models, dataclasses and enums, found through unions, Annotated, Required /
NotRequired, containers, NewType and the fields of TypedDicts, models and dataclasses (a
TypedDict itself is a dict when saved, so it is not listed). Forward references that cannot be
resolved are skipped.
"""

from __future__ import annotations

import dataclasses
import logging
import sys
import types
import typing
from collections import deque
from enum import Enum
from typing import Annotated, Any, Literal, NotRequired, Required, Union

from pydantic import BaseModel
from typing_extensions import is_typeddict

logger = logging.getLogger(__name__)

Allowlist = set[tuple[str, ...]]

_MESSAGE_CLASSES = (
    "BaseMessage", "BaseMessageChunk", "HumanMessage", "HumanMessageChunk", "AIMessage",
    "AIMessageChunk", "SystemMessage", "SystemMessageChunk", "ChatMessage", "ChatMessageChunk",
    "ToolMessage", "ToolMessageChunk", "FunctionMessage", "FunctionMessageChunk", "RemoveMessage",
)  # fmt: skip
_CONTAINERS = (list, set, tuple, dict, deque, frozenset)
_WRAPPERS = (Annotated, Required, NotRequired)


def curated_core_allowlist() -> Allowlist:
    """langchain's message classes, which any graph with messages saves."""
    from langchain_core import messages

    classes = (getattr(messages, name, None) for name in _MESSAGE_CLASSES)
    return {(cls.__module__, cls.__name__) for cls in classes if cls is not None}


def build_serde_allowlist(
    *, schemas: list[Any] | None = None, channels: dict[str, Any] | None = None
) -> Allowlist:
    """The message classes plus what the schemas and channels name."""
    schemas = [schema for schema in schemas or () if schema is not None]
    return curated_core_allowlist() | collect_allowlist_from_schemas(
        schemas=schemas, channels=channels
    )


def collect_allowlist_from_schemas(
    *, schemas: list[Any] | None = None, channels: dict[str, Any] | None = None
) -> Allowlist:
    """The classes named by `schemas` and by the value and update types of `channels`."""
    walk = _Walk()
    for schema in schemas or ():
        walk.visit(schema)
    for channel in (channels or {}).values():
        for attr in ("ValueType", "UpdateType"):
            if (typ := getattr(channel, attr, None)) is not None:
                walk.visit(typ)
    return walk.found


def apply_checkpointer_allowlist(checkpointer: Any, allowlist: Allowlist | None) -> Any:
    """`checkpointer` restricted to `allowlist` when it can be; as it is otherwise."""
    if not checkpointer or allowlist is None or checkpointer is True:
        return checkpointer
    restrict = getattr(checkpointer, "with_allowlist", None)
    if restrict is None:
        logger.warning(
            "Checkpointer does not support with_allowlist; strict msgpack allowlist will be "
            "skipped."
        )
        return checkpointer
    return restrict(allowlist)


class _Walk:
    """One walk over types; each type is visited once (recursive dataclasses end)."""

    def __init__(self) -> None:
        self.found: Allowlist = set()
        self._seen: set[Any] = set()
        self._seen_ids: set[int] = set()

    def _first_visit(self, typ: Any) -> bool:
        try:
            if typ in self._seen:
                return False
            self._seen.add(typ)
        except TypeError:  # unhashable (some typing constructs): by identity
            if id(typ) in self._seen_ids:
                return False
            self._seen_ids.add(id(typ))
        return True

    def visit(self, typ: Any) -> None:
        if not self._first_visit(typ) or typ is Any or typ is None or typ is Literal:
            return
        origin = typing.get_origin(typ)
        if isinstance(typ, types.UnionType) or origin is Union or origin in _CONTAINERS:
            for arg in typing.get_args(typ):
                self.visit(arg)
        elif origin in _WRAPPERS:
            if args := typing.get_args(typ):
                self.visit(args[0])
        elif origin is Literal:
            return
        elif hasattr(typ, "__supertype__"):  # NewType
            self.visit(typ.__supertype__)
        elif is_typeddict(typ):
            for field_type in _hints(typ).values():
                self.visit(field_type)
        elif _is_model(typ) or dataclasses.is_dataclass(typ):
            self._add(typ)
            for field_type in _hints(typ).values() or _declared_field_types(typ):
                self.visit(field_type)
        elif isinstance(typ, type) and issubclass(typ, Enum):
            self._add(typ)

    def _add(self, typ: Any) -> None:
        if name := getattr(typ, "__name__", None):
            self.found.add((typ.__module__, name))


def _hints(typ: Any) -> dict[str, Any]:
    """The resolved annotations of a class, {} when one cannot be resolved."""
    module = sys.modules.get(getattr(typ, "__module__", ""))
    try:
        return typing.get_type_hints(
            typ,
            globalns=module.__dict__ if module else None,
            localns=dict(vars(typ)) if hasattr(typ, "__dict__") else None,
            include_extras=True,
        )
    except Exception:  # noqa: BLE001 - an unresolvable forward reference: fall back
        return {}


def _declared_field_types(typ: Any) -> list[Any]:
    """Field types as the class itself records them, for when annotations do not resolve."""
    if dataclasses.is_dataclass(typ):
        return [field.type for field in dataclasses.fields(typ)]
    if fields := getattr(typ, "model_fields", None):
        return [f.annotation for f in fields.values() if f.annotation is not None]
    legacy = getattr(typ, "__fields__", None) or {}
    return [f.outer_type_ for f in legacy.values() if getattr(f, "outer_type_", None) is not None]


def _is_model(typ: Any) -> bool:
    if not isinstance(typ, type):
        return False
    if issubclass(typ, BaseModel):
        return True
    try:
        from pydantic.v1 import BaseModel as LegacyModel
    except ImportError:
        return False
    return issubclass(typ, LegacyModel)
