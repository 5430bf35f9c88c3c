"""The classes a stored checkpoint may name, found without importing anything.

Importing a module runs its top-level code, so a checkpoint file (which anyone can hand over
beside a spec) must never make the serializer import what it names. A stored class reference
(module, qualified name) resolves to:

- a class of the fixed registry below: value types, langchain-core messages and documents,
  engine types. These modules are imported by this module's own code, whatever a blob says;
- otherwise a class of a module the process has *already* imported: the user's own state
  classes (their graph code imported them before any checkpoint of theirs is read). The name
  is looked up in the module's namespace directly, so no module `__getattr__` hook runs either.

Anything else is a `LookupError` saying why: `NameNotFound` when the module is imported but
holds no such name (a class renamed since, one defined inside a function, or one pydantic's
`create_model` made), which the serializer reads back as the value's plain data.
"""

from __future__ import annotations

import sys
import types
from functools import cache

_CLASS_DICT = type.__dict__["__dict__"]  # a class's namespace, bypassing metaclass hooks
LOCAL = "<locals>"  # in the qualified name of a class defined inside a function


class NameNotFound(LookupError):
    """The stored name is in no module's namespace: no class to rebuild the value as."""


@cache
def known_classes() -> dict[tuple[str, str], type]:
    """(module, qualified name) -> class of every type the engine itself may store."""
    import collections
    import ipaddress
    import re

    from langchain_core import messages
    from langchain_core.documents import Document

    from engine import types as engine_types
    from engine.checkpoint.serde.types import _DeltaSnapshot

    classes: list[type] = [
        collections.deque,
        _DeltaSnapshot,
        re.Pattern,
        *(getattr(ipaddress, n) for n in IP_CLASSES),
        *path_classes(),
        Document,
        *(getattr(messages, n) for n in _MESSAGE_CLASSES),
        *(getattr(engine_types, n) for n in _ENGINE_CLASSES),
    ]
    return {(c.__module__, c.__qualname__): c for c in classes}


IP_CLASSES = ("IPv4Address", "IPv4Interface", "IPv4Network", "IPv6Address", "IPv6Interface",
              "IPv6Network")  # fmt: skip
_MESSAGE_CLASSES = tuple(
    f"{kind}{suffix}"
    for kind in ("Base", "Human", "AI", "System", "Chat", "Tool", "Function")
    for suffix in ("Message", "MessageChunk")
) + ("RemoveMessage",)
_ENGINE_CLASSES = ("Send", "Interrupt", "Command", "Overwrite", "RetryPolicy", "CachePolicy",
                   "PregelTask", "StateSnapshot")  # fmt: skip


@cache
def path_classes() -> frozenset[type]:
    """The pathlib classes a stored path may be rebuilt as (never a subclass from elsewhere)."""
    import pathlib

    return frozenset({pathlib.PurePath, pathlib.PurePosixPath, pathlib.PureWindowsPath,
                      pathlib.Path, pathlib.PosixPath, pathlib.WindowsPath})  # fmt: skip


def find_class(module: str, qualname: str) -> object:
    """The object `module.qualname` names, from the registry or an already imported module.

    Raises LookupError (never imports): the module is not imported, or NameNotFound: it has no
    such name (a class defined inside a function never has one, imported or not).
    """
    found = known_classes().get((module, qualname))
    if found is not None:
        return found
    if LOCAL in qualname:
        raise NameNotFound(f"{module}.{qualname} is defined inside a function")
    mod = sys.modules.get(module)
    if not isinstance(mod, types.ModuleType):
        raise LookupError(
            f"module {module!r} is not imported, and reading a checkpoint never imports code "
            "(import it before loading, if it is yours)"
        )
    namespace = object.__getattribute__(mod, "__dict__")
    obj: object = None
    for part in qualname.split("."):
        if part not in namespace:
            raise NameNotFound(f"module {module!r} has no class {qualname!r}")
        obj = namespace[part]
        namespace = _CLASS_DICT.__get__(obj) if isinstance(obj, type) else {}  # nested classes
    return obj


__all__ = ["IP_CLASSES", "LOCAL", "NameNotFound", "find_class", "known_classes", "path_classes"]
