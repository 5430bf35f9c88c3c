"""The cache interface used for node-result caching (mirrors `langgraph.cache.base`).

Entries are addressed by a full key `(namespace, key)`, where `namespace` is a tuple of
strings; `set` takes `{full_key: (value, ttl_seconds_or_None)}` and `get` returns only the
keys that are present and unexpired.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

from engine.checkpoint.serde.jsonplus import JsonPlusSerializer

ValueT = TypeVar("ValueT")
Namespace = tuple[str, ...]
FullKey = tuple[Namespace, str]


class BaseCache(ABC, Generic[ValueT]):
    """Abstract cache with sync and async get/set/clear.

    Args:
        serde: A serializer with `dumps_typed` / `loads_typed` (as in
            `langgraph.checkpoint.serde`); by default langgraph's, a JsonPlusSerializer without
            pickle, which a program's own cache class reads as `self.serde`. Every `get`
            returns a fresh decoded copy.
    """

    serde: Any = JsonPlusSerializer(pickle_fallback=False)

    def __init__(self, *, serde: Any = None) -> None:
        self.serde = serde or self.serde

    def _encode(self, value: ValueT) -> Any:
        """Value as stored: itself, or `serde.dumps_typed(value)` when a serde is set."""
        return value if self.serde is None else self.serde.dumps_typed(value)

    def _decode(self, stored: Any) -> ValueT:
        """Inverse of `_encode`."""
        return stored if self.serde is None else self.serde.loads_typed(stored)

    @abstractmethod
    def get(self, keys: Sequence[FullKey]) -> dict[FullKey, ValueT]:
        """Return `{full_key: value}` for the keys that are cached and not expired."""

    @abstractmethod
    async def aget(self, keys: Sequence[FullKey]) -> dict[FullKey, ValueT]:
        """Async `get`."""

    @abstractmethod
    def set(self, pairs: Mapping[FullKey, tuple[ValueT, int | None]]) -> None:
        """Store each value; a ttl (seconds) makes it expire, None keeps it forever."""

    @abstractmethod
    async def aset(self, pairs: Mapping[FullKey, tuple[ValueT, int | None]]) -> None:
        """Async `set`."""

    @abstractmethod
    def clear(self, namespaces: Sequence[Namespace] | None = None) -> None:
        """Drop every entry of the given namespaces (exact match), or everything if None."""

    @abstractmethod
    async def aclear(self, namespaces: Sequence[Namespace] | None = None) -> None:
        """Async `clear`."""


__all__ = ["BaseCache", "FullKey", "Namespace", "ValueT"]
