"""The SQLite store's tables: creating them in a file, checking one we created before.

- `store_items`: one row per item. `namespace` is its labels joined with '.' (labels cannot
  hold one), `value` the JSON text of the dict, `created_at` / `updated_at` UTC text with
  whole seconds (as langgraph's store keeps them, so items read back alike), `expires_at`
  unix seconds and `ttl_minutes` for TTL. `seq` (the rowid) grows with each write: it orders
  items written in the same second as langgraph's store returns them.
- `store_embeddings`: one float32 vector per (item, embedded field path).
- `store_schema`: one row, the layout version (the file's `user_version` is left to the
  checkpoint saver, which may share the file).

Table names differ from langgraph's (`store`, `store_vectors`), so both can sit in one file.
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 1

_CREATE = (
    """CREATE TABLE store_items (
        seq INTEGER PRIMARY KEY,
        namespace TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        expires_at REAL,
        ttl_minutes REAL,
        UNIQUE (namespace, key)
    )""",
    "CREATE INDEX store_items_expiry ON store_items (expires_at) WHERE expires_at IS NOT NULL",
    """CREATE TABLE store_embeddings (
        namespace TEXT NOT NULL,
        key TEXT NOT NULL,
        field TEXT NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (namespace, key, field)
    ) WITHOUT ROWID""",
    "CREATE TABLE store_schema (version INTEGER NOT NULL)",
)
TABLES = {
    "store_items": {"seq", "namespace", "key", "value", "created_at", "updated_at",
                    "expires_at", "ttl_minutes"},
    "store_embeddings": {"namespace", "key", "field", "vector"},
    "store_schema": {"version"},
}  # fmt: skip


class StoreDatabaseError(sqlite3.DatabaseError):
    """The file cannot hold this store (written by a newer version, or tables not ours)."""


def ensure(conn: sqlite3.Connection, path: str) -> None:
    """Create the tables if absent, else check they are the ones this version makes
    (inside the caller's write transaction)."""
    found = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    if "store_schema" not in found:
        if found & set(TABLES):
            raise StoreDatabaseError(
                f"{path}: store tables are incomplete; the file was not modified"
            )
        for statement in _CREATE:
            conn.execute(statement)
        conn.execute("INSERT INTO store_schema (version) VALUES (?)", (SCHEMA_VERSION,))
        return
    row = conn.execute("SELECT max(version) FROM store_schema").fetchone()
    version = row[0] if row else None
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise StoreDatabaseError(
            f"{path}: store schema version {version!r} was written by a newer version of this "
            f"program (this one reads up to {SCHEMA_VERSION}); the file was not modified"
        )
    for table, columns in TABLES.items():
        have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if not columns <= have:
            raise StoreDatabaseError(
                f"{path}: table {table!r} is missing or has other columns than the store "
                "expects; the file was not modified"
            )
