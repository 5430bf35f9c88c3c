"""langgraph._internal._pydantic: whether pydantic can take a type as a model field, at
langgraph's private path."""

from __future__ import annotations

import dataclasses
import sys
import typing
from typing import Any

import typing_extensions
from pydantic import BaseModel


def is_supported_by_pydantic(type_: Any) -> bool:
    """True for a dataclass, a pydantic model, or a TypedDict pydantic accepts: one from
    typing_extensions (typing's own only from Python 3.12). Plain classes and builtins: False."""
    if dataclasses.is_dataclass(type_) or (
        isinstance(type_, type) and issubclass(type_, BaseModel)
    ):
        return True
    accepted = [typing_extensions.TypedDict]
    if sys.version_info >= (3, 12):
        accepted.append(typing.TypedDict)  # noqa: TID251 - pydantic takes it from 3.12
    return any(base is kind for base in getattr(type_, "__orig_bases__", ()) for kind in accepted)
