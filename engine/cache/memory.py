"""Thread-safe in-process cache with TTL expiry (mirrors `langgraph.cache.memory`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cache.base import BaseCache, FullKey, Namespace, ValueT


class InMemoryCache(BaseCache[ValueT]):
    """`BaseCache` kept in a dict, guarded by a re-entrant lock.

    An entry set with `ttl` seconds expires at `time.time() + ttl` (so ttl=0 is never
    returned); expired entries are dropped when a `get` meets them. Setting a key again
    replaces the value and its expiry. The async methods run the sync ones.
    """

    def __init__(self, *, serde: Any = None) -> None:
        super().__init__(serde=serde)
        self._cache: dict[Namespace, dict[str, tuple[Any, float | None]]] = {}
        self._lock = threading.RLock()

    def get(self, keys: Sequence[FullKey]) -> dict[FullKey, ValueT]:
        """Return the live entries among `keys`, keyed by `(tuple(namespace), key)`."""
        found: dict[FullKey, ValueT] = {}
        now = time.time()
        with self._lock:
            for namespace, key in keys:
                ns = tuple(namespace)
                entries = self._cache.get(ns)
                if entries is None or key not in entries:
                    continue
                stored, expiry = entries[key]
                if expiry is None or now < expiry:
                    found[(ns, key)] = self._decode(stored)
                else:
                    del entries[key]
        return found

    async def aget(self, keys: Sequence[FullKey]) -> dict[FullKey, ValueT]:
        """Async `get`."""
        return self.get(keys)

    def set(self, pairs: Mapping[FullKey, tuple[ValueT, int | None]]) -> None:
        """Store `{(namespace, key): (value, ttl_seconds | None)}`."""
        now = time.time()
        with self._lock:
            for (namespace, key), (value, ttl) in pairs.items():
                expiry = None if ttl is None else now + ttl
                self._cache.setdefault(tuple(namespace), {})[key] = (self._encode(value), expiry)

    async def aset(self, pairs: Mapping[FullKey, tuple[ValueT, int | None]]) -> None:
        """Async `set`."""
        self.set(pairs)

    def clear(self, namespaces: Sequence[Namespace] | None = None) -> None:
        """Drop the given namespaces (exact match, not prefixes), or everything if None."""
        with self._lock:
            if namespaces is None:
                self._cache.clear()
            else:
                for namespace in namespaces:
                    self._cache.pop(tuple(namespace), None)

    async def aclear(self, namespaces: Sequence[Namespace] | None = None) -> None:
        """Async `clear`."""
        self.clear(namespaces)


__all__ = ["InMemoryCache"]
