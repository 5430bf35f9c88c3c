"""SqliteStore: the long-term store in a SQLite file (mirrors `langgraph.store.sqlite.base`).

Same public API and results as langgraph's SqliteStore (see `batch` for the semantics and
`schema` for the tables, which are our own). Vector search needs no SQLite extension: vectors
are stored as float32 blobs and scored in Python (`vectors`). Values are stored as JSON and
read back as JSON, so reading a file never imports code.

    with SqliteStore.from_conn_string("memories.sqlite", index={"embed": embed, "dims": 8}) as store:
        store.setup()
        store.put(("users", "1"), "prefs", {"theme": "dark"})

One store may be shared by threads (a lock serialises its use of the connection).
"""

from __future__ import annotations

import concurrent.futures
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from engine.checkpoint.sqlite.errors import database_path
from engine.store.base import (
    BaseStore,
    IndexConfig,
    Op,
    Result,
    TTLConfig,
    ensure_embeddings,
    tokenize_path,
)
from engine.store.sqlite import batch, schema
from engine.store.sqlite.schema import StoreDatabaseError

logger = logging.getLogger(__name__)

_NO_ASYNC = (
    "The SqliteStore does not support async methods. Consider using AsyncSqliteStore "
    "instead.\nfrom langgraph.store.sqlite.aio import AsyncSqliteStore\n"
)


class SqliteIndexConfig(IndexConfig, total=False):
    """`IndexConfig` plus `distance_type` (`"cosine"`, the default, `"l2"` or
    `"inner_product"`) and `text_fields`, the name langgraph's SqliteStore reads for `fields`."""

    distance_type: str
    text_fields: list[str] | str | None


class BaseSqliteStore:
    """Configuration shared by the sync and async SQLite stores."""

    supports_ttl = True
    index_config: dict[str, Any] | None = None
    ttl_config: TTLConfig | None = None

    def _configure(
        self,
        conn: Any,
        deserializer: Callable[[Any], dict[str, Any]] | None,
        index: SqliteIndexConfig | None,
        ttl: TTLConfig | None,
    ) -> None:
        self.conn = conn
        self._deserializer = deserializer
        self.is_setup = False
        self.ttl_config = ttl
        self.embeddings = None
        self.index_config = None
        fields = None
        if index:
            self.index_config = dict(index)
            self.embeddings = ensure_embeddings(index.get("embed"))
            paths = index.get("fields") or index.get("text_fields") or ["$"]
            if isinstance(paths, str):
                paths = [paths]
            if not isinstance(paths, list):
                raise ValueError(f"Text fields must be a list or a string. Got {paths}")
            fields = [(p, "$" if p == "$" else tokenize_path(p)) for p in paths]
            # langgraph tooling reads these keys of index_config by name
            self.index_config["__tokenized_fields"] = fields
            self.index_config["__estimated_num_vectors"] = sum(
                1 if tokens == "$" else len(tokens) for _, tokens in fields
            )
        self._settings = batch.StoreSettings(
            fields=fields,
            distance_type=(index or {}).get("distance_type"),
            refresh_on_read=bool((ttl or {}).get("refresh_on_read", False)),
            loader=deserializer,
        )

    def _sweep_interval(self, minutes: float | None) -> float:
        return float(minutes or (self.ttl_config or {}).get("sweep_interval_minutes") or 5)


