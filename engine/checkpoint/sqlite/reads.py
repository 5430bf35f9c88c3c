"""Turning stored rows into CheckpointTuples, many at a time, and the thread summaries.

A `TupleReader` serves one `get_tuple` or one `list` call: for each batch of checkpoint rows it
fetches the values they need (`ValueReader`, shared across the call's batches, so a value held
by many checkpoints is fetched once) and their pending writes in one query. Listing k
checkpoints therefore costs O(k) queries' worth of rows, whatever the thread's length.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, NamedTuple

from engine.checkpoint.base import CheckpointTuple, checkpoint_config
from engine.checkpoint.serde.base import SerializerProtocol
from engine.checkpoint.serde.jsonplus import DeserializationError
from engine.checkpoint.sqlite.errors import CheckpointDatabaseError
from engine.checkpoint.sqlite.rows import BAD_ROW, checkpoint_of, matches, metadata_of
from engine.checkpoint.sqlite.values import ValueCache, ValueReader

SELECT_CHECKPOINT = (
    "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata "
    "FROM checkpoints "
)
_IDS_PER_QUERY = 500


class ThreadSummary(NamedTuple):
    """A thread as a list of threads shows it, read without decoding any checkpoint."""

    thread_id: str
    checkpoints: int
    """Checkpoints in the thread's root namespace (a subgraph's are not counted)."""
    last_step: int | None
    """`step` of the newest checkpoint's metadata (-1: the input checkpoint)."""
    last_checkpoint_id: str
    status: str
    """From the newest checkpoint's pending writes: "interrupted" (an interrupt not answered
    yet), "failed" (a task's error), "pending" (tasks' writes saved, the superstep not
    finished: a stopped or killed run), or "idle" (none: finished, or stopped between
    supersteps; which of the two depends on the graph)."""


def status_of(channels: set[str]) -> str:
    if "__error__" in channels:
        return "failed"
    if "__interrupt__" in channels and "__resume__" not in channels:
        return "interrupted"
    return "pending" if channels else "idle"


class TupleReader:
    def __init__(self, serde: SerializerProtocol, cache: ValueCache, path: str,
                 filter: dict | None = None) -> None:  # fmt: skip
        self.serde, self.cache, self.path, self.filter = serde, cache, path, filter
        self.values: dict[tuple[str, str], ValueReader] = {}

    def named(self, thread_id: Any, checkpoint_id: Any, read: Callable, *args: Any) -> Any:
        """`read(*args)`; a stored row it cannot make sense of is an error naming where."""
        try:
            return read(*args)
        except BAD_ROW as exc:  # DeserializationError included
            raise CheckpointDatabaseError(
                f"{self.path}: thread {thread_id!r}, checkpoint {checkpoint_id!r}: cannot read "
                f"the stored checkpoint: {exc}"
            ) from None

    def tuples(self, conn: sqlite3.Connection, rows: list[tuple]) -> list[CheckpointTuple]:
        """The tuples of `rows` (checkpoint rows of SELECT_CHECKPOINT) that match the filter."""
        kept = []
        for row in rows:
            metadata = self.named(row[0], row[2], metadata_of, row[5])
            if matches(metadata, self.filter):
                kept.append((row, metadata, self.named(row[0], row[2], checkpoint_of, row[4])))
        wanted: dict[tuple[str, str], set] = {}
        for (thread_id, ns, *_), _meta, checkpoint in kept:
            pairs = wanted.setdefault((thread_id, ns), set())
            pairs.update((c, str(v)) for c, v in checkpoint["channel_versions"].items())
        for key, pairs in wanted.items():
            reader = self.values.get(key)
            if reader is None:
                reader = self.values[key] = ValueReader(self.serde, self.cache, *key)
            reader.fetch(conn, pairs)
        writes = _writes(conn, [row[:3] for row, _m, _c in kept])
        return [
            self.named(
                row[0], row[2], self._tuple, row, metadata, checkpoint, writes.get(row[:3], ())
            )  # fmt: skip
            for row, metadata, checkpoint in kept
        ]

    def _tuple(self, row: tuple, metadata: dict, checkpoint: dict, writes: Any) -> CheckpointTuple:
        thread_id, ns, checkpoint_id, parent_id = row[:4]
        reader = self.values[(thread_id, ns)]
        values = {}
        for channel, version in checkpoint["channel_versions"].items():
            if reader.has(channel, version := str(version)):
                values[channel] = reader.value(channel, version)
        checkpoint["channel_values"] = values
        pending = []
        loads = self.serde.loads_typed
        for task_id, channel, type_, value in writes:
            try:
                pending.append((task_id, channel, loads((type_, value))))
            except DeserializationError as exc:
                raise DeserializationError(
                    f"task {task_id!r}'s write to {channel!r}: {exc}"
                ) from None
        return CheckpointTuple(
            checkpoint_config(thread_id, ns, checkpoint_id),
            checkpoint,
            metadata,
            checkpoint_config(thread_id, ns, parent_id) if parent_id else None,
            pending,
        )


