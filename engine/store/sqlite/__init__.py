"""Long-term stores in SQLite (mirrors `langgraph.store.sqlite`): `SqliteStore` and, in
`aio`, `AsyncSqliteStore`."""

from engine.store.sqlite.aio import AsyncSqliteStore
from engine.store.sqlite.base import SqliteStore

__all__ = ["AsyncSqliteStore", "SqliteStore"]