def connect(conn_string: str) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit), usable from any thread."""
    return sqlite3.connect(conn_string, check_same_thread=False, isolation_level=None)


def setup_tables(conn: sqlite3.Connection) -> None:
    with transaction(conn, write=True):
        schema.ensure(conn, database_path(conn))


@contextmanager
def transaction(conn: sqlite3.Connection, *, write: bool) -> Iterator[sqlite3.Connection]:
    """One transaction (a write takes the write lock up front); joins one already open."""
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        yield conn
    except BaseException:
        if own and conn.in_transaction:
            conn.rollback()
        raise
    if own and conn.in_transaction:
        conn.commit()


def run_plan(
    conn: sqlite3.Connection, planned: batch.Plan, settings, docs, queries
) -> list[Result]:
    with transaction(conn, write=planned.writes):
        return batch.run(conn, planned, settings, docs, queries)


def sweep(conn: sqlite3.Connection) -> int:
    with transaction(conn, write=True):
        return batch.sweep(conn)


class SqliteStore(BaseSqliteStore, BaseStore):
    """A `BaseStore` in a SQLite database, with optional vector search and TTL.

    Args:
        conn: A `sqlite3.Connection` (open it with `check_same_thread=False` to share the
            store between threads).
        deserializer: Turns a stored value (JSON text) into the dict returned; default JSON.
        index: Enables `search(query=...)`: `embed`, `dims`, `fields` (or `text_fields`) to
            embed (default the whole value), `distance_type`.
        ttl: `TTLConfig`; `default_ttl` (minutes) applies to puts without `ttl`,
            `refresh_on_read` resets an item's expiry when read, `sweep_interval_minutes` is
            the period of `start_ttl_sweeper`. Expired items are read until swept, as in
            langgraph.
    """

    def __init__(
        self,
        conn: sqlite3.Connection,
        *,
        deserializer: Callable[[Any], dict[str, Any]] | None = None,
        index: SqliteIndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> None:
        super().__init__()
        self._configure(conn, deserializer, index, ttl)
        self.lock = threading.RLock()
        self._sweeper: threading.Thread | None = None
        self._stop_sweeping = threading.Event()

    @classmethod
    @contextmanager
    def from_conn_string(
        cls,
        conn_string: str,
        *,
        index: SqliteIndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> Iterator[SqliteStore]:
        """A store on its own connection to `conn_string` (a path or ":memory:"), closed on
        exit; call `setup()` before use (or let the first operation do it)."""
        conn = connect(conn_string)
        try:
            yield cls(conn, index=index, ttl=ttl)
        finally:
            conn.close()

    def setup(self) -> None:
        """Create the tables, or check an existing file's; idempotent.

        Raises StoreDatabaseError for a file whose store tables this version cannot use."""
        with self.lock:
            if not self.is_setup:
                setup_tables(self.conn)
                self.is_setup = True

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        planned = batch.plan(ops, self._settings)
        docs = queries = []
        if planned.doc_texts:
            docs = self.embeddings.embed_documents([text for *_, text in planned.doc_texts])
        if planned.queries:  # langgraph embeds search queries as documents too
            queries = self.embeddings.embed_documents(planned.queries)
        self.setup()
        with self.lock:
            return run_plan(self.conn, planned, self._settings, docs, queries)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        raise NotImplementedError(_NO_ASYNC)

    # --- TTL ---

    def sweep_ttl(self) -> int:
        """Delete the expired items; returns how many were deleted."""
        self.setup()
        with self.lock:
            return sweep(self.conn)

    def start_ttl_sweeper(
        self, sweep_interval_minutes: int | None = None
    ) -> concurrent.futures.Future[None]:
        """Sweep every `sweep_interval_minutes` (else the TTL config's, else 5) on a daemon
        thread until `stop_ttl_sweeper`; the future resolves when it stops (cancelling it
        stops it). Without a TTL config, nothing runs and the future is already done."""
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        if not self.ttl_config:
            future.set_result(None)
            return future
        future.add_done_callback(lambda f: f.cancelled() and self._stop_sweeping.set())
        if self._sweeper is not None and self._sweeper.is_alive():
            return future
        self._stop_sweeping.clear()
        seconds = self._sweep_interval(sweep_interval_minutes) * 60

        def loop() -> None:
            while not self._stop_sweeping.wait(seconds):
                try:
                    swept = self.sweep_ttl()
                    if swept:
                        logger.info("Store swept %d expired items", swept)
                except Exception:
                    logger.exception("Store TTL sweep failed")
            if not future.done():
                future.set_result(None)

        self._sweeper = threading.Thread(target=loop, daemon=True, name="ttl-sweeper")
        self._sweeper.start()
        return future

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper thread; False if it is still running after `timeout` seconds."""
        if self._sweeper is None or not self._sweeper.is_alive():
            return True
        self._stop_sweeping.set()
        self._sweeper.join(timeout)
        if self._sweeper.is_alive():
            return False
        self._sweeper = None
        return True

    def __del__(self) -> None:
        if getattr(self, "_sweeper", None) is not None:
            self.stop_ttl_sweeper(timeout=0.1)


__all__ = ["BaseSqliteStore", "SqliteIndexConfig", "SqliteStore", "StoreDatabaseError"]
