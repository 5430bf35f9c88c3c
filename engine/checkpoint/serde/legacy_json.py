"""Values langgraph stored as "json" before its msgpack format (old checkpoint files).

Plain JSON, with LangChain constructor objects `{"lc": 1 | 2, "type": "constructor", "id":
[...module path, "Name"], "kwargs": {...}}`. An object is rebuilt only when its class is one the
engine stores itself (Interrupt, Send, Command, messages...) or one the caller allowed by its
exact id (`allowed_json_modules`, or True for any class already imported). Nothing is imported:
langgraph's modules are read as the engine's, LangChain's old ids through langchain-core's own
mapping. Anything refused stays the plain dict it was stored as.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from engine.checkpoint.serde.registry import find_class, known_classes

logger = logging.getLogger(__name__)

Allowed = set[tuple[str, ...]] | bool | None


def loads_legacy_json(payload: bytes, allowed: Allowed) -> Any:
    return json.loads(payload, object_hook=lambda value: _revive(value, allowed))


def _revive(value: dict, allowed: Allowed) -> Any:
    if value.get("type") != "constructor" or not isinstance(value.get("id"), list):
        return value
    if value.get("lc") not in (1, 2) or not all(isinstance(p, str) for p in value["id"]):
        return value
    ident = tuple(value["id"])
    module, name = _module_and_name(ident, value["lc"])
    if module is None:
        return value
    safe = (module, name) in known_classes()
    if not safe and not (allowed is True or (allowed and ident in allowed)):
        logger.warning("Refused to rebuild %s from a json checkpoint value", ".".join(ident))
        return value
    try:
        cls = find_class(module, name)
    except LookupError as exc:
        logger.warning("Cannot rebuild %s: %s", ".".join(ident), exc)
        return value
    if not isinstance(cls, type) or issubclass(cls, BaseException):
        return None
    kwargs = value.get("kwargs")
    args = value.get("args")
    try:  # a class the engine stores or the caller allowed: its own constructor
        return cls(*(args or ()), **(kwargs if isinstance(kwargs, dict) else {}))
    except Exception as exc:
        logger.warning("Failed to rebuild %s (%s); returning None", ".".join(ident), exc)
        return None


def _module_and_name(ident: tuple[str, ...], lc: int) -> tuple[str | None, str]:
    """The module an id names, read as the engine's for langgraph's own classes."""
    if lc == 1:  # LangChain's serializable ids: its mapping gives the class's real place
        from langchain_core.load.mapping import SERIALIZABLE_MAPPING

        target = SERIALIZABLE_MAPPING.get(ident, ident)
        return ".".join(target[:-1]) or None, target[-1]
    *module, name = ident
    if module and module[0] == "langgraph":
        module = ["engine", *module[1:]]
    return ".".join(module) or None, name
