"""AsyncSqliteStore: the SQLite store for async code (mirrors `langgraph.store.sqlite.aio`).

Same storage and results as `SqliteStore`. The connection is either an `aiosqlite`
connection (as langgraph's takes; the store's SQL runs on that connection's own thread) or a
`sqlite3.Connection` opened with `check_same_thread=False` (run on worker threads, as
`from_conn_string` opens it: no aiosqlite needed). Embeddings go through the async methods.

Like langgraph's, it must be made inside a running event loop, and its sync methods work
from other threads (a sync node of an async graph) but raise `asyncio.InvalidStateError` when
called on the event loop's own thread.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from engine.store.base import BaseStore, Op, Result, TTLConfig
from engine.store.sqlite import base as sync_base
from engine.store.sqlite import batch
from engine.store.sqlite.base import BaseSqliteStore, SqliteIndexConfig

logger = logging.getLogger(__name__)
T = TypeVar("T")


def _off_loop(method: Callable) -> Callable:
    """A sync method: run its async twin on the store's loop, refused on that loop's thread
    (it would wait on itself)."""
    name = method.__name__

    @functools.wraps(method)
    def wrapper(store: AsyncSqliteStore, *args: Any, **kwargs: Any) -> Any:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is store.loop:
            raise asyncio.InvalidStateError(
                f"Synchronous calls to {type(store).__name__} detected in the main event loop. "
                "This can lead to deadlocks or performance issues. Please use the asynchronous "
                f"interface for main thread operations. Specifically, replace `store.{name}(...)` "
                f"with `await store.a{name}(...) "  # sic: langgraph's message has no closing backtick
            )
        return method(store, *args, **kwargs)

    return wrapper


class AsyncSqliteStore(BaseSqliteStore, BaseStore):
    """A `BaseStore` in a SQLite database for async code (see `SqliteStore` for the args)."""

    def __init__(
        self,
        conn: Any,
        *,
        deserializer: Callable[[Any], dict[str, Any]] | None = None,
        index: SqliteIndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> None:
        super().__init__()
        self.loop = asyncio.get_running_loop()
        self._configure(conn, deserializer, index, ttl)
        self.lock = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self._stop_sweeping = asyncio.Event()

    @classmethod
    @asynccontextmanager
    async def from_conn_string(
        cls,
        conn_string: str,
        *,
        index: SqliteIndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> AsyncIterator[AsyncSqliteStore]:
        """A store on its own connection to `conn_string`, closed on exit."""
        conn = await asyncio.to_thread(sync_base.connect, conn_string)
        try:
            yield cls(conn, index=index, ttl=ttl)
        finally:
            await asyncio.to_thread(conn.close)

    async def _on_connection(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(connection)` where the connection may be used, off the event loop."""
        if isinstance(self.conn, sqlite3.Connection):
            return await asyncio.to_thread(fn, self.conn)
        # an aiosqlite connection: its sqlite3 connection belongs to its worker thread
        return await self.conn._execute(lambda: fn(self.conn._conn))

    async def setup(self) -> None:
        """Create the tables, or check an existing file's; idempotent."""
        async with self.lock:
            if not self.is_setup:
                await self._on_connection(sync_base.setup_tables)
                self.is_setup = True

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        planned = batch.plan(ops, self._settings)
        docs = queries = []
        if planned.doc_texts:
            docs = await self.embeddings.aembed_documents([t for *_, t in planned.doc_texts])
        if planned.queries:
            queries = await self.embeddings.aembed_documents(planned.queries)
        await self.setup()
        async with self.lock:
            return await self._on_connection(
                lambda conn: sync_base.run_plan(conn, planned, self._settings, docs, queries)
            )

    @_off_loop
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return asyncio.run_coroutine_threadsafe(self.abatch(ops), self.loop).result()

    # the sync API from another thread: each method is one batch run on the loop
    get = _off_loop(BaseStore.get)
    search = _off_loop(BaseStore.search)
    put = _off_loop(BaseStore.put)
    delete = _off_loop(BaseStore.delete)
    list_namespaces = _off_loop(BaseStore.list_namespaces)

    # --- TTL ---

    async def sweep_ttl(self) -> int:
        """Delete the expired items; returns how many were deleted."""
        await self.setup()
        async with self.lock:
            return await self._on_connection(sync_base.sweep)

    async def start_ttl_sweeper(self, sweep_interval_minutes: int | None = None) -> asyncio.Task:
        """Sweep every `sweep_interval_minutes` (else the TTL config's, else 5) in a task until
        `stop_ttl_sweeper`; without a TTL config the task does nothing."""
        if not self.ttl_config:
            return asyncio.create_task(asyncio.sleep(0))
        if self._sweeper is not None and not self._sweeper.done():
            return self._sweeper
        self._stop_sweeping.clear()
        seconds = self._sweep_interval(sweep_interval_minutes) * 60

        async def loop() -> None:
            while not self._stop_sweeping.is_set():
                try:
                    await asyncio.wait_for(self._stop_sweeping.wait(), timeout=seconds)
                    break
                except TimeoutError:
                    pass
                try:
                    swept = await self.sweep_ttl()
                    if swept:
                        logger.info("Store swept %d expired items", swept)
                except Exception:
                    logger.exception("Store TTL sweep failed")

        self._sweeper = asyncio.create_task(loop(), name="ttl_sweeper")
        return self._sweeper

    async def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper task; False if it is still running after `timeout` seconds."""
        if self._sweeper is None or self._sweeper.done():
            return True
        self._stop_sweeping.set()
        try:
            await asyncio.wait_for(asyncio.shield(self._sweeper), timeout=timeout)
        except TimeoutError:
            return False
        self._sweeper = None
        return True

    async def __aenter__(self) -> AsyncSqliteStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._stop_sweeping.set()  # the sweeper ends at its next wake-up


__all__ = ["AsyncSqliteStore"]
