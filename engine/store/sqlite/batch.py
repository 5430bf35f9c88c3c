"""Running a batch of store operations on a SQLite connection (shared by the sync and async
stores, which only differ in how they call embeddings and reach the connection).

A batch is planned first (`plan`): its puts collapse to the last one per (namespace, key)
and the texts to embed (those of the puts, and the search queries) are listed, so embeddings
are computed before the database is touched. `run` then answers, inside the caller's
transaction, gets, searches and namespace listings against the state before the batch, and
applies the puts last (deletes first, then writes in first-mention order), as langgraph does.

Ordering matches langgraph's SqliteStore: a search without a query returns the newest
`updated_at` (whole seconds) first and, within one second, items in the order langgraph's
query plan yields them: under a namespace prefix by namespace text then write order, else
in write order.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson

from engine.store.base import (
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    get_text_at_path,
    tokenize_path,
    validate_op_namespace,
)
from engine.store.sqlite import vectors
from engine.store.sqlite.filters import filter_sql

Loader = Callable[[Any], dict[str, Any]]
_COLUMNS = "i.namespace, i.key, i.value, i.created_at, i.updated_at"


@dataclass
class StoreSettings:
    """What a batch needs from its store: index fields, TTL refresh, how values load."""

    fields: list[tuple[str, Any]] | None = None  # (path, tokens) to embed; None: no index
    distance_type: str | None = None
    refresh_on_read: bool = False
    loader: Loader | None = None


@dataclass
class Plan:
    ops: list[Op]
    puts: dict[tuple[tuple[str, ...], str], PutOp] = field(default_factory=dict)
    doc_texts: list[tuple[str, str, str, str]] = field(default_factory=list)  # ns, key, field, text
    queries: list[str] = field(default_factory=list)  # one per ranked search, in op order
    writes: bool = False


def plan(ops: Iterable[Op], settings: StoreSettings) -> Plan:
    """Check the ops' namespaces and list what to embed; touches no database."""
    planned = Plan(list(ops))
    for op in planned.ops:
        validate_op_namespace(op)
        if isinstance(op, PutOp):
            planned.puts[(op.namespace, op.key)] = op
        elif isinstance(op, SearchOp):
            if op.query and settings.fields is not None:
                planned.queries.append(op.query)
            planned.writes |= bool(op.refresh_ttl and settings.refresh_on_read)
        elif isinstance(op, GetOp):
            planned.writes |= bool(op.refresh_ttl and settings.refresh_on_read)
        elif not isinstance(op, ListNamespacesOp):
            raise ValueError(f"Unknown operation type: {type(op)}")
    planned.writes |= bool(planned.puts)
    if settings.fields is not None:
        for op in planned.puts.values():
            if op.value is None or op.index is False:
                continue
            paths = (
                settings.fields if op.index is None else [(p, tokenize_path(p)) for p in op.index]
            )
            for path, tokens in paths:
                texts = get_text_at_path(op.value, tokens)
                for i, text in enumerate(texts):
                    slot = f"{path}.{i}" if len(texts) > 1 else path
                    planned.doc_texts.append((ns_text(op.namespace), op.key, slot, text))
    return planned


def run(
    conn: sqlite3.Connection,
    planned: Plan,
    settings: StoreSettings,
    doc_vectors: Sequence[Sequence[float]],
    query_vectors: Sequence[Sequence[float]],
) -> list[Result]:
    """Answer the reads, then apply the puts (inside the caller's transaction)."""
    if len(doc_vectors) != len(planned.doc_texts):
        raise ValueError(
            f"Number of embeddings ({len(doc_vectors)}) does not match number of texts "
            f"({len(planned.doc_texts)})"
        )
    now = datetime.now(UTC)
    queries = iter(query_vectors)
    results: list[Result] = []
    for op in planned.ops:
        if isinstance(op, GetOp):
            results.append(_get(conn, op, settings, now))
        elif isinstance(op, SearchOp):
            ranked = bool(op.query) and settings.fields is not None
            query = vectors.query_vector(next(queries)) if ranked else None
            results.append(_search(conn, op, settings, now, query))
        elif isinstance(op, ListNamespacesOp):
            results.append(_list_namespaces(conn, op))
        else:
            results.append(None)
    _apply_puts(conn, planned, doc_vectors, now)
    return results


