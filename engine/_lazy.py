"""A package's names loaded on first use (PEP 562): its `__getattr__` imports a name's home
module when the name is first read and keeps the value in the package, so importing the
package does not import what only some callers need."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, homes: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """The `__getattr__` of `package` (whose globals are `namespace`): name -> its home module."""

    def __getattr__(name: str) -> Any:
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(homes[name]), name)
        namespace[name] = value
        return value

    return __getattr__


__all__ = ["lazy_names"]
