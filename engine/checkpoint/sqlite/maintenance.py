"""Whole-thread operations on the tables, inside the caller's write transaction: copying a
thread's rows to another id, deleting checkpoints `prune` does not keep and the values no
remaining checkpoint names, and recounting a thread's `threads` rows."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping

from engine.checkpoint.prune import copied_metadata
from engine.checkpoint.sqlite.deltas import DELTA
from engine.checkpoint.sqlite.rows import checkpoint_of, json_default


def copy_rows(conn: sqlite3.Connection, source: str, target: str) -> None:
    """Every checkpoint, value and write of `source` under `target` too (same ids)."""
    rows = conn.execute(
        "SELECT checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata, step "
        "FROM checkpoints WHERE thread_id = ?",
        (source,),
    ).fetchall()
    conn.executemany(
        "INSERT OR IGNORE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
        "parent_checkpoint_id, checkpoint, metadata, step) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(target, ns, cid, parent, blob, _copied(text, source, target), step)
         for ns, cid, parent, blob, text, step in rows],
    )  # fmt: skip
    conn.execute(
        "INSERT OR IGNORE INTO blobs (thread_id, checkpoint_ns, channel, version, type, "
        "base_version, items, chain_start, value) SELECT ?, checkpoint_ns, channel, version, "
        "type, base_version, items, chain_start, value FROM blobs WHERE thread_id = ?",
        (target, source),
    )
    conn.execute(
        "INSERT OR IGNORE INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, "
        "channel, type, value, task_path) SELECT ?, checkpoint_ns, checkpoint_id, task_id, idx, "
        "channel, type, value, task_path FROM writes WHERE thread_id = ?",
        (target, source),
    )


def _copied(text: str, source: str, target: str) -> str:
    try:
        metadata = json.loads(text)
    except (TypeError, ValueError):  # not ours to fix: copied as it is
        return text
    if not isinstance(metadata, dict):
        return text
    copied = copied_metadata(metadata, source, target)
    if copied is metadata:
        return text
    return json.dumps(copied, ensure_ascii=False, default=json_default)


def newest_checkpoints(conn: sqlite3.Connection, thread_id: str) -> dict[str, str]:
    """namespace -> the id of its newest checkpoint."""
    return dict(
        conn.execute(
            "SELECT checkpoint_ns, max(checkpoint_id) FROM checkpoints WHERE thread_id = ? "
            "GROUP BY checkpoint_ns",
            (thread_id,),
        )
    )


def delete_unkept(conn: sqlite3.Connection, thread_id: str, kept: Mapping[str, set[str]]) -> None:
    """Delete the thread's checkpoints (and their writes) of the namespaces in `kept` that
    `kept` does not name and that are older than its newest."""
    for ns, ids in kept.items():
        if not ids:
            continue
        doomed = [
            (thread_id, ns, cid)
            for (cid,) in conn.execute(
                "SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? "
                "AND checkpoint_id < ?",
                (thread_id, ns, max(ids)),
            )
            if cid not in ids
        ]
        for table in ("checkpoints", "writes"):
            conn.executemany(
                f"DELETE FROM {table} WHERE thread_id = ? AND checkpoint_ns = ? "
                "AND checkpoint_id = ?",
                doomed,
            )
    _delete_unused_values(conn, thread_id)


def _delete_unused_values(conn: sqlite3.Connection, thread_id: str) -> None:
    """Delete the value rows no remaining checkpoint of the thread names (a list's delta
    keeps the rows of its chain)."""
    bases = {
        (ns, channel, version): base if type_ == DELTA else None
        for ns, channel, version, type_, base in conn.execute(
            "SELECT checkpoint_ns, channel, version, type, base_version FROM blobs "
            "WHERE thread_id = ?",
            (thread_id,),
        )
    }
    used = set()
    for ns, blob in conn.execute(
        "SELECT checkpoint_ns, checkpoint FROM checkpoints WHERE thread_id = ?", (thread_id,)
    ):
        for channel, version in checkpoint_of(blob)["channel_versions"].items():
            key = (ns, channel, str(version))
            while key in bases and key not in used:
                used.add(key)
                if bases[key] is None:
                    break
                key = (ns, channel, bases[key])
    conn.executemany(
        "DELETE FROM blobs WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? "
        "AND version = ?",
        [(thread_id, *key) for key in bases if key not in used],
    )


def recount(conn: sqlite3.Connection, thread_id: str) -> None:
    """The thread's `threads` rows from its checkpoints: count, newest id and its step."""
    conn.execute("DELETE FROM threads WHERE thread_id = ?", (thread_id,))
    conn.execute(
        "INSERT INTO threads (thread_id, checkpoint_ns, checkpoints, last_checkpoint_id) "
        "SELECT thread_id, checkpoint_ns, count(*), max(checkpoint_id) FROM checkpoints "
        "WHERE thread_id = ? GROUP BY checkpoint_ns",
        (thread_id,),
    )
    conn.execute(
        "UPDATE threads SET last_step = (SELECT CASE WHEN json_valid(c.metadata) AND "
        "json_type(c.metadata, '$.step') = 'integer' THEN json_extract(c.metadata, '$.step') "
        "END FROM checkpoints AS c WHERE c.thread_id = threads.thread_id AND c.checkpoint_ns = "
        "threads.checkpoint_ns AND c.checkpoint_id = threads.last_checkpoint_id) "
        "WHERE thread_id = ?",
        (thread_id,),
    )


__all__ = ["copy_rows", "delete_unkept", "newest_checkpoints", "recount"]
