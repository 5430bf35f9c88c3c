"""A node-result cache in a SQLite file (mirrors `langgraph.cache.sqlite`): entries outlive the
process, so a cached node is skipped in the next run of the program too."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cache.base import BaseCache, FullKey, Namespace, ValueT
from engine.checkpoint.serde.jsonplus import JsonPlusSerializer

_SCHEMA = """CREATE TABLE IF NOT EXISTS cache (
    ns TEXT NOT NULL,
    key TEXT NOT NULL,
    expiry REAL,
    type TEXT NOT NULL,
    value BLOB NOT NULL,
    PRIMARY KEY (ns, key)
)"""


def _ns(namespace: Namespace) -> str:
    return json.dumps(list(namespace))  # unambiguous, whatever the parts contain


class SqliteCache(BaseCache[ValueT]):
    """`BaseCache` in the SQLite file at `path`; one connection, guarded by a lock.

    Values go through `serde` (JsonPlusSerializer by default: nothing is imported to decode).
    An entry set with `ttl` seconds expires then and is deleted when a `get` meets it.
    """

    def __init__(self, *, path: str, serde: Any = None) -> None:
        super().__init__(serde=serde or JsonPlusSerializer())
        self._conn = sqlite3.connect(path, check_same_thread=False)
        self._lock = threading.RLock()
        with self._lock, self._conn:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(_SCHEMA)

    def get(self, keys: Sequence[FullKey]) -> dict[FullKey, ValueT]:
        """Return the live entries among `keys`, keyed by `(tuple(namespace), key)`."""
        found: dict[FullKey, ValueT] = {}
        now = time.time()
        with self._lock, self._conn:
            for namespace, key in keys:
                row = self._conn.execute(
                    "SELECT expiry, type, value FROM cache WHERE ns = ? AND key = ?",
                    (_ns(namespace), key),
                ).fetchone()
                if row is None:
                    continue
                expiry, type_, value = row
                if expiry is not None and now >= expiry:
                    self._conn.execute(
                        "DELETE FROM cache WHERE ns = ? AND key = ?", (_ns(namespace), key)
                    )
                    continue
                found[(tuple(namespace), key)] = self._decode((type_, value))
        return found

    async def aget(self, keys: Sequence[FullKey]) -> dict[FullKey, ValueT]:
        return await asyncio.to_thread(self.get, keys)

    def set(self, pairs: Mapping[FullKey, tuple[ValueT, int | None]]) -> None:
        """Store `{(namespace, key): (value, ttl_seconds | None)}`."""
        now = time.time()
        with self._lock, self._conn:
            for (namespace, key), (value, ttl) in pairs.items():
                type_, blob = self._encode(value)
                self._conn.execute(
                    "INSERT OR REPLACE INTO cache (ns, key, expiry, type, value) VALUES (?, ?, ?, ?, ?)",
                    (_ns(namespace), key, None if ttl is None else now + ttl, type_, blob),
                )

    async def aset(self, pairs: Mapping[FullKey, tuple[ValueT, int | None]]) -> None:
        await asyncio.to_thread(self.set, pairs)

    def clear(self, namespaces: Sequence[Namespace] | None = None) -> None:
        """Drop the given namespaces (exact match), or everything if None."""
        with self._lock, self._conn:
            if namespaces is None:
                self._conn.execute("DELETE FROM cache")
            else:
                self._conn.executemany(
                    "DELETE FROM cache WHERE ns = ?", [(_ns(ns),) for ns in namespaces]
                )

    async def aclear(self, namespaces: Sequence[Namespace] | None = None) -> None:
        await asyncio.to_thread(self.clear, namespaces)


__all__ = ["SqliteCache"]
