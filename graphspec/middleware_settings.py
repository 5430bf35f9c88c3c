"""The settings each prebuilt middleware takes, read from its constructor's signature.

A spec stores a prebuilt middleware's `settings` as the keyword arguments of its class in
`engine.agents.middleware` (the mirror of `langchain.agents.middleware`). This module turns the
constructor into a list of `Setting`s, each with a JSON-friendly kind, so the studio can draw a
form and the validator can report a missing or unknown setting before `create_agent` does.

Parameters a JSON file cannot hold (callables such as `token_counter`, exception classes) are
left out; a spec cannot set them, so their defaults apply.
"""

from __future__ import annotations

import collections.abc
import importlib
import inspect
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal

from graphspec.model import PREBUILT_MIDDLEWARE

Kind = Literal["bool", "int", "float", "str", "choice", "model", "tools", "json"]
"""How a setting is written: `model` is a "provider:model" string, `tools` a list of tool
names, `json` any JSON value (dicts, lists, pairs)."""

MODEL_SETTINGS = frozenset({"model", "first_model", "summarizer"})
"""Parameters typed `Any` that take a chat model, written in a spec as "provider:model"."""


@dataclass(frozen=True)
class Setting:
    name: str
    kind: Kind
    required: bool
    """The constructor has no default for it: create_agent cannot be built without it."""
    default: Any = None
    """The constructor's default, when it is a JSON value (else None)."""
    choices: tuple[str, ...] = ()
    """For `choice`: the allowed strings."""
    nullable: bool = False
    """None (left empty) is accepted."""


def middleware_class(name: str) -> type | None:
    """The engine class of prebuilt middleware `name`, or None if the engine lacks it."""
    module = importlib.import_module("engine.agents.middleware")
    return getattr(module, PREBUILT_MIDDLEWARE[name], None)


def _args(tp: Any) -> tuple[Any, ...]:
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return typing.get_args(tp)
    return (tp,)


def _is_callable(tp: Any) -> bool:
    origin = typing.get_origin(tp) or tp
    return origin in (collections.abc.Callable, typing.Callable) or (
        typing.get_origin(tp) is tuple
        and any(typing.get_origin(a) is type for a in typing.get_args(tp))
    )


def _kind(name: str, tp: Any) -> tuple[Kind | None, tuple[str, ...], bool]:
    """(kind, choices, nullable) for a parameter's type; kind None if JSON cannot hold it."""
    parts = [a for a in _args(tp) if not _is_callable(a)]
    nullable = type(None) in parts
    parts = [a for a in parts if a is not type(None)]
    if not parts:
        return None, (), nullable
    if name in MODEL_SETTINGS and parts == [Any]:
        return "model", (), nullable
    if name == "tools":
        return "tools", (), True
    literals = [v for a in parts if typing.get_origin(a) is Literal for v in typing.get_args(a)]
    if literals and len(literals) == sum(len(typing.get_args(a)) for a in parts):
        return "choice", tuple(str(v) for v in literals), nullable
    if len(parts) == 1 and parts[0] in (bool, int, float, str):
        return {bool: "bool", int: "int", float: "float", str: "str"}[parts[0]], (), nullable
    if str in parts and not any(typing.get_origin(a) in (dict, list, tuple) for a in parts):
        return "str", (), nullable  # e.g. PII's detector: a regex pattern (code is not JSON)
    return "json", (), nullable


def _json_default(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)) and all(
        isinstance(v, (bool, int, float, str)) for v in value
    ):
        return list(value)
    return None


def settings_for(name: str) -> list[Setting]:
    """The settings of prebuilt middleware `name`, in constructor order ([] if the engine lacks
    the class)."""
    cls = middleware_class(name)
    if cls is None:
        return []
    try:
        hints = typing.get_type_hints(cls.__init__)
    except (NameError, TypeError):
        hints = {}
    out = []
    for param in inspect.signature(cls.__init__).parameters.values():
        if param.name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        kind, choices, nullable = _kind(param.name, hints.get(param.name, Any))
        if kind is None:
            continue
        required = param.default is inspect.Parameter.empty
        default = None if required else _json_default(param.default)
        nullable = nullable or (not required and default is None)
        out.append(Setting(param.name, kind, required, default, choices, nullable))
    return out


def accepts_any_keyword(name: str) -> bool:
    cls = middleware_class(name)
    return cls is not None and any(
        p.kind == p.VAR_KEYWORD for p in inspect.signature(cls.__init__).parameters.values()
    )


__all__ = ["Setting", "middleware_class", "settings_for", "accepts_any_keyword", "MODEL_SETTINGS"]
