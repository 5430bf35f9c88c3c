"""SqliteSaver: checkpoints in a SQLite file (WAL mode), each channel value written once.

Storage (schema version `SCHEMA_VERSION`, kept in `PRAGMA user_version`):

- `checkpoints`: one row per checkpoint: its ids, parent, metadata (JSON) and the checkpoint
  *without* channel values (versions, versions_seen, ts...), msgpack-encoded;
- `blobs`: one row per (thread, namespace, channel, version): a channel's value is written in
  the superstep that changed it and shared by every later checkpoint that still has that
  version, so a checkpoint costs what its superstep changed;
- list deltas: when a channel's new value is a list that extends the list of this saver's
  previous version of that channel (add-reducer lists such as `messages`), only the appended
  items are written, with a reference to the previous version. A full copy is written again
  once the deltas since the last full copy outgrow it (`DELTA_RATIO`) or the chain reaches
  `MAX_CHAIN` rows, so a read fetches at most `MAX_CHAIN` rows and about (1 + DELTA_RATIO)
  times the value's size, while a list growing by k bytes a step costs O(k) a checkpoint
  (amortised), however long it gets. The prefix test compares serialized bytes, so a value
  mutated in place is never mistaken for an extension;
- `writes`: pending writes per (checkpoint, task, index), special channels in the fixed slots of
  `WRITES_IDX_MAP` (a retry replaces them; a regular write is kept once).

`checkpoints` and `writes` are WITHOUT ROWID tables: their rows are small and keyed by long
text ids, which a rowid table would store twice (table and primary-key index). `blobs` keeps
rowids, as its rows can be large.

Every `put` and `put_writes` is one transaction (`BEGIN IMMEDIATE`, so two processes writing
one file queue on the busy timeout instead of failing on a lock upgrade), unless it runs inside
`batch()`: the loop's background saves (durability "async") group whatever is queued into one
transaction, so a fast graph pays one commit for several supersteps. A database this saver
cannot use (locked past the timeout, read-only, not a database, written by a newer version or
by another program, a directory) raises `CheckpointDatabaseError` naming the file; it is never
recreated, overwritten or switched to WAL. A stored checkpoint that cannot be read back (corrupt
or crafted rows) raises it too, naming the thread and checkpoint; reading never imports code
(see `engine.checkpoint.serde.registry`), and `list_threads` reads thread ids only.
"""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from typing import Any, NamedTuple

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
from engine.checkpoint.serde.jsonplus import DeserializationError, JsonPlusSerializer

SCHEMA_VERSION = 1
DELTA_RATIO = 2
"""A full copy is written once the deltas since the last one exceed this many times its size."""
MIN_DELTA_BUDGET = 16 * 1024
"""Small lists are not copied every few steps: deltas may always add up to this many bytes."""
MAX_CHAIN = 256
"""Most rows a channel value can span (one full copy plus deltas)."""
_CACHE_SIZE = 256  # (thread, ns, channel) entries remembered for delta detection
_DELTA = "delta"