def _writes(conn: sqlite3.Connection, keys: list[tuple]) -> dict[tuple, list]:
    """(thread, ns, checkpoint id) -> its pending writes (task_id, channel, type, value), in
    task path, task id and index order."""
    groups: dict[tuple[str, str], list[str]] = {}
    for thread_id, ns, checkpoint_id in keys:
        groups.setdefault((thread_id, ns), []).append(checkpoint_id)
    out: dict[tuple, list] = {}
    for (thread_id, ns), ids in groups.items():
        for i in range(0, len(ids), _IDS_PER_QUERY):
            chunk = ids[i : i + _IDS_PER_QUERY]
            rows = conn.execute(
                "SELECT checkpoint_id, task_id, channel, type, value FROM writes WHERE "
                f"thread_id = ? AND checkpoint_ns = ? AND checkpoint_id IN ({', '.join('?' * len(chunk))}) "
                "ORDER BY checkpoint_id, task_path, task_id, idx",
                (thread_id, ns, *chunk),
            )
            for checkpoint_id, *write in rows:
                out.setdefault((thread_id, ns, checkpoint_id), []).append(write)
    return out


def summaries(conn: sqlite3.Connection, layout_version: int) -> list[ThreadSummary]:
    """One summary per thread, sorted by id, from the `threads` table (schema 1: by grouping
    the checkpoints' keys) and the newest checkpoint's write channels; no value is decoded."""
    if layout_version >= 2:
        rows = conn.execute(
            "SELECT thread_id, checkpoint_ns, checkpoints, last_checkpoint_id, last_step "
            "FROM threads ORDER BY thread_id, checkpoint_ns"
        ).fetchall()
    else:
        rows = conn.execute(
            "SELECT thread_id, checkpoint_ns, count(*), max(checkpoint_id), NULL FROM checkpoints "
            "GROUP BY thread_id, checkpoint_ns ORDER BY thread_id, checkpoint_ns"
        ).fetchall()
    out: dict[str, ThreadSummary] = {}
    for thread_id, ns, count, last_id, step in rows:
        if not isinstance(thread_id, str) or (thread_id in out and ns != ""):
            continue  # the root namespace ('' sorts first) speaks for the thread
        if step is None and layout_version < 2:
            step = _step(conn, thread_id, ns, last_id)
        channels = {c for (c,) in conn.execute(
            "SELECT DISTINCT channel FROM writes WHERE thread_id = ? AND checkpoint_ns = ? "
            "AND checkpoint_id = ?", (thread_id, ns, last_id))}  # fmt: skip
        out[thread_id] = ThreadSummary(thread_id, int(count), step if type(step) is int else None,
                                       str(last_id), status_of(channels))  # fmt: skip
    return list(out.values())


def _step(conn: sqlite3.Connection, thread_id: str, ns: str, checkpoint_id: str) -> Any:
    row = conn.execute(
        "SELECT CASE WHEN typeof(metadata) = 'text' AND json_valid(metadata) THEN "
        "json_extract(metadata, '$.step') END FROM checkpoints WHERE thread_id = ? AND "
        "checkpoint_ns = ? AND checkpoint_id = ?",
        (thread_id, ns, checkpoint_id),
    ).fetchone()
    return row[0] if row else None
