"""Recorded runs and calls, in two tables of the thread's own SQLite file.

The checkpoint saver's tables are left alone: the store opens its own connection to the same
file (so its transactions never mix with the saver's batches) and adds

- `record_runs`: one row per graph call on a thread (`invoke`/`stream`): its input, as JSON;
- `record_calls`: one row per chat-model or tool call: thread, sequence number, run, kind
  (`model`/`tool`), node (its namespace path without task ids, `agent|model`), task id, step,
  index of the call within its task, the thread checkpoint its superstep started from, the
  input (JSON) and its hash, the output or error, and how a replay answered it (`live`,
  `recorded`, or `changed:live`/`changed:recorded` for a call whose input differed), and
  when it started and ended (wall-clock seconds; the studio's timeline shows its latency).
  A file written before those two columns existed gets them, empty, when opened.

Values are `engine.record.codec` JSON: reading a recording imports nothing. A saver without a
file (in memory) gets a store in memory, one per saver object.
"""

from __future__ import annotations

import sqlite3
import threading
import weakref
from dataclasses import dataclass
from typing import Any

_CREATE = """
CREATE TABLE IF NOT EXISTS record_runs (
    thread_id TEXT NOT NULL, run_id TEXT NOT NULL, seq INTEGER NOT NULL,
    started TEXT NOT NULL, input TEXT NOT NULL, replay_of TEXT,
    PRIMARY KEY (thread_id, run_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS record_calls (
    thread_id TEXT NOT NULL, seq INTEGER NOT NULL, run_id TEXT NOT NULL, kind TEXT NOT NULL,
    node TEXT NOT NULL, task_id TEXT, step INTEGER, call_index INTEGER NOT NULL,
    checkpoint_id TEXT, input_hash TEXT NOT NULL, input TEXT NOT NULL, output TEXT,
    error TEXT, served TEXT NOT NULL DEFAULT 'live', started REAL, ended REAL,
    PRIMARY KEY (thread_id, seq)) WITHOUT ROWID
"""
_TIMES = ("started", "ended")
"""The columns added after the first recordings were written (see `_add_times`)."""


@dataclass(frozen=True)
class RecordedRun:
    thread_id: str
    run_id: str
    seq: int
    started: str
    """A time-ordered id taken as the run began, of the kind checkpoint ids are (uuid6): it
    sorts after the id of every checkpoint made before the run."""
    input: str
    """The graph input as codec JSON (a resume is a Command)."""
    replay_of: str | None = None
    """The thread this run replayed, if it was a replay."""


@dataclass(frozen=True)
class RecordedCall:
    thread_id: str
    seq: int
    run_id: str
    kind: str
    node: str
    task_id: str | None
    step: int | None
    call_index: int
    checkpoint_id: str | None
    input_hash: str
    input: str
    output: str | None
    error: str | None = None
    served: str = "live"
    started: float | None = None
    """When the call began (`time.time()`); None in recordings made before it was kept."""
    ended: float | None = None

    @property
    def latency(self) -> float | None:
        """Seconds the call took, when its times were recorded."""
        if self.started is None or self.ended is None:
            return None
        return self.ended - self.started


_memory_stores: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class RecordingStore:
    """Reads and writes recordings in one SQLite database (thread-safe)."""

    def __init__(self, path: str = ":memory:", *, timeout: float = 5.0) -> None:
        self.path = path
        self.conn = sqlite3.connect(path, timeout=timeout, check_same_thread=False)
        self.lock = threading.RLock()
        with self.lock, self.conn:
            self.conn.executescript(_CREATE)
            self._add_times()

    def _add_times(self) -> None:
        """A recording from before calls were timed: its table gains the two columns."""
        have = {row[1] for row in self.conn.execute("PRAGMA table_info(record_calls)")}
        for column in _TIMES:
            if column not in have:
                self.conn.execute(f"ALTER TABLE record_calls ADD COLUMN {column} REAL")

    @classmethod
    def for_saver(cls, saver: Any) -> RecordingStore:
        """The store beside `saver`'s checkpoints: its SQLite file, or one in memory."""
        path = getattr(saver, "path", None)
        if isinstance(path, str) and path not in ("", ":memory:"):
            saver.setup()  # the file is the saver's before anything else writes to it
            return cls(path)
        store = _memory_stores.get(saver)
        if store is None:
            store = _memory_stores[saver] = cls()
        return store

    def close(self) -> None:
        self.conn.close()

    # -- writing
    def add_run(self, run: RecordedRun) -> None:
        with self.lock, self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO record_runs VALUES (?, ?, ?, ?, ?, ?)",
                (run.thread_id, run.run_id, run.seq, run.started, run.input, run.replay_of),
            )

    def add_call(self, call: RecordedCall) -> None:
        with self.lock, self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO record_calls VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                tuple(call.__dict__.values()),
            )

    def next_seq(self, table: str, thread_id: str) -> int:
        assert table in ("record_runs", "record_calls")
        with self.lock:
            row = self.conn.execute(
                f"SELECT COALESCE(MAX(seq), -1) + 1 FROM {table} WHERE thread_id = ?",
                (thread_id,),
            ).fetchone()
        return int(row[0])

    def delete_thread(self, thread_id: str) -> None:
        with self.lock, self.conn:
            for table in ("record_runs", "record_calls"):
                self.conn.execute(f"DELETE FROM {table} WHERE thread_id = ?", (thread_id,))

    # -- reading
    def runs(self, thread_id: str) -> list[RecordedRun]:
        return [RecordedRun(*row) for row in self._rows("record_runs", thread_id)]

    def calls(self, thread_id: str) -> list[RecordedCall]:
        return [RecordedCall(*row) for row in self._rows("record_calls", thread_id)]

    def _rows(self, table: str, thread_id: str) -> list[tuple]:
        with self.lock:
            return self.conn.execute(
                f"SELECT * FROM {table} WHERE thread_id = ? ORDER BY seq", (thread_id,)
            ).fetchall()

    def threads(self) -> list[str]:
        with self.lock:
            rows = self.conn.execute("SELECT DISTINCT thread_id FROM record_runs ORDER BY 1")
            return [row[0] for row in rows]