_SCHEMA = """
CREATE TABLE checkpoints (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    checkpoint_id TEXT NOT NULL,
    parent_checkpoint_id TEXT,
    checkpoint BLOB NOT NULL,
    metadata TEXT NOT NULL,
    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
) WITHOUT ROWID;
CREATE TABLE blobs (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    channel TEXT NOT NULL,
    version TEXT NOT NULL,
    type TEXT NOT NULL,
    value BLOB,
    base_version TEXT,
    items INTEGER,
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
_TABLES = {
    "checkpoints": {"thread_id", "checkpoint_ns", "checkpoint_id", "parent_checkpoint_id",
                    "checkpoint", "metadata"},
    "blobs": {"thread_id", "checkpoint_ns", "channel", "version", "type", "value",
              "base_version", "items"},
    "writes": {"thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx", "channel",
               "type", "value", "task_path"},
}  # fmt: skip

_LOAD_BLOBS = """
WITH RECURSIVE chain(channel, version, type, value, base_version, items, depth) AS (
    SELECT channel, version, type, value, base_version, items, 0 FROM blobs
    WHERE thread_id = ?1 AND checkpoint_ns = ?2 AND (channel, version) IN (VALUES {pairs})
    UNION ALL
    SELECT b.channel, b.version, b.type, b.value, b.base_version, b.items, c.depth + 1
    FROM chain AS c JOIN blobs AS b
      ON b.thread_id = ?1 AND b.checkpoint_ns = ?2 AND b.channel = c.channel
     AND b.version = c.base_version
    WHERE c.depth <= {max_depth}
)
SELECT channel, type, value, items, depth FROM chain ORDER BY channel, depth DESC
"""

_SELECT_CHECKPOINT = (
    "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata "
    "FROM checkpoints "
)


class CheckpointDatabaseError(sqlite3.DatabaseError):
    """The checkpoint database cannot be used; the message names the file and why."""


class _ListState(NamedTuple):
    """What this saver last wrote for a list channel: enough to write the next as a delta."""

    version: str
    items: int
    data: bytes  # the full serialized list
    header: int  # length of the msgpack array header in `data`
    chain: int  # rows since the last full copy
    delta_bytes: int  # bytes written as deltas since the last full copy
    full_bytes: int  # size of the last full copy


def _array_header(data: bytes) -> tuple[int, int] | None:
    """(items, header length) of a msgpack array, or None if `data` is not one."""
    if not data:
        return None
    first = data[0]
    if 0x90 <= first <= 0x9F:
        return first & 0x0F, 1
    if first == 0xDC:
        return int.from_bytes(data[1:3]), 3
    if first == 0xDD:
        return int.from_bytes(data[1:5]), 5
    return None


def _pack_array_header(items: int) -> bytes:
    if items < 16:
        return bytes([0x90 | items])
    if items < 0x10000:
        return b"\xdc" + items.to_bytes(2)
    return b"\xdd" + items.to_bytes(4)


_PLAIN = JsonPlusSerializer()  # the checkpoint rows: plain data, whatever `serde` is
_FILTER_KEY = re.compile(r"^[A-Za-z0-9_.-]+$")
# what reading a tampered row can raise besides DeserializationError (a ValueError, as is
# json's JSONDecodeError): wrong types and shapes in otherwise readable data
_BAD_ROW = (ValueError, TypeError, KeyError, IndexError, AttributeError)
_VERSION_TYPES = (str, int, float)


def _checked(checkpoint: Any) -> dict:
    """The stored checkpoint dict, if it has the shape the engine reads; else why not."""
    if not isinstance(checkpoint, dict):
        raise DeserializationError("the checkpoint row is not a mapping")
    for key, kind in (("v", int), ("id", str), ("ts", str), ("channel_versions", dict),
                      ("versions_seen", dict)):  # fmt: skip
        if not isinstance(checkpoint.get(key), kind):
            raise DeserializationError(f"the checkpoint's {key!r} is missing or not a {kind.__name__}")
    versions = checkpoint["channel_versions"]
    if not all(type(k) is str and isinstance(v, _VERSION_TYPES) for k, v in versions.items()):
        raise DeserializationError("the checkpoint's channel versions are not channel: version")
    for seen in checkpoint["versions_seen"].values():
        if not isinstance(seen, dict) or not all(isinstance(v, _VERSION_TYPES) for v in seen.values()):
            raise DeserializationError("the checkpoint's versions_seen are not node: versions")
    return checkpoint


def _metadata(text: Any) -> dict:
    if not isinstance(text, str):
        raise DeserializationError("the checkpoint's metadata is not text")
    try:
        metadata = json.loads(text)
    except ValueError as exc:
        raise DeserializationError(f"the checkpoint's metadata is not JSON ({exc})") from None
    if not isinstance(metadata, dict):
        raise DeserializationError("the checkpoint's metadata is not a JSON object")
    return metadata


def _json_default(value: Any) -> Any:
    raise TypeError(
        f"checkpoint metadata must be JSON: cannot store a value of type "
        f"{type(value).__module__}.{type(value).__qualname__}"
    )


class SqliteSaver(BaseCheckpointSaver):
    """A checkpointer storing threads in a SQLite database (same API as langgraph's).

        conn = sqlite3.connect("checkpoints.sqlite", check_same_thread=False)
        graph = builder.compile(checkpointer=SqliteSaver(conn))

    or `with SqliteSaver.from_conn_string("checkpoints.sqlite") as saver: ...`. Tables are
    created on first use (`setup()`). One saver may be shared by threads (a lock serialises its
    use of the connection); several processes may write one file.
    """

    def __init__(self, conn: sqlite3.Connection, *, serde: SerializerProtocol | None = None) -> None:
        super().__init__(serde=serde)
        self.conn = conn
        self.is_setup = False
        self.lock = threading.RLock()
        self._deltas = isinstance(self.serde, JsonPlusSerializer)
        self._lists: OrderedDict[tuple[str, str, str], _ListState] = OrderedDict()
        self._batching = False
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
            yield saver

    _timeout: float | None = None

    # ------------------------------------------------------------------ setup and errors
    def _database_path(self) -> str:
        try:
            for _, name, file in self.conn.execute("PRAGMA database_list"):
                if name == "main":
                    return file or ":memory:"
        except sqlite3.Error:
            pass
        return "<sqlite database>"

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn SQLite's terse errors into ones naming the file and what to do."""
        try:
            yield
        except CheckpointDatabaseError:
            raise
        except sqlite3.Error as exc:
            text = str(exc).lower()
            if "locked" in text or "busy" in text:
                waited = f" after waiting {self._timeout:g}s" if self._timeout is not None else ""
                msg = (
                    f"{self.path}: the database is locked by another connection or process; "
                    f"gave up{waited}"
                )
            elif "readonly" in text or "read-only" in text:
                msg = (f"{self.path}: the database is read-only; cannot save checkpoints in it"
                       + read_only_folder_note(self.path))  # fmt: skip
            elif "not a database" in text or "malformed" in text or "corrupt" in text:
                msg = f"{self.path}: not a usable SQLite database (corrupt or another kind of file)"
            elif "unable to open" in text:
                msg = f"{self.path}: cannot open the database file{read_only_folder_note(self.path)}"
            elif "disk i/o" in text:
                msg = (f"{self.path}: the disk failed to read or write the database (full disk, "
                       f"a removed drive, or its -journal/-wal/-shm files cannot be made){read_only_folder_note(self.path)}")  # fmt: skip
            elif isinstance(exc, (sqlite3.ProgrammingError, sqlite3.InterfaceError)):
                raise  # a misuse of the connection: a bug to see as it is
            else:
                msg = f"{self.path}: the checkpoint database failed"
            raise CheckpointDatabaseError(f"{msg} ({exc})") from exc

    def setup(self) -> None:
        """Create the tables in an empty database, or check an existing one; idempotent.

        Raises CheckpointDatabaseError for a database written by a newer version or by another
        program (it is left untouched).
        """
        if self.is_setup:
            return
        with self.lock, self._errors():
            if self.is_setup:
                return
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise CheckpointDatabaseError(
                    f"{self.path}: checkpoint schema version {version} was written by a newer "
                    f"version of this program (this one reads up to {SCHEMA_VERSION}); the file "
                    "was not modified"
                )
            if version == 0:
                self._create_schema()
            else:
                self._check_tables()
            # only now is the file known to be ours: WAL changes how others must open it
            if self.path != ":memory:":
                try:
                    self.conn.execute("PRAGMA journal_mode=WAL").fetchone()
                except sqlite3.OperationalError as exc:  # a read-only file can still be read
                    if "readonly" not in str(exc).lower():
                        raise
            self.is_setup = True

    def _create_schema(self) -> None:
        with self._transaction():
            if self.conn.execute("PRAGMA user_version").fetchone()[0] != 0:
                return  # another process created it while we waited for the lock
            existing = sorted(
                row[0]
                for row in self.conn.execute(
                    "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
                )
            )
            if existing:  # schema version 0 but not empty: another program's database
                clash = [name for name in existing if name in _TABLES]
                whose = (
                    "another program's checkpoints, e.g. langgraph's SqliteSaver?"
                    if clash
                    else "another program's database"
                )
                raise CheckpointDatabaseError(
                    f"{self.path}: has table(s) {', '.join(existing[:5])} not created by this "
                    f"saver ({whose}); the file was not modified"
                )
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self.conn.execute(statement)
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _check_tables(self) -> None:
        for table, columns in _TABLES.items():
            found = {row[1] for row in self.conn.execute(f"PRAGMA table_info({table})")}
            if not columns <= found:
                raise CheckpointDatabaseError(
                    f"{self.path}: table {table!r} is missing or has other columns than "
                    f"checkpoint schema {SCHEMA_VERSION} expects; the file was not modified"
                )

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
                self._lists.clear()  # delta bases may name rows that were rolled back
                raise
            finally:
                self._batching = False
            self.conn.commit()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        self.setup()
        with self.lock, self._errors(), self._transaction() as conn:
            yield conn

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        self.setup()
        with self.lock, self._errors(), self._transaction(write=False) as conn:
            yield conn

    # ------------------------------------------------------------------ reading
    def list_threads(self) -> list[str]:
        """The ids of the threads with a checkpoint, sorted; reads ids only, never a value."""
        with self._reading() as conn:
            rows = conn.execute("SELECT DISTINCT thread_id FROM checkpoints ORDER BY thread_id")
            return [thread_id for (thread_id,) in rows if isinstance(thread_id, str)]

    def get_tuple(self, config: dict) -> CheckpointTuple | None:
        conf = config["configurable"]
        thread_id, ns = str(conf["thread_id"]), conf.get("checkpoint_ns", "")
        with self._reading() as conn:
            if checkpoint_id := get_checkpoint_id(config):
                row = conn.execute(
                    _SELECT_CHECKPOINT
                    + "WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?",
                    (thread_id, ns, checkpoint_id),
                ).fetchone()
            else:
                row = conn.execute(
                    _SELECT_CHECKPOINT + "WHERE thread_id = ? AND checkpoint_ns = ? "
                    "ORDER BY checkpoint_id DESC LIMIT 1",
                    (thread_id, ns),
                ).fetchone()
            return self._load(conn, row) if row is not None else None

    def list(
        self,
        config: dict | None,
        *,
        filter: dict[str, Any] | None = None,
        before: dict | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        """Checkpoints newest first, matching the config's thread/namespace/id, every
        `filter` entry (metadata key == value), older than `before`, at most `limit`."""
        wheres, params = [], []
        conf = (config or {}).get("configurable", {})
        if "thread_id" in conf:
            wheres.append("thread_id = ?")
            params.append(str(conf["thread_id"]))
        if conf.get("checkpoint_ns") is not None:
            wheres.append("checkpoint_ns = ?")
            params.append(conf["checkpoint_ns"])
        if checkpoint_id := conf.get("checkpoint_id"):
            wheres.append("checkpoint_id = ?")
            params.append(checkpoint_id)
        if before is not None and (before_id := get_checkpoint_id(before)):
            wheres.append("checkpoint_id < ?")
            params.append(before_id)
        for key in filter or {}:
            if not _FILTER_KEY.match(key):
                raise ValueError(f"invalid metadata filter key {key!r}")
        query = "SELECT thread_id, checkpoint_ns, checkpoint_id, metadata FROM checkpoints"
        if wheres:
            query += " WHERE " + " AND ".join(wheres)
        query += " ORDER BY checkpoint_id DESC"
        if limit is not None and not filter:
            query += f" LIMIT {int(limit)}"
        with self._reading() as conn:
            matches = []
            for thread_id, ns, checkpoint_id, metadata in conn.execute(query, params):
                if filter:
                    meta = self._reading_row(thread_id, checkpoint_id, _metadata, metadata)
                    if any(meta.get(k) != v for k, v in filter.items()):
                        continue
                matches.append((thread_id, ns, checkpoint_id))
                if limit is not None and len(matches) >= limit:
                    break
        for thread_id, ns, checkpoint_id in matches:
            found = self.get_tuple(checkpoint_config(thread_id, ns, checkpoint_id))
            if found is not None:  # deleted meanwhile
                yield found

    def _reading_row(self, thread_id: Any, checkpoint_id: Any, read: Any, *args: Any) -> Any:
        """`read(*args)`; a stored row it cannot make sense of is an error naming where."""
        try:
            return read(*args)
        except _BAD_ROW as exc:  # DeserializationError included
            raise CheckpointDatabaseError(
                f"{self.path}: thread {thread_id!r}, checkpoint {checkpoint_id!r}: cannot read "
                f"the stored checkpoint: {exc}"
            ) from None

    def _load(self, conn: sqlite3.Connection, row: tuple) -> CheckpointTuple:
        return self._reading_row(row[0], row[2], self._decode_row, conn, row)

    def _decode_row(self, conn: sqlite3.Connection, row: tuple) -> CheckpointTuple:
        thread_id, ns, checkpoint_id, parent_id, blob, metadata = row
        checkpoint = _checked(_PLAIN.loads_typed(("msgpack", blob)))
        checkpoint["channel_values"] = self._load_values(
            conn, thread_id, ns, checkpoint["channel_versions"]
        )
        writes = conn.execute(
            "SELECT task_id, channel, type, value FROM writes WHERE thread_id = ? AND "
            "checkpoint_ns = ? AND checkpoint_id = ? ORDER BY task_path, task_id, idx",
            (thread_id, ns, checkpoint_id),
        ).fetchall()
        pending = []
        for task_id, channel, type_, value in writes:
            try:
                pending.append((task_id, channel, self.serde.loads_typed((type_, value))))
            except DeserializationError as exc:
                raise DeserializationError(f"task {task_id!r}'s write to {channel!r}: {exc}") from None
        return CheckpointTuple(
            checkpoint_config(thread_id, ns, checkpoint_id),
            checkpoint,
            _metadata(metadata),
            checkpoint_config(thread_id, ns, parent_id) if parent_id else None,
            pending,
        )

    def _load_values(
        self, conn: sqlite3.Connection, thread_id: str, ns: str, versions: ChannelVersions
    ) -> dict[str, Any]:
        if not versions:
            return {}
        pairs = ", ".join("(?, ?)" for _ in versions)
        params: list[Any] = [thread_id, ns]
        for channel, version in versions.items():
            params += (channel, str(version))
        rows = conn.execute(
            _LOAD_BLOBS.format(pairs=pairs, max_depth=MAX_CHAIN), params
        ).fetchall()
        values: dict[str, Any] = {}
        i = 0
        while i < len(rows):  # rows: per channel, the full copy first, then its deltas
            channel, depth = rows[i][0], rows[i][4]
            try:
                values[channel] = self._channel_value(rows, i)
            except DeserializationError as exc:
                raise DeserializationError(f"the value of channel {channel!r}: {exc}") from None
            i += depth + 1
        return values

    def _channel_value(self, rows: list, i: int) -> Any:
        """The value the chain of rows starting at `i` stores (a full copy, then its deltas)."""
        _, type_, value, items, depth = rows[i]
        if depth == 0 and type_ != _DELTA:
            return self.serde.loads_typed((type_, value))
        head = _array_header(value) if type_ != _DELTA and isinstance(value, bytes) else None
        if head is None:  # the chain must start at a full copy of the list
            raise DeserializationError("incomplete: a list delta lost its base")
        if depth > MAX_CHAIN:
            raise DeserializationError(f"a list delta chain longer than {MAX_CHAIN} rows")
        parts, total = [memoryview(value)[head[1] :]], items
        for _, type_, value, items, _depth in rows[i + 1 : i + depth + 1]:
            if type_ != _DELTA or not isinstance(value, bytes) or type(items) is not int:
                raise DeserializationError("a list delta row is not a delta")
            parts.append(value)
            total += items
        if type(total) is not int or not 0 <= total < 2**32:
            raise DeserializationError("a list delta chain claims an impossible length")
        return self.serde.loads_typed(("msgpack", _pack_array_header(total) + b"".join(parts)))

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
        stored_checkpoint = _PLAIN.pack(saved)
        stored_metadata = json.dumps(
            get_checkpoint_metadata(config, metadata), ensure_ascii=False, default=_json_default
        )
        with self._writing() as conn:
            rows = [
                self._blob_row(conn, thread_id, ns, channel, str(version), values[channel])
                for channel, version in new_versions.items()
                if channel in values
            ]
            conn.executemany(
                "INSERT OR IGNORE INTO blobs (thread_id, checkpoint_ns, channel, version, type, "
                "value, base_version, items) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            conn.execute(
                "INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
                "parent_checkpoint_id, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?)",
                (thread_id, ns, checkpoint["id"], conf.get("checkpoint_id"), stored_checkpoint,
                 stored_metadata),
            )  # fmt: skip
        return checkpoint_config(thread_id, ns, checkpoint["id"])

    def _blob_row(
        self, conn: sqlite3.Connection, thread_id: str, ns: str, channel: str, version: str, value: Any
    ) -> tuple:
        type_, data = self.serde.dumps_typed(value)
        head = _array_header(data) if self._deltas and type_ == "msgpack" else None
        if head is None:
            return (thread_id, ns, channel, version, type_, data, None, None)
        items, header = head
        key = (thread_id, ns, channel)
        last = self._lists.get(key)
        if last is not None and last.version == version:  # a re-put: the row is already there
            return (thread_id, ns, channel, version, type_, data, None, items)
        self._lists.pop(key, None)
        if last is not None and self._extends(conn, key, last, items, data, header):
            suffix = data[header + len(last.data) - last.header :]
            self._remember(key, last._replace(
                version=version, items=items, data=data, header=header, chain=last.chain + 1,
                delta_bytes=last.delta_bytes + len(suffix),
            ))  # fmt: skip
            return (thread_id, ns, channel, version, _DELTA, suffix, last.version, items - last.items)
        self._remember(key, _ListState(version, items, data, header, 0, 0, len(data)))
        return (thread_id, ns, channel, version, type_, data, None, items)

    def _extends(
        self, conn: sqlite3.Connection, key: tuple, last: _ListState, items: int, data: bytes, header: int
    ) -> bool:
        if items < last.items or last.chain + 1 >= MAX_CHAIN:
            return False
        suffix_len = len(data) - header - (len(last.data) - last.header)
        budget = max(DELTA_RATIO * last.full_bytes, MIN_DELTA_BUDGET)
        if suffix_len < 0 or last.delta_bytes + suffix_len > budget:
            return False
        if not data.startswith(memoryview(last.data)[last.header :], header):
            return False
        # the base must still be there (another connection may have deleted the thread)
        return (
            conn.execute(
                "SELECT 1 FROM blobs WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? "
                "AND version = ?",
                (*key, last.version),
            ).fetchone()
            is not None
        )

    def _remember(self, key: tuple, state: _ListState) -> None:
        self._lists[key] = state
        if len(self._lists) > _CACHE_SIZE:
            self._lists.popitem(last=False)

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
            for table in ("checkpoints", "blobs", "writes"):
                conn.execute(f"DELETE FROM {table} WHERE thread_id = ?", (thread_id,))
            for key in [k for k in self._lists if k[0] == thread_id]:
                del self._lists[key]

    def get_next_version(self, current: str | int | None, channel: Any = None) -> str:
        """`<counter>.<random>`: sorts by counter as a string; the random part keeps two forks
        of one checkpoint from writing different values under the same (channel, version)."""
        return f"{version_counter(current) + 1:016}.{random.getrandbits(40):010x}"


def read_only_folder_note(path: str) -> str:
    """' (the folder F is read-only)' if the file's folder cannot be written, else ''."""
    if path.startswith(":") or path.startswith("<"):
        return ""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(folder) and not os.access(folder, os.W_OK):
        return f" (the folder {folder} is read-only)"
    return ""


def connect(path: str, timeout: float) -> sqlite3.Connection:
    """A connection for a saver; a path that cannot be a database file is refused by name."""
    if os.path.isdir(path):
        raise CheckpointDatabaseError(f"{path}: is a directory, not a checkpoint database file")
    try:
        return sqlite3.connect(path, check_same_thread=False, timeout=timeout)
    except sqlite3.Error as exc:
        raise CheckpointDatabaseError(
            f"{path}: cannot open database{read_only_folder_note(path)} ({exc})"
        ) from exc


__all__ = ["CheckpointDatabaseError", "SCHEMA_VERSION", "SqliteSaver", "connect"]
