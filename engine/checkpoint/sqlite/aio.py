"""AsyncSqliteSaver: the SQLite saver for async graphs (`ainvoke`, `astream`).

Same storage as `SqliteSaver`; the async methods run the sync ones on a worker thread (a lock
serialises use of the one connection), so the event loop never waits on disk.

    async with AsyncSqliteSaver.from_conn_string("checkpoints.sqlite") as saver:
        graph = builder.compile(checkpointer=saver)
        await graph.ainvoke(inputs, config)
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from engine.checkpoint.sqlite import CheckpointDatabaseError, SqliteSaver


class AsyncSqliteSaver(SqliteSaver):
    """`SqliteSaver` whose constructor helper is async; takes a `sqlite3.Connection` opened with
    `check_same_thread=False` (the async methods use it from worker threads)."""

    @classmethod
    @asynccontextmanager
    async def from_conn_string(  # type: ignore[override]
        cls, conn_string: str, *, timeout: float = 5.0
    ) -> AsyncIterator[AsyncSqliteSaver]:
        def connect() -> sqlite3.Connection:
            try:
                return sqlite3.connect(conn_string, check_same_thread=False, timeout=timeout)
            except sqlite3.Error as exc:
                raise CheckpointDatabaseError(
                    f"{conn_string}: cannot open database: {exc}"
                ) from exc

        conn = await asyncio.to_thread(connect)
        try:
            saver = cls(conn)
            saver._timeout = timeout
            await asyncio.to_thread(saver.setup)
            yield saver
        finally:
            await asyncio.to_thread(conn.close)

    async def asetup(self) -> None:
        await asyncio.to_thread(self.setup)


__all__ = ["AsyncSqliteSaver"]
