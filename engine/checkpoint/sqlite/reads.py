"""Turning stored rows into CheckpointTuples, many at a time, and the thread summaries.

A `TupleReader` serves one `get_tuple` or one `list` call: for each batch of checkpoint rows it
fetches the values they need (`ValueReader`, shared across the call's batches, so a value held
by many checkpoints is fetched once) and their pending writes in one query. Listing k
checkpoints therefore costs O(k) queries' worth of rows, whatever the thread's length.

`get_tuple` reads one checkpoint and its writes in one statement (`select_one`), which SQLite
runs on one snapshot of the file; when every value it needs is cached that is the whole read,
with no explicit transaction (see `SqliteSaver.get_tuple`). `ReadScope` is the lock, the
optional read transaction and the error translation of a read, as one plain context manager.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, NamedTuple

import ormsgpack

from engine.checkpoint.base import CheckpointTuple, checkpoint_config
from engine.checkpoint.serde.base import SerializerProtocol
from engine.checkpoint.serde.jsonplus import DeserializationError
from engine.checkpoint.sqlite.errors import CheckpointDatabaseError, explain
from engine.checkpoint.sqlite.rows import (
    BAD_ROW,
    PLAIN,
    CheckedBlobs,
    json_copy,
    matches,
)
from engine.checkpoint.sqlite.values import ValueCache, ValueReader, handed_out

SELECT_CHECKPOINT = (
    "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata "
    "FROM "
)
_IDS_PER_QUERY = 500
_STR = frozenset({str})
_ONE = (
    "SELECT c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.parent_checkpoint_id, "
    "c.checkpoint, c.metadata, w.checkpoint_id, w.task_id, w.channel, w.type, w.value, "
    "w.task_path FROM "
    "(SELECT * FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? {where}) AS c "
    "LEFT JOIN writes AS w ON w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns "
    "AND w.checkpoint_id = c.checkpoint_id ORDER BY w.task_path, w.task_id, w.idx"
)
SELECT_LATEST = _ONE.format(where="ORDER BY checkpoint_id DESC LIMIT 1")
SELECT_BY_ID = _ONE.format(where="AND checkpoint_id = ?")


def select_one(conn: sqlite3.Connection, key: tuple) -> tuple[list, dict]:
    """One checkpoint's row (a list of at most one) and its writes, in one statement (so one
    snapshot): `key` is (thread, ns) for the newest, (thread, ns, checkpoint id) for that one."""
    rows = conn.execute(SELECT_LATEST if len(key) == 2 else SELECT_BY_ID, key).fetchall()
    if not rows:
        return [], {}
    first = rows[0]
    writes = [r[6:] for r in rows if r[6] is not None]  # no write joined: NULLs
    return [first[:6]], {first[:3]: writes}


class NewestRows:
    """What `select_one` read for each thread's newest checkpoint, with the file's stamp when
    it was read: while no connection has committed since (`PRAGMA data_version`) and this one
    has changed no row (`total_changes`), reading the newest checkpoint again costs the stamp,
    not the query (get_state polled on a thread, the studio after each step); and, once read
    from cached values, the tuple itself, as a `NewestTuple` handing out copies."""

    LIMIT = 256

    def __init__(self) -> None:
        # (thread, ns) -> [stamp, rows, writes, NewestTuple or None]
        self.kept: dict[tuple, list] = {}

    def select(self, conn: sqlite3.Connection, key: tuple) -> tuple[list, dict, list | None]:
        """The rows and writes, and the entry kept for them (None: not kept)."""
        if len(key) != 2 or conn.in_transaction:  # one checkpoint by id, or inside batch()
            return (*select_one(conn, key), None)
        # read before the rows: a commit in between changes the stamp the next read sees
        stamp = (conn.execute("PRAGMA data_version").fetchone()[0], conn.total_changes)
        kept = self.kept.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1], kept[2], kept
        rows, writes = select_one(conn, key)
        if len(self.kept) >= self.LIMIT:
            self.kept.clear()
        kept = self.kept[key] = [stamp, rows, writes, None]
        return rows, writes, kept


class NewestTuple:
    """A checkpoint tuple built from cached values, kept to be handed out again while its rows
    are unchanged: each call a new tuple whose dicts and lists are its own (decoded again, or
    copied), so a caller changing one changes no other; values of immutable content shared."""

    __slots__ = ("row", "metadata", "values", "writes", "loads")

    def __init__(self, row: tuple, metadata: dict, values: dict, writes: list,
                 loads: Callable) -> None:  # fmt: skip
        self.row, self.loads = row, loads
        self.values, self.writes = dict(values), writes
        try:  # JSON's types are msgpack's: unpacking copies it fastest (a huge int cannot)
            self.metadata: bytes | dict = ormsgpack.packb(metadata)
        except (TypeError, ValueError):
            self.metadata = json_copy(metadata)

    def __call__(self) -> CheckpointTuple:
        thread_id, ns, checkpoint_id, parent_id, blob, _ = self.row
        checkpoint = PLAIN.unpack(blob)
        checkpoint["channel_values"] = handed_out({**self.values})
        metadata = self.metadata
        return CheckpointTuple(
            checkpoint_config(thread_id, ns, checkpoint_id),
            checkpoint,
            ormsgpack.unpackb(metadata) if type(metadata) is bytes else json_copy(metadata),
            checkpoint_config(thread_id, ns, parent_id) if parent_id else None,
            _pending(self.loads, self.writes) if self.writes else [],
        )


class ReadScope:
    """`with ReadScope(saver, begin) as conn`: the saver's lock held, a read transaction open
    when `begin` (every query inside sees one snapshot), SQLite errors named by file."""

    __slots__ = ("saver", "begin", "own")

    def __init__(self, saver: Any, begin: bool = True) -> None:
        self.saver, self.begin, self.own = saver, begin, False

    def __enter__(self) -> sqlite3.Connection:
        saver = self.saver
        if not saver.is_setup:
            saver.setup()
        saver.lock.acquire()
        conn = saver.conn
        try:
            self.own = self.begin and not conn.in_transaction  # inside batch(): its snapshot
            if self.own:
                conn.execute("BEGIN")
        except BaseException as exc:
            saver.lock.release()
            if isinstance(exc, sqlite3.Error) and not isinstance(exc, CheckpointDatabaseError):
                raise explain(exc, saver.path, saver._timeout) from exc
            raise
        return conn

    def snapshot(self) -> None:
        """Open the read transaction now (inside the scope), if none is open."""
        conn = self.saver.conn
        if not conn.in_transaction:
            conn.execute("BEGIN")
            self.own = True

    def __exit__(self, kind: Any, exc: BaseException | None, tb: Any) -> None:
        saver = self.saver
        try:
            if self.own and saver.conn.in_transaction:
                saver.conn.rollback()
        except sqlite3.Error as rollback_exc:
            exc = exc or rollback_exc
        finally:
            saver.lock.release()
        if isinstance(exc, sqlite3.Error) and not isinstance(exc, CheckpointDatabaseError):
            raise explain(exc, saver.path, saver._timeout) from exc


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
                 filter: dict | None = None, checked: CheckedBlobs | None = None) -> None:  # fmt: skip
        self.serde, self.cache, self.path, self.filter = serde, cache, path, filter
        self.checked = checked or CheckedBlobs()
        self.values: dict[tuple[str, str], ValueReader] = {}

    def error(self, row: tuple, exc: Exception) -> CheckpointDatabaseError:
        """A stored row this reader cannot make sense of, as an error naming where."""
        return CheckpointDatabaseError(
            f"{self.path}: thread {row[0]!r}, checkpoint {row[2]!r}: cannot read the stored "
            f"checkpoint: {exc}"
        )

    def tuples(self, conn: sqlite3.Connection, rows: list[tuple], writes: dict | None = None,
               fetch: bool = True, span: bool = False) -> list[CheckpointTuple] | None:  # fmt: skip
        """The tuples of `rows` (checkpoint rows of SELECT_CHECKPOINT) that match the filter;
        `writes`: their pending writes if already read. With `fetch` false, None instead of a
        query for a value the cache does not hold. `span`: the rows are every checkpoint of
        one thread and namespace between the first and the last (newest first), so their
        writes are read by one range of keys instead of by each id."""
        kept, filter, cache = [], self.filter, self.cache
        wanted: dict[tuple[str, str], set] = {}
        for row in rows:
            try:
                metadata = self.checked.metadata(row[:3], row[5])
                if filter and not matches(metadata, filter):
                    continue
                checkpoint = self.checked.checkpoint(row[:3], row[4])
                versions = checkpoint["channel_versions"]
                # values all cached (a history read again): taken now, nothing to fetch
                values = cache.held(row[0], row[1], versions)
                if values is None:
                    pairs = wanted.get(row[:2])
                    if pairs is None:
                        pairs = wanted[row[:2]] = set()
                    if _STR.issuperset(map(type, versions.values())):
                        pairs.update(versions.items())
                    else:
                        pairs.update((c, str(v)) for c, v in versions.items())
            except BAD_ROW as exc:  # DeserializationError included
                raise self.error(row, exc) from None
            kept.append((row, metadata, checkpoint, values))
        for key, pairs in wanted.items():
            reader = self.values.get(key)
            if reader is None:
                reader = self.values[key] = ValueReader(self.serde, self.cache, *key)
            if not reader.holds(pairs):
                if not fetch:
                    return None
                reader.fetch(conn, pairs)
        if writes is None and span and rows:
            writes = _writes_between(conn, rows[0][:2], rows[-1][2], rows[0][2])
        elif writes is None:
            writes = _writes(conn, [row[:3] for row, *_ in kept])
        out = []
        for row, metadata, checkpoint, values in kept:
            try:
                out.append(self._tuple(row, metadata, checkpoint, writes.get(row[:3], ()), values))
            except BAD_ROW as exc:
                raise self.error(row, exc) from None
        return out

    def cached(self, row: tuple, writes: list, kept: list | None = None) -> CheckpointTuple | None:
        """The tuple of one checkpoint row and its writes if the cache holds every value it
        names (get_tuple's usual case), else None. `kept`: the NewestRows entry of the row,
        given the NewestTuple that makes it again."""
        try:
            metadata = self.checked.metadata(row[:3], row[5])
            checkpoint = self.checked.checkpoint(row[:3], row[4])
            values = self.cache.held(row[0], row[1], checkpoint["channel_versions"])
            if values is None:
                return None
            if kept is not None:  # (it keeps the values as held: the tuple gets copies)
                kept[3] = NewestTuple(row, metadata, values, writes, self.serde.loads_typed)
            return self._tuple(row, metadata, checkpoint, writes, values)
        except BAD_ROW as exc:
            raise self.error(row, exc) from None

    def _tuple(self, row: tuple, metadata: dict, checkpoint: dict, writes: Any,
               values: dict | None = None) -> CheckpointTuple:  # fmt: skip
        thread_id, ns, checkpoint_id, parent_id = row[:4]
        if values is None:
            values = self.values[(thread_id, ns)].values_of(checkpoint["channel_versions"])
        else:  # (copies made now, not with the row: a long list young for less time)
            values = handed_out(values)
        checkpoint["channel_values"] = values
        return CheckpointTuple(
            checkpoint_config(thread_id, ns, checkpoint_id),
            checkpoint,
            metadata,
            checkpoint_config(thread_id, ns, parent_id) if parent_id else None,
            _pending(self.serde.loads_typed, writes),
        )


def _pending(loads: Callable, writes: Any) -> list:
    """A checkpoint's pending writes (task id, channel, value), decoded."""
    try:
        return [(task_id, channel, None if type_ == "null" else loads((type_, value)))
                for _, task_id, channel, type_, value, _ in writes]  # fmt: skip
    except DeserializationError:
        return _named_writes(loads, writes)


def _named_writes(loads: Callable, writes: Any) -> list:
    """The writes decoded one by one, the bad one's error naming its task and channel."""
    pending = []
    for _, task_id, channel, type_, value, _ in writes:
        try:
            pending.append((task_id, channel, loads((type_, value))))
        except DeserializationError as exc:
            raise DeserializationError(f"task {task_id!r}'s write to {channel!r}: {exc}") from None
    return pending


def _writes_between(conn: sqlite3.Connection, key: tuple, low: str, high: str) -> dict:
    """_writes of every checkpoint of (thread, ns) `key` with an id from `low` to `high`: read
    in key order (no sort in SQL), a checkpoint whose tasks have different paths sorted here."""
    out: dict[tuple, list] = {}
    mixed, checkpoint_id, found = set(), None, []
    for row in conn.execute(
        "SELECT checkpoint_id, task_id, channel, type, value, task_path FROM writes WHERE "
        "thread_id = ? AND checkpoint_ns = ? AND checkpoint_id >= ? AND checkpoint_id <= ? "
        "ORDER BY checkpoint_id, task_id, idx",
        (*key, low, high),
    ):
        if row[0] != checkpoint_id:  # rows come a checkpoint at a time
            checkpoint_id = row[0]
            found = out[(*key, checkpoint_id)] = []
        elif found[-1][5] != row[5]:
            mixed.add((*key, checkpoint_id))
        found.append(row)
    for checkpoint in mixed:  # stable: by path, then task id and index as read
        out[checkpoint].sort(key=_path_order)
    return out


def _path_order(row: tuple) -> tuple:
    """A write row's place by task path, as SQLite orders the column (a number, only in a
    tampered file, before text)."""
    path = row[5]
    return (1, path) if type(path) is str else (0, str(path))


def _writes(conn: sqlite3.Connection, keys: list[tuple]) -> dict[tuple, list]:
    """(thread, ns, checkpoint id) -> its pending writes (checkpoint_id, task_id, channel,
    type, value, task_path), in task path, task id and index order."""
    groups: dict[tuple[str, str], list[str]] = {}
    for thread_id, ns, checkpoint_id in keys:
        groups.setdefault((thread_id, ns), []).append(checkpoint_id)
    out: dict[tuple, list] = {}
    for (thread_id, ns), ids in groups.items():
        for i in range(0, len(ids), _IDS_PER_QUERY):
            chunk = ids[i : i + _IDS_PER_QUERY]
            rows = conn.execute(
                "SELECT checkpoint_id, task_id, channel, type, value, task_path FROM writes WHERE "
                f"thread_id = ? AND checkpoint_ns = ? AND checkpoint_id IN ({', '.join('?' * len(chunk))}) "
                "ORDER BY checkpoint_id, task_path, task_id, idx",
                (thread_id, ns, *chunk),
            )
            by_id: dict[str, list] = {}
            for row in rows:
                found = by_id.get(row[0])
                if found is None:
                    found = by_id[row[0]] = []
                found.append(row)
            for checkpoint_id, found in by_id.items():
                out[(thread_id, ns, checkpoint_id)] = found
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
