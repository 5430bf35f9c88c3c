"""Dictionary-backed store with optional vector search (mirrors `langgraph.store.memory`).

Semantics of `InMemoryStore.batch` (same as langgraph's):
    * reads (get, search, list_namespaces) see the state *before* the batch's puts, which are
      applied last; several puts to one `(namespace, key)` collapse to the last one;
    * a put replaces the item and resets both `created_at` and `updated_at` to now (UTC);
    * search scans namespaces in first-touch order, items in insertion order; a replaced item
      keeps its place, a deleted-then-put item moves to the end;
    * `get` and `delete` on an unseen namespace register it (empty), so it is listed by
      `list_namespaces`;
    * TTL is not supported (`put(..., ttl=x)` with x not None raises NotImplementedError).

With `index={"embed": ..., "fields": [...]}` puts embed the texts at the configured paths
and `search(query=...)` ranks items by their best cosine similarity (max over vectors);
items without vectors follow, unscored. One divergence: langgraph raises ValueError when a
batch embeds the same text twice; here the one vector is shared.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import logging
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from engine.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
)

logger = logging.getLogger(__name__)

Candidates = list[tuple[Item, list[list[float]]]]
Location = tuple[tuple[str, ...], str, str]  # (namespace, key, field path)


class InMemoryStore(BaseStore):
    """In-memory `BaseStore`; data is lost when the process exits.

    Args:
        index: Optional `IndexConfig` enabling semantic search. `embed` may be a LangChain
            `Embeddings`, a sync or async `list[str] -> list[list[float]]` function, or a
            `"provider:model"` string; `fields` defaults to `["$"]` (the whole value).
    """

    def __init__(self, *, index: IndexConfig | None = None) -> None:
        # langgraph tooling reads these two attributes by name: keep names and shapes.
        self._data: dict[tuple[str, ...], dict[str, Item]] = defaultdict(dict)
        self._vectors: dict[tuple[str, ...], dict[str, dict[str, list[float]]]] = defaultdict(
            lambda: defaultdict(dict)
        )
        self.index_config: dict[str, Any] | None = None
        self.embeddings = None
        if index:
            self.index_config = dict(index)
            self.embeddings = ensure_embeddings(index.get("embed"))
            self.index_config["__tokenized_fields"] = [
                (p, p if p == "$" else tokenize_path(p)) for p in index.get("fields") or ["$"]
            ]

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ops synchronously (see the module docstring for ordering rules)."""
        results, puts, searches = self._read(ops)
        queries = self._queries(searches)
        vectors = {q: self.embeddings.embed_query(q) for q in queries}
        self._finish_searches(searches, vectors, results)
        texts = self._texts_to_embed(puts)
        if texts:
            self._store_vectors(texts, self.embeddings.embed_documents(list(texts)))
        self._apply_puts(puts)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async `batch`; embeddings go through the async embedding methods."""
        results, puts, searches = self._read(ops)
        queries = self._queries(searches)
        embedded = await asyncio.gather(*(self.embeddings.aembed_query(q) for q in queries))
        self._finish_searches(searches, dict(zip(queries, embedded, strict=True)), results)
        texts = self._texts_to_embed(puts)
        if texts:
            self._store_vectors(texts, await self.embeddings.aembed_documents(list(texts)))
        self._apply_puts(puts)
        return results

    # --- reading ---

    def _read(self, ops: Iterable[Op]):
        """Answer gets and namespace listings; collect search candidates and puts."""
        results: list[Result] = []
        puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
        searches: dict[int, tuple[SearchOp, Candidates]] = {}
        for i, op in enumerate(ops):
            result = None
            if isinstance(op, GetOp):
                result = self._data[op.namespace].get(op.key)
            elif isinstance(op, SearchOp):
                searches[i] = (op, self._candidates(op))
            elif isinstance(op, ListNamespacesOp):
                result = self._list_namespaces(op)
            elif isinstance(op, PutOp):
                puts[(op.namespace, op.key)] = op
            else:
                raise ValueError(f"Unknown operation type: {type(op)}")
            results.append(result)
        return results, puts, searches

    def _candidates(self, op: SearchOp) -> Candidates:
        """Items under the prefix passing the filter, with their vectors if ranking."""
        n = len(op.namespace_prefix)
        ranking = bool(op.query)
        out: Candidates = []
        for namespace, items in list(self._data.items()):
            if namespace[:n] != op.namespace_prefix:
                continue
            for key, item in items.items():
                if op.filter and not all(
                    _compare_values(item.value.get(k), v) for k, v in op.filter.items()
                ):
                    continue
                vectors = self._vectors[namespace].get(key) if ranking else None
                out.append((item, list(vectors.values()) if vectors else []))
        return out

    def _queries(self, searches: dict[int, tuple[SearchOp, Candidates]]) -> list[str]:
        if not self.embeddings:
            return []
        return list(dict.fromkeys(op.query for op, _ in searches.values() if op.query))

    def _finish_searches(
        self,
        searches: dict[int, tuple[SearchOp, Candidates]],
        query_vectors: dict[str, list[float]],
        results: list[Result],
    ) -> None:
        for i, (op, candidates) in searches.items():
            if op.query and op.query in query_vectors:
                kept = _rank(op, candidates, query_vectors[op.query])
            else:
                kept = [(None, item) for item, _ in candidates[op.offset : op.offset + op.limit]]
            results[i] = [
                SearchItem(
                    item.namespace,
                    item.key,
                    item.value,
                    item.created_at,
                    item.updated_at,
                    None if score is None else float(score),
                )
                for score, item in kept
            ]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces = [
            ns
            for ns in list(self._data)
            if all(_does_match(c, ns) for c in op.match_conditions or ())
        ]
        if op.max_depth is not None:
            namespaces = list({ns[: op.max_depth] for ns in namespaces})
        return sorted(namespaces)[op.offset : op.offset + op.limit]

    # --- writing ---

    def _texts_to_embed(self, puts: dict[Any, PutOp]) -> dict[str, list[Location]]:
        """Map each text to embed to the (namespace, key, path) slots that use it."""
        if not (puts and self.embeddings):
            return {}
        texts: dict[str, list[Location]] = defaultdict(list)
        for op in puts.values():
            if op.value is None or op.index is False:
                continue
            if op.index is None:
                paths = self.index_config["__tokenized_fields"]
            else:
                paths = [(p, tokenize_path(p)) for p in op.index]
            for path, tokens in paths:
                found = get_text_at_path(op.value, tokens)
                for j, text in enumerate(found):
                    slot = f"{path}.{j}" if len(found) > 1 else path
                    texts[text].append((op.namespace, op.key, slot))
        return texts

    def _store_vectors(
        self, texts: dict[str, list[Location]], embeddings: list[list[float]]
    ) -> None:
        if len(embeddings) != len(texts):
            raise ValueError(
                f"Number of embeddings ({len(embeddings)}) does not"
                f" match number of texts ({len(texts)})"
            )
        for embedding, slots in zip(embeddings, texts.values(), strict=True):
            for namespace, key, path in slots:
                self._vectors[namespace][key][path] = embedding

    def _apply_puts(self, puts: dict[tuple[tuple[str, ...], str], PutOp]) -> None:
        for (namespace, key), op in puts.items():
            if op.value is None:
                self._data[namespace].pop(key, None)
                self._vectors[namespace].pop(key, None)
            else:
                now = datetime.now(UTC)
                self._data[namespace][key] = Item(
                    value=dict(op.value),
                    key=key,
                    namespace=namespace,
                    created_at=now,
                    updated_at=now,
                )


def _rank(op: SearchOp, candidates: Candidates, query: list[float]) -> list[tuple[Any, Item]]:
    """Order by best cosine score, page by offset/limit, then pad with unembedded items."""
    items = [item for item, vectors in candidates for _ in vectors]
    scores = _cosines(query, [v for _, vectors in candidates for v in vectors])
    scored = list(zip(scores, items, strict=True))
    scored.sort(key=lambda pair: pair[0], reverse=True)
    seen: set[tuple[tuple[str, ...], str]] = set()
    kept: list[tuple[Any, Item]] = []
    for score, item in scored:
        ident = (item.namespace, item.key)
        if ident in seen:
            continue
        rank = len(seen)
        seen.add(ident)
        if rank >= op.offset + op.limit:
            break
        if rank >= op.offset:
            kept.append((score, item))
    unscored = [item for item, vectors in candidates if not vectors]
    if unscored and len(kept) < op.limit:  # like langgraph, this padding ignores offset
        kept.extend((None, item) for item in unscored[: op.limit - len(kept)])
    return kept


@functools.cache
def _numpy() -> Any:
    """numpy when installed (langgraph's InMemoryStore scores with it then), else None."""
    if importlib.util.find_spec("numpy") is None:
        logger.warning(
            "NumPy not found in the current Python environment. The InMemoryStore will use a "
            "pure Python implementation for vector operations, which may significantly impact "
            "performance, especially for large datasets or frequent searches. For optimal speed "
            "and efficiency, consider installing NumPy: pip install numpy"
        )
        return None
    import numpy

    return numpy


def _cosines(query: list[float], vectors: list[list[float]]) -> list[float]:
    """The cosine of `query` with each vector, with the same float operations as langgraph's
    store (with numpy: one matrix-vector product over all the vectors, divided by the vectors'
    norms times the query's; else plain Python sums), so a search scores bit for bit alike."""
    if not vectors:
        return []
    np = _numpy()
    if np is not None:
        matrix, target = np.array(vectors), np.array(query)
        lengths = np.linalg.norm(matrix, axis=1)
        nonzero = lengths != 0
        scores = np.zeros_like(lengths)
        scores[nonzero] = np.dot(matrix[nonzero], target) / (
            lengths[nonzero] * np.linalg.norm(target)
        )
        return scores.tolist()
    query_norm = sum(a * a for a in query) ** 0.5
    out = []
    for vector in vectors:
        norm = sum(b * b for b in vector) ** 0.5
        dot = sum(a * b for a, b in zip(query, vector, strict=False))
        out.append(dot / (query_norm * norm) if query_norm > 0 and norm > 0 else 0.0)
    return out


def _does_match(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """Whether `namespace` starts (prefix) or ends (suffix) with the pattern; "*" = any label."""
    path = condition.path
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace, path, strict=False)
    elif condition.match_type == "suffix":
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    else:
        raise ValueError(f"Unsupported match type: {condition.match_type}")
    return all(p == "*" or n == p for n, p in pairs)


def _compare_values(item_value: Any, filter_value: Any) -> bool:
    """JSONB-style match: operator dicts, nested dicts by key, sequences element-wise."""
    if isinstance(filter_value, dict):
        if any(k.startswith("$") for k in filter_value):
            return all(_apply_operator(item_value, k, v) for k, v in filter_value.items())
        return isinstance(item_value, dict) and all(
            _compare_values(item_value.get(k), v) for k, v in filter_value.items()
        )
    if isinstance(filter_value, (list, tuple)):
        return (
            isinstance(item_value, (list, tuple))
            and len(item_value) == len(filter_value)
            and all(_compare_values(i, f) for i, f in zip(item_value, filter_value, strict=True))
        )
    return item_value == filter_value


_ORDERINGS = {
    "$gt": lambda a, b: a > b,
    "$gte": lambda a, b: a >= b,
    "$lt": lambda a, b: a < b,
    "$lte": lambda a, b: a <= b,
}


def _apply_operator(value: Any, operator: str, operand: Any) -> bool:
    """`$eq`/`$ne` compare as is; orderings convert both sides with float() (may raise)."""
    if operator == "$eq":
        return value == operand
    if operator == "$ne":
        return value != operand
    if operator in _ORDERINGS:
        return _ORDERINGS[operator](float(value), float(operand))
    raise ValueError(f"Unsupported operator: {operator}")


__all__ = ["InMemoryStore"]