def sweep(conn: sqlite3.Connection) -> int:
    """Delete the expired items (and their embeddings); returns how many."""
    deleted = conn.execute(
        "DELETE FROM store_items WHERE expires_at IS NOT NULL AND expires_at < ?", (time.time(),)
    ).rowcount
    if deleted:
        conn.execute(
            "DELETE FROM store_embeddings WHERE NOT EXISTS (SELECT 1 FROM store_items AS i "
            "WHERE i.namespace = store_embeddings.namespace AND i.key = store_embeddings.key)"
        )
    return deleted


# --- namespaces as text ---


def ns_text(namespace: Sequence[str]) -> str:
    return ".".join(namespace)


def ns_tuple(text: str) -> tuple[str, ...]:
    return tuple(text.split("."))


def _under(prefix: Sequence[str], column: str = "i.namespace") -> tuple[str, list[str]]:
    """SQL for "the namespace is `prefix` or below it", as a range the index can seek:
    every descendant's text starts with `prefix.`, i.e. lies between `prefix.` and `prefix/`."""
    if not prefix:
        return "1", []
    text = ns_text(prefix)
    return f"({column} = ? OR ({column} > ? AND {column} < ?))", [text, text + ".", text + "/"]


# --- reads ---


def _refresh(conn: sqlite3.Connection, keys: Iterable[tuple[str, str]], now: datetime) -> None:
    conn.executemany(
        "UPDATE store_items SET expires_at = ? + ttl_minutes * 60 "
        "WHERE namespace = ? AND key = ? AND ttl_minutes IS NOT NULL",
        [(now.timestamp(), namespace, key) for namespace, key in keys],
    )


def _get(
    conn: sqlite3.Connection, op: GetOp, settings: StoreSettings, now: datetime
) -> Item | None:
    namespace = ns_text(op.namespace)
    if op.refresh_ttl and settings.refresh_on_read:
        _refresh(conn, [(namespace, op.key)], now)
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM store_items AS i WHERE i.namespace = ? AND i.key = ?",
        (namespace, op.key),
    ).fetchone()
    if row is None:
        return None
    _, key, value, created, updated = row
    return Item(value=_load(value, settings.loader), key=key, namespace=op.namespace,
                created_at=created, updated_at=updated)  # fmt: skip


def _search(
    conn: sqlite3.Connection,
    op: SearchOp,
    settings: StoreSettings,
    now: datetime,
    query: list[float] | None,
) -> list[SearchItem]:
    where, params = _under(op.namespace_prefix)
    conditions, filter_params = filter_sql(op.filter)
    where = " AND ".join([where, *conditions])
    params += filter_params
    if query is None:
        tie = "i.namespace, i.seq" if op.namespace_prefix else "i.seq"
        rows = conn.execute(
            f"SELECT {_COLUMNS}, NULL FROM store_items AS i WHERE {where} "
            f"ORDER BY i.updated_at DESC, {tie} LIMIT ? OFFSET ?",
            [*params, op.limit, op.offset],
        ).fetchall()
    else:
        rows = _ranked(conn, where, params, query, settings.distance_type)
        rows = rows[op.offset : op.offset + op.limit]
    if op.refresh_ttl and settings.refresh_on_read:
        _refresh(conn, [(row[0], row[1]) for row in rows], now)
    return [
        SearchItem(
            ns_tuple(namespace), key, _load(value, settings.loader), created, updated, score
        )  # fmt: skip
        for namespace, key, value, created, updated, score in rows
    ]


