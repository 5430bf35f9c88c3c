"""The SQLite saver's tables: creating them, checking a file is ours, migrating older layouts.

Schema 2 (`PRAGMA user_version`), over schema 1:
- `blobs.chain_start`: on a list delta row, the version of the full copy its chain starts at,
  so a read fetches a chain with one range scan instead of walking it row by row;
- `threads`: one row per (thread, namespace): checkpoint count, newest checkpoint and its step,
  kept by every put, so listing threads and their summaries reads no checkpoint.

Schema 3, over schema 2:
- `checkpoints.step`: the metadata's `step` when it is an int (as SQLite stores one), else ''
  (`rows.step_column`), indexed by (thread, namespace, step), so a `step` filter reads the
  checkpoints it returns instead of parsing every row's metadata.

An older file is migrated in place, in one transaction (all of it, or nothing). One that
cannot be written (a read-only file) is read as it is (`Layout.version` its own).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from engine.checkpoint.sqlite.errors import CheckpointDatabaseError
from engine.checkpoint.sqlite.rows import step_column

SCHEMA_VERSION = 3
_MAX_WALK = 256  # rows a chain of an old file may span (schema 1's bound)

_CREATE = """
CREATE TABLE checkpoints (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    checkpoint_id TEXT NOT NULL,
    parent_checkpoint_id TEXT,
    checkpoint BLOB NOT NULL,
    metadata TEXT NOT NULL,
    step NOT NULL DEFAULT '',
    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
) WITHOUT ROWID;
CREATE TABLE blobs (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    channel TEXT NOT NULL,
    version TEXT NOT NULL,
    type TEXT NOT NULL,
    base_version TEXT,
    items INTEGER,
    chain_start TEXT,
    value BLOB,
    PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
);
CREATE TABLE writes (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    checkpoint_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    channel TEXT NOT NULL,
    type TEXT NOT NULL,
    value BLOB,
    task_path TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
) WITHOUT ROWID;
"""
# step has no type: no affinity, so a filter's 7.0 finds 7 and '7' finds nothing, as in Python
_STEP_INDEX = "CREATE INDEX checkpoints_step ON checkpoints (thread_id, checkpoint_ns, step)"
STEP_INDEX = "checkpoints_step"
# value last in blobs: a row's short columns are read without walking a large value's pages
_THREADS = """
CREATE TABLE threads (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL,
    checkpoints INTEGER NOT NULL,
    last_checkpoint_id TEXT NOT NULL,
    last_step INTEGER,
    PRIMARY KEY (thread_id, checkpoint_ns)
) WITHOUT ROWID
"""
_V1_TABLES = {
    "checkpoints": {"thread_id", "checkpoint_ns", "checkpoint_id", "parent_checkpoint_id",
                    "checkpoint", "metadata"},
    "blobs": {"thread_id", "checkpoint_ns", "channel", "version", "type", "value",
              "base_version", "items"},
    "writes": {"thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx", "channel",
               "type", "value", "task_path"},
}  # fmt: skip
_V2_TABLES = {
    **_V1_TABLES,
    "blobs": _V1_TABLES["blobs"] | {"chain_start"},
    "threads": {"thread_id", "checkpoint_ns", "checkpoints", "last_checkpoint_id", "last_step"},
}
_V3_TABLES = {**_V2_TABLES, "checkpoints": _V2_TABLES["checkpoints"] | {"step"}}
TABLES = _V3_TABLES
# the SQLite store's tables and index (engine.store.sqlite.schema): a program may keep its
# store and its checkpoints in one file, in either order
STORE_OBJECTS = frozenset({"store_items", "store_items_expiry", "store_embeddings", "store_schema"})


@dataclass
class Layout:
    """What the open file holds: schema 3, or an older one it could not be migrated from
    (a read-only file)."""

    version: int = SCHEMA_VERSION


def user_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def create(conn: sqlite3.Connection, path: str, *, beside_others: bool = False) -> None:
    """Create the tables in an empty database (inside the caller's write transaction).

    `beside_others`: the program handed over a connection to its own database, which may hold
    its own tables (as langgraph's saver allows): only tables of ours already there refuse it.
    """
    if user_version(conn) != 0:
        return  # another process created them while we waited for the lock
    existing = sorted(row[0] for row in conn.execute(
        "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        if row[0] not in STORE_OBJECTS)  # fmt: skip
    if beside_others:
        existing = [name for name in existing if name in TABLES or name == STEP_INDEX]
    if existing:  # schema version 0 but not empty: another program's database
        clash = [name for name in existing if name in TABLES]
        whose = ("another program's checkpoints, e.g. langgraph's SqliteSaver?" if clash
                 else "another program's database")  # fmt: skip
        raise CheckpointDatabaseError(
            f"{path}: has table(s) {', '.join(existing[:5])} not created by this saver "
            f"({whose}); the file was not modified"
        )
    for statement in (*_CREATE.split(";"), _THREADS, _STEP_INDEX):
        if statement.strip():
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def check(conn: sqlite3.Connection, path: str, version: int) -> None:
    """Refuse a file whose tables are not the ones schema `version` makes."""
    tables = _V3_TABLES if version >= 3 else _V2_TABLES if version >= 2 else _V1_TABLES
    for table, columns in tables.items():
        found = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if not columns <= found:
            raise CheckpointDatabaseError(
                f"{path}: table {table!r} is missing or has other columns than checkpoint "
                f"schema {version} expects; the file was not modified"
            )


def migrate(conn: sqlite3.Connection) -> None:
    """An older file to `SCHEMA_VERSION`, step by step, inside the caller's write transaction
    (a file another process migrated while we waited for the lock is left as it is)."""
    if user_version(conn) == 1:
        _migrate_v1(conn)
    if user_version(conn) == 2:
        _migrate_v2(conn)


def _migrate_v1(conn: sqlite3.Connection) -> None:
    """Schema 1 -> 2."""
    conn.execute("ALTER TABLE blobs ADD COLUMN chain_start TEXT")
    conn.execute(_THREADS)
    conn.execute(
        "INSERT INTO threads (thread_id, checkpoint_ns, checkpoints, last_checkpoint_id) "
        "SELECT thread_id, checkpoint_ns, count(*), max(checkpoint_id) FROM checkpoints "
        "GROUP BY thread_id, checkpoint_ns"
    )
    conn.execute(
        "UPDATE threads SET last_step = (SELECT CASE WHEN typeof(c.metadata) = 'text' AND "
        "json_valid(c.metadata) AND json_type(c.metadata, '$.step') = 'integer' THEN "
        "json_extract(c.metadata, '$.step') END FROM checkpoints AS c WHERE c.thread_id = "
        "threads.thread_id AND c.checkpoint_ns = threads.checkpoint_ns AND c.checkpoint_id = "
        "threads.last_checkpoint_id)"
    )
    conn.executemany("UPDATE blobs SET chain_start = ? WHERE rowid = ?", _chain_starts(conn))
    conn.execute("PRAGMA user_version = 2")


def _migrate_v2(conn: sqlite3.Connection) -> None:
    """Schema 2 -> 3: each checkpoint's `step` read from its metadata as `put` reads it (in
    Python: SQLite's JSON differs on duplicate keys and huge numbers)."""
    conn.execute("ALTER TABLE checkpoints ADD COLUMN step NOT NULL DEFAULT ''")
    steps = []
    for thread_id, ns, checkpoint_id, text in conn.execute(
        "SELECT thread_id, checkpoint_ns, checkpoint_id, metadata FROM checkpoints"
    ):
        try:
            metadata = json.loads(text) if isinstance(text, str) else None
        except ValueError:
            continue  # read as the error it is: '' sends a filter to the metadata itself
        if isinstance(metadata, dict) and (step := step_column(metadata.get("step"))) != "":
            steps.append((step, thread_id, ns, checkpoint_id))
    conn.executemany(
        "UPDATE checkpoints SET step = ? WHERE thread_id = ? AND checkpoint_ns = ? "
        "AND checkpoint_id = ?",
        steps,
    )
    conn.execute(_STEP_INDEX)
    conn.execute("PRAGMA user_version = 3")


def _chain_starts(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    """(full copy version, rowid) of every delta row whose chain reaches a full copy; a broken
    chain (a tampered file) is left without, and reads as the error it is."""
    rows = {}
    for rowid, thread_id, ns, channel, version, type_, base in conn.execute(
        "SELECT rowid, thread_id, checkpoint_ns, channel, version, type, base_version FROM blobs"
    ):
        rows[(thread_id, ns, channel, version)] = (rowid, type_, base)
    out = []
    for (thread_id, ns, channel, _), (rowid, type_, base) in rows.items():
        if type_ != "delta":
            continue
        for _ in range(_MAX_WALK):
            found = rows.get((thread_id, ns, channel, base))
            if found is None:
                break
            if found[1] != "delta":
                out.append((base, rowid))
                break
            base = found[2]
    return out
