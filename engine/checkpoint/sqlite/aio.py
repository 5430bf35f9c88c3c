"""AsyncSqliteSaver: the SQLite saver for async graphs (`ainvoke`, `astream`).

Same storage as `SqliteSaver`; the async methods run the sync ones on a worker thread (a lock
serialises use of the one connection), so the event loop never waits on disk.

    async with AsyncSqliteSaver.from_conn_string("checkpoints.sqlite") as saver:
        graph = builder.compile(checkpointer=saver)
        await graph.ainvoke(inputs, config)
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from engine.checkpoint.sqlite import SqliteSaver, connect


class AsyncSqliteSaver(SqliteSaver):
    """`SqliteSaver` whose constructor helper is async; takes a `sqlite3.Connection` opened with
    `check_same_thread=False` (the async methods use it from worker threads)."""

    @classmethod
    @asynccontextmanager
    async def from_conn_string(  # type: ignore[override]
        cls, conn_string: str, *, timeout: float = 5.0
    ) -> AsyncIterator[AsyncSqliteSaver]:
        conn = await asyncio.to_thread(connect, conn_string, timeout)
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