def _ranked(
    conn: sqlite3.Connection,
    where: str,
    params: list[Any],
    query: list[float],
    distance_type: str | None,
) -> list[tuple]:
    """Items with an embedding under the conditions, each scored by its best-matching field,
    highest first (only embedded items are found, as with langgraph's SqliteStore)."""
    score = vectors.scorer(distance_type)
    best: dict[tuple[str, str], tuple[float, int, tuple]] = {}
    for *row, seq, blob in conn.execute(
        f"SELECT {_COLUMNS}, i.seq, e.vector FROM store_items AS i JOIN store_embeddings AS e "
        f"ON e.namespace = i.namespace AND e.key = i.key WHERE {where}",
        params,
    ):
        value = score(query, blob)
        ident = (row[0], row[1])
        if ident not in best or value > best[ident][0]:
            best[ident] = (value, seq, tuple(row))
    ordered = sorted(best.values(), key=lambda entry: (-entry[0], entry[1]))
    return [(*row, value) for value, _, row in ordered]


def _list_namespaces(conn: sqlite3.Connection, op: ListNamespacesOp) -> list[tuple[str, ...]]:
    """Namespaces matching every condition, cut to `max_depth` labels, sorted by their
    dot-joined text (langgraph's order: `("a-b",)` before `("a", "b")`), then paged."""
    conditions = [c for c in op.match_conditions or () if c.path]
    seek = next((c.path for c in conditions if c.match_type == "prefix" and "*" not in c.path), ())
    where, params = _under(seek, column="namespace")
    texts = [text for (text,) in conn.execute(
        f"SELECT DISTINCT namespace FROM store_items WHERE {where}", params)]  # fmt: skip
    found = {
        text if op.max_depth is None else ns_text(ns_tuple(text)[: op.max_depth])
        for text in texts
        if all(_matches(c, ns_tuple(text)) for c in conditions)
    }
    return [ns_tuple(text) for text in sorted(found)[op.offset : op.offset + op.limit]]


def _matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        part = namespace[: len(path)]
    elif condition.match_type == "suffix":
        part = namespace[len(namespace) - len(path) :]
    else:
        return True  # langgraph ignores (and logs) an unknown match type
    return all(want == "*" or have == want for have, want in zip(part, path, strict=True))


def _load(value: Any, loader: Loader | None) -> dict[str, Any]:
    return loader(value) if loader is not None else orjson.loads(value)


# --- writes ---


def _apply_puts(
    conn: sqlite3.Connection, planned: Plan, doc_vectors: Sequence[Sequence[float]], now: datetime
) -> None:
    stamp = now.strftime("%Y-%m-%d %H:%M:%S")
    removed = [(ns_text(ns), key) for (ns, key), op in planned.puts.items() if op.value is None]
    written = [op for op in planned.puts.values() if op.value is not None]
    conn.executemany("DELETE FROM store_items WHERE namespace = ? AND key = ?", removed)
    conn.executemany(
        "DELETE FROM store_embeddings WHERE namespace = ? AND key = ?",
        removed + [(ns_text(op.namespace), op.key) for op in written],
    )
    conn.executemany(
        "INSERT OR REPLACE INTO store_items (namespace, key, value, created_at, updated_at, "
        "expires_at, ttl_minutes) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                ns_text(op.namespace),
                op.key,
                orjson.dumps(dict(op.value)).decode(),
                stamp,
                stamp,
                None if op.ttl is None else now.timestamp() + op.ttl * 60,
                op.ttl,
            )  # fmt: skip
            for op in written
        ],
    )
    conn.executemany(
        "INSERT OR REPLACE INTO store_embeddings (namespace, key, field, vector) "
        "VALUES (?, ?, ?, ?)",
        [(ns, key, slot, vectors.pack(vector))
         for (ns, key, slot, _), vector in zip(planned.doc_texts, doc_vectors, strict=True)],
    )  # fmt: skip
