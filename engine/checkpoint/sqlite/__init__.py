"""SqliteSaver: checkpoints in a SQLite file (WAL mode), each channel value written once.

Storage (schema version `SCHEMA_VERSION`, kept in `PRAGMA user_version`; see `schema`):

- `checkpoints`: one row per checkpoint: its ids, parent, metadata (JSON), its step (indexed,
  for a `step` filter) and the checkpoint *without* channel values (versions, versions_seen,
  ts...), msgpack-encoded;
- `blobs`: one row per (thread, namespace, channel, version): a channel's value is written in
  the superstep that changed it and shared by every later checkpoint that still has that
  version, so a checkpoint costs what its superstep changed; a list that extends the previous
  version is written as the appended items (`deltas`);
- `writes`: pending writes per (checkpoint, task, index), special channels in the fixed slots of
  `WRITES_IDX_MAP` (a retry replaces them; a regular write is kept once);
- `threads`: per (thread, namespace) the checkpoint count and the newest checkpoint, for
  `list_threads` and `thread_summaries`.

`copy_thread` copies a thread's rows to another id; `prune` deletes the checkpoints it does not
keep (`engine.checkpoint.prune`) and the values no remaining one names (`maintenance`).

`checkpoints`, `writes` and `threads` are WITHOUT ROWID tables: their rows are small and keyed
by long text ids, which a rowid table would store twice. `blobs` keeps rowids (large rows).

Reading (`reads`, `values`): one checkpoint costs a few keyed queries and a range scan per
list chain, whatever the thread's length; `list` reads in batches, with `before`, `limit` and
metadata filters in SQL, so k checkpoints cost O(k).

Every `put` and `put_writes` is one transaction (`BEGIN IMMEDIATE`, so two processes writing
one file queue on the busy timeout instead of failing on a lock upgrade), unless it runs inside
`batch()`: the loop's background saves (durability "async") group whatever is queued into one
transaction, so a fast graph pays one commit for several supersteps. A database this saver
cannot use (locked past the timeout, read-only, not a database, written by a newer version or
by another program, a directory) raises `CheckpointDatabaseError` naming the file; it is never
recreated, overwritten or switched to WAL. A stored checkpoint that cannot be read back (corrupt
or crafted rows) raises it too, naming the thread and checkpoint; reading never imports code
(see `engine.checkpoint.serde.registry`), and listing threads reads no checkpoint.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from typing import Any

from engine.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    SerializerProtocol,
    checkpoint_config,
    get_checkpoint_id,
    get_checkpoint_metadata,
    version_counter,
)
from engine.checkpoint.prune import kept_checkpoints, prune_threads
from engine.checkpoint.serde.jsonplus import JsonPlusSerializer
from engine.checkpoint.sqlite import schema
from engine.checkpoint.sqlite.deltas import DeltaWriter
from engine.checkpoint.sqlite.errors import (
    CheckpointDatabaseError,
    connect,
    database_path,
    explain,
    read_only_folder_note,
)
from engine.checkpoint.sqlite.maintenance import (
    copy_rows,
    delete_unkept,
    newest_checkpoints,
    recount,
)
from engine.checkpoint.sqlite.reads import (
    SELECT_CHECKPOINT,
    NewestRows,
    ReadScope,
    ThreadSummary,
    TupleReader,
    select_one,
    summaries,
)
from engine.checkpoint.sqlite.rows import (
    PLAIN,
    CheckedBlobs,
    filter_sql,
    json_default,
    step_column,
    step_seek,
)
from engine.checkpoint.sqlite.schema import SCHEMA_VERSION
from engine.checkpoint.sqlite.values import ValueCache

LIST_BATCH = 64
"""Checkpoints `list` reads per query: a caller stopping early reads little more than it uses."""


class SqliteSaver(BaseCheckpointSaver):
    """A checkpointer storing threads in a SQLite database (same API as langgraph's).

        conn = sqlite3.connect("checkpoints.sqlite", check_same_thread=False)
        graph = builder.compile(checkpointer=SqliteSaver(conn))

    or `with SqliteSaver.from_conn_string("checkpoints.sqlite") as saver: ...`. Tables are
    created on first use (`setup()`). One saver may be shared by threads (a lock serialises its
    use of the connection); several processes may write one file.
    """

    def __init__(
        self, conn: sqlite3.Connection, *, serde: SerializerProtocol | None = None
    ) -> None:
        super().__init__(serde=serde)
        self.conn = conn
        self.is_setup = False
        self.lock = threading.RLock()
        self._deltas = DeltaWriter(enabled=isinstance(self.serde, JsonPlusSerializer))
        self._values = ValueCache()
        self._checked = CheckedBlobs()
        self._newest = NewestRows()
        self._batching = False
        self._layout = schema.Layout()
        self.path = self._database_path()

    @classmethod
    @contextmanager
    def from_conn_string(cls, conn_string: str, *, timeout: float = 5.0) -> Iterator[SqliteSaver]:
        """A saver on its own connection to `conn_string` (a path or ":memory:"), closed on exit.

        `timeout`: seconds to wait for another process's write lock before giving up.
        """
        conn = connect(conn_string, timeout)
        with closing(conn):
            saver = cls(conn)
            saver._timeout = timeout
            saver._own_file = True
            yield saver

    _timeout: float | None = None
    # a file it opened itself (from_conn_string, as the CLI's --db and the studio open theirs)
    # must be empty or its own; a connection a program hands over may hold the program's tables
    _own_file = False

    # ------------------------------------------------------------------ setup and errors
    def _database_path(self) -> str:
        return database_path(self.conn)

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn SQLite's terse errors into ones naming the file and what to do."""
        try:
            yield
        except CheckpointDatabaseError:
            raise
        except sqlite3.Error as exc:
            raise explain(exc, self.path, self._timeout) from exc

    def setup(self) -> None:
        """Create the tables in an empty database, or check (and migrate) an existing one;
        idempotent.

        Raises CheckpointDatabaseError for a database written by a newer version or by another
        program (it is left untouched).
        """
        if self.is_setup:
            return
        with self.lock, self._errors():
            if self.is_setup:
                return
            version = schema.user_version(self.conn)
            if version > SCHEMA_VERSION:
                raise CheckpointDatabaseError(
                    f"{self.path}: checkpoint schema version {version} was written by a newer "
                    f"version of this program (this one reads up to {SCHEMA_VERSION}); the file "
                    "was not modified"
                )
            if version == 0:
                with self._transaction():
                    schema.create(self.conn, self.path, beside_others=not self._own_file)
            else:
                schema.check(self.conn, self.path, version)
                if version < SCHEMA_VERSION:
                    self._migrate(version)
            # only now is the file known to be ours: WAL changes how others must open it
            if self.path != ":memory:":
                try:
                    self.conn.execute("PRAGMA journal_mode=WAL").fetchone()
                except sqlite3.OperationalError as exc:  # a read-only file can still be read
                    if "readonly" not in str(exc).lower():
                        raise
            self.is_setup = True

    def _migrate(self, version: int) -> None:
        try:
            with self._transaction():
                schema.migrate(self.conn)
        except sqlite3.OperationalError as exc:
            if "readonly" not in str(exc).lower():
                raise
            self._layout.version = version  # a read-only older file: read it as it is

    @contextmanager
    def _transaction(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction: a write takes the write lock up front and commits; a read is a
        snapshot (every query inside sees the same state of the file)."""
        conn = self.conn
        own = not conn.in_transaction
        if own:
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield conn
        except BaseException:
            if own and conn.in_transaction:
                conn.rollback()
            raise
        if write and not self._batching:
            conn.commit()
        elif own and conn.in_transaction:
            conn.rollback()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Run several puts and put_writes as one transaction (all saved, or none)."""
        self.setup()
        with self.lock, self._errors():
            if self._batching:
                yield
                return
            self.conn.execute("BEGIN IMMEDIATE")
            self._batching = True
            try:
                yield
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.rollback()
                # delta bases, and values read in the batch, may be of rows rolled back
                self._deltas.forget()
                self._values.forget()
                raise
            finally:
                self._batching = False
            self.conn.commit()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        self.setup()
        with self.lock, self._errors(), self._transaction() as conn:
            yield conn

    def _reading(self) -> ReadScope:
        return ReadScope(self)

    # ------------------------------------------------------------------ reading
    def list_threads(self) -> list[str]:
        """The ids of the threads with a checkpoint, sorted; reads ids only, never a value."""
        table = "threads" if self._layout.version >= 2 else "checkpoints"
        with self._reading() as conn:
            rows = conn.execute(f"SELECT DISTINCT thread_id FROM {table} ORDER BY thread_id")
            return [thread_id for (thread_id,) in rows if isinstance(thread_id, str)]

    def thread_summaries(self) -> list[ThreadSummary]:
        """Each thread's checkpoint count, newest step and status, sorted by id; reads the
        `threads` table and the newest checkpoints' write channels, never a value."""
        with self._reading() as conn:
            return summaries(conn, self._layout.version)

    def get_tuple(self, config: dict) -> CheckpointTuple | None:
        conf = config["configurable"]
        key: tuple = (str(conf["thread_id"]), conf.get("checkpoint_ns", ""))
        if checkpoint_id := conf.get("checkpoint_id"):
            key += (checkpoint_id,)
        if not self.is_setup:
            self.setup()
        with self.lock:  # the newest read again costs the lock, the stamp and a copy
            try:
                # the checkpoint and its writes come from one statement, so one snapshot;
                # values are immutable rows, so cached ones need no transaction around them
                rows, writes, kept = self._newest.select(self.conn, key)
            except sqlite3.Error as exc:
                raise explain(exc, self.path, self._timeout) from exc
            if not rows:
                return None
            if kept is not None and (made := kept[3]) is not None:  # rows unchanged since
                return made()
            reader = TupleReader(self.serde, self._values, self.path, checked=self._checked)
            scope = ReadScope(self, begin=False)
            with scope as conn:
                if (found := reader.cached(rows[0], writes[rows[0][:3]], kept)) is not None:
                    return found
                scope.snapshot()  # values to fetch: all of it again, on one snapshot
                rows, writes = select_one(conn, key)
                found = reader.tuples(conn, rows, writes)
        return found[0] if found else None

    def list(
        self,
        config: dict | None,
        *,
        filter: dict[str, Any] | None = None,
        before: dict | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        """Checkpoints newest first, matching the config's thread/namespace/id, every
        `filter` entry (metadata key == value), older than `before`, at most `limit`.

        Read in batches of `LIST_BATCH` (each its own snapshot), newest first; the filter is
        applied in SQL where SQL compares exactly, and checked again on each row."""
        wheres, params = [], []
        conf = (config or {}).get("configurable", {})
        ns = conf.get("checkpoint_ns")
        if "thread_id" in conf:
            wheres.append("thread_id = ?")
            params.append(str(conf["thread_id"]))
            if ns is None:  # one namespace (as most threads have) pages by primary key
                ns = self._only_namespace(str(conf["thread_id"]))
        if ns is not None:
            wheres.append("checkpoint_ns = ?")
            params.append(ns)
        one_thread = "thread_id" in conf and ns is not None
        if checkpoint_id := conf.get("checkpoint_id"):
            wheres.append("checkpoint_id = ?")
            params.append(checkpoint_id)
        if before is not None and (before_id := get_checkpoint_id(before)):
            wheres.append("checkpoint_id < ?")
            params.append(before_id)
        table = "checkpoints "
        if filter:
            by_step = self._layout.version >= 3
            clause, filter_params = filter_sql(filter, step_column=by_step)
            if clause:
                wheres.append(clause)
                params += filter_params
            if by_step and one_thread and step_seek(filter):
                # SQLite would rather walk the thread in id order (no sort) than seek the step
                table = f"checkpoints INDEXED BY {schema.STEP_INDEX} "
        if limit is not None and limit <= 0:
            return
        reader = TupleReader(self.serde, self._values, self.path, filter, self._checked)
        left, last = limit, None
        while True:
            batch = LIST_BATCH if left is None else min(left, LIST_BATCH)
            page = list(wheres)
            if last is not None:  # keyset paging: after the previous batch's last row
                page.append("checkpoint_id < ?" if one_thread
                            else "(checkpoint_id, thread_id, checkpoint_ns) < (?, ?, ?)")  # fmt: skip
            query = SELECT_CHECKPOINT + table
            if page:
                query += "WHERE " + " AND ".join(page)
            query += " ORDER BY checkpoint_id DESC, thread_id DESC, checkpoint_ns DESC"
            query += f" LIMIT {batch}"
            more = () if last is None else (last[2],) if one_thread else (last[2], last[0], last[1])
            with self._reading() as conn:
                rows = conn.execute(query, (*params, *more)).fetchall()
                # one thread, no filter: the batch is every checkpoint between its ends
                found = reader.tuples(conn, rows, span=one_thread and not filter)
            yield from found[:left]
            if left is not None:
                left -= len(found)
                if left <= 0:
                    return
            if len(rows) < batch:
                return
            last = rows[-1]

    def _only_namespace(self, thread_id: str) -> str | None:
        if self._layout.version < 2:
            return None
        with self._reading() as conn:
            found = conn.execute(
                "SELECT checkpoint_ns FROM threads WHERE thread_id = ? LIMIT 2", (thread_id,)
            ).fetchall()
        return found[0][0] if len(found) == 1 else None

    # ------------------------------------------------------------------ writing
    def put(
        self,
        config: dict,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> dict:
        conf = config["configurable"]
        thread_id, ns = str(conf["thread_id"]), conf.get("checkpoint_ns", "")
        values = checkpoint["channel_values"]
        saved = {k: v for k, v in checkpoint.items() if k != "channel_values"}
        stored_checkpoint = PLAIN.pack(saved)
        stored_metadata = get_checkpoint_metadata(config, metadata)
        text = json.dumps(stored_metadata, ensure_ascii=False, default=json_default)
        step_value = step_column(stored_metadata.get("step"))
        dumps = self.serde.dumps_typed
        with self._writing() as conn:
            rows = []
            for channel, version in new_versions.items():
                if channel in values:
                    version = str(version)
                    row = self._deltas.row(conn, (thread_id, ns, channel), version,
                                           *dumps(values[channel]))  # fmt: skip
                    rows.append((thread_id, ns, channel, version, *row))
            conn.executemany(
                "INSERT OR IGNORE INTO blobs (thread_id, checkpoint_ns, channel, version, type, "
                "value, base_version, items, chain_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            for row in rows:
                self._values.stored(row[:4])
            key = (thread_id, ns, checkpoint["id"])
            added = conn.execute(
                "INSERT OR IGNORE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
                "parent_checkpoint_id, checkpoint, metadata, step) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (*key, conf.get("checkpoint_id"), stored_checkpoint, text, step_value),
            ).rowcount
            if not added:  # a re-put of a checkpoint: replace it
                conn.execute(
                    "UPDATE checkpoints SET parent_checkpoint_id = ?, checkpoint = ?, "
                    "metadata = ?, step = ? WHERE thread_id = ? AND checkpoint_ns = ? "
                    "AND checkpoint_id = ?",
                    (conf.get("checkpoint_id"), stored_checkpoint, text, step_value, *key),
                )
            conn.execute(
                "INSERT INTO threads (thread_id, checkpoint_ns, checkpoints, last_checkpoint_id, "
                "last_step) VALUES (?, ?, ?, ?, ?) ON CONFLICT (thread_id, checkpoint_ns) DO "
                "UPDATE SET checkpoints = "
                "checkpoints + excluded.checkpoints, last_step = CASE WHEN excluded."
                "last_checkpoint_id >= last_checkpoint_id THEN excluded.last_step ELSE last_step "
                "END, last_checkpoint_id = max(last_checkpoint_id, excluded.last_checkpoint_id)",
                (
                    thread_id,
                    ns,
                    int(added > 0),
                    checkpoint["id"],
                    None if step_value == "" else step_value,
                ),
            )
        return checkpoint_config(thread_id, ns, checkpoint["id"])

    def put_writes(
        self, config: dict, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        conf = config["configurable"]
        thread_id, ns = str(conf["thread_id"]), conf.get("checkpoint_ns", "")
        checkpoint_id = conf["checkpoint_id"]
        dumps = self.serde.dumps_typed
        replace, keep = [], []
        for idx, (channel, value) in enumerate(writes):
            slot = WRITES_IDX_MAP.get(channel)
            row = (thread_id, ns, checkpoint_id, task_id, idx if slot is None else slot, channel,
                   *dumps(value), task_path)  # fmt: skip
            (keep if slot is None else replace).append(row)
        columns = (
            "INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, "
            "value, task_path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        with self._writing() as conn:
            if replace:
                conn.executemany("INSERT OR REPLACE " + columns, replace)
            if keep:
                conn.executemany("INSERT OR IGNORE " + columns, keep)

    def delete_thread(self, thread_id: str) -> None:
        thread_id = str(thread_id)
        with self._writing() as conn:
            for table in ("checkpoints", "blobs", "writes", "threads"):
                conn.execute(f"DELETE FROM {table} WHERE thread_id = ?", (thread_id,))
            self._deltas.forget(thread_id)
            self._values.forget(thread_id)

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        source, target = str(source_thread_id), str(target_thread_id)
        with self._writing() as conn:
            copy_rows(conn, source, target)
            recount(conn, target)
        self._values.forget(target)

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        prune_threads(thread_ids, strategy, self.delete_thread, self._keep_latest)

    def _keep_latest(self, thread_id: str) -> None:
        with self._writing() as conn:  # the kept ones chosen and the rest deleted at once
            newest = {ns: checkpoint_config(thread_id, ns, checkpoint_id)
                      for ns, checkpoint_id in newest_checkpoints(conn, thread_id).items()}  # fmt: skip
            delete_unkept(conn, thread_id, kept_checkpoints(self.get_tuple, newest))
            recount(conn, thread_id)
        self._deltas.forget(thread_id)  # the list rows a next put would extend may be gone
        self._values.forget(thread_id)

    def get_next_version(self, current: str | int | None, channel: Any = None) -> str:
        """`<counter>.<random>`: sorts by counter as a string; the random part keeps two forks
        of one checkpoint from writing different values under the same (channel, version)."""
        return f"{version_counter(current) + 1:016}.{random.getrandbits(40):010x}"


__all__ = [
    "CheckpointDatabaseError",
    "SCHEMA_VERSION",
    "SqliteSaver",
    "ThreadSummary",
    "connect",
    "read_only_folder_note",
]
