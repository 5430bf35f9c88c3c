"""Items, operations and the abstract store interface (mirrors `langgraph.store.base`).

A store keeps JSON-like dict values under `(namespace, key)`, where a namespace is a tuple of
string labels such as `("users", "123")`. Every public method of `BaseStore` validates its
namespace, builds one operation (`GetOp`, `PutOp`, `SearchOp`, `ListNamespacesOp`) and runs it
through `batch` / `abatch`, which concrete stores implement.

Namespace rules (raised as `InvalidNamespaceError`, a `ValueError`):
    * labels must be non-empty strings without periods or NUL bytes (all methods);
    * writes also need a non-empty namespace whose root label is not `"langgraph"`.
"""

from __future__ import annotations

import asyncio
import json
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, NamedTuple, TypedDict

from langchain_core.embeddings import Embeddings

EmbeddingsFunc = Callable[[Sequence[str]], list[list[float]]]
AEmbeddingsFunc = Callable[[Sequence[str]], Awaitable[list[list[float]]]]
NamespacePath = tuple[str, ...]
"""A namespace pattern; the label `"*"` matches any single label."""
NamespaceMatchType = Literal["prefix", "suffix"]


class NotProvided:
    """Falsy sentinel type meaning "argument not given" (distinct from `None`)."""

    def __bool__(self) -> Literal[False]:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_PROVIDED = NotProvided()


class Item:
    """A stored value with its location and timestamps.

    Args:
        value: The stored dict; its keys can be used in search filters.
        key: Identifier unique within the namespace.
        namespace: Tuple of labels (lists are converted to tuples).
        created_at: Creation time; ISO strings are parsed.
        updated_at: Last update time; ISO strings are parsed.

    Items compare equal when all five fields are equal, and hash by `(namespace, key)`.
    """

    __slots__ = ("value", "key", "namespace", "created_at", "updated_at")

    def __init__(
        self,
        *,
        value: dict[str, Any],
        key: str,
        namespace: tuple[str, ...],
        created_at: datetime,
        updated_at: datetime,
    ):
        self.value = value
        self.key = key
        self.namespace = tuple(namespace)
        self.created_at = _as_datetime(created_at)
        self.updated_at = _as_datetime(updated_at)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Item):
            return False
        fields = ("value", "key", "namespace", "created_at", "updated_at")
        return all(getattr(self, f) == getattr(other, f) for f in fields)

    def __hash__(self) -> int:
        return hash((self.namespace, self.key))

    def dict(self) -> dict:
        """Return a JSON-friendly dict (namespace as list, timestamps as ISO strings)."""
        return {
            "namespace": list(self.namespace),
            "key": self.key,
            "value": self.value,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
        }

    def __repr__(self) -> str:
        return "Item(" + ", ".join(f"{k}={v!r}" for k, v in self.dict().items()) + ")"


class SearchItem(Item):
    """An `Item` returned by search, with a similarity `score` (None when not ranked).

    Equality ignores `score`; `dict()` includes it.
    """

    __slots__ = ("score",)

    def __init__(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: dict[str, Any],
        created_at: datetime,
        updated_at: datetime,
        score: float | None = None,
    ) -> None:
        super().__init__(
            value=value, key=key, namespace=namespace, created_at=created_at, updated_at=updated_at
        )
        self.score = score

    def dict(self) -> dict:
        return {**super().dict(), "score": self.score}


def _as_datetime(value: datetime | str) -> datetime:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


class GetOp(NamedTuple):
    """Fetch the item at `(namespace, key)`; the result is an `Item` or None."""

    namespace: tuple[str, ...]
    key: str
    refresh_ttl: bool = True


class SearchOp(NamedTuple):
    """Find items whose namespace starts with `namespace_prefix`.

    `filter` maps top-level value keys to either a value (equality; dicts match nested keys,
    lists match element-wise) or an operator dict using `$eq`, `$ne`, `$gt`, `$gte`, `$lt`,
    `$lte` (the ordering operators compare as floats). `query` ranks by embedding
    similarity only on stores configured with an index; otherwise it is ignored.
    The result is `list[SearchItem]` sliced by `offset` / `limit`.
    """

    namespace_prefix: tuple[str, ...]
    filter: dict[str, Any] | None = None
    limit: int = 10
    offset: int = 0
    query: str | None = None
    refresh_ttl: bool = True


class MatchCondition(NamedTuple):
    """Namespace pattern anchored at the start (`"prefix"`) or end (`"suffix"`)."""

    match_type: NamespaceMatchType
    path: NamespacePath


class ListNamespacesOp(NamedTuple):
    """List distinct namespaces matching all conditions, sorted, truncated to `max_depth`."""

    match_conditions: tuple[MatchCondition, ...] | None = None
    max_depth: int | None = None
    limit: int = 100
    offset: int = 0


class PutOp(NamedTuple):
    """Store `value` at `(namespace, key)`, or delete the item when `value` is None.

    `index` is None (store default fields), False (do not embed) or a list of field paths;
    `ttl` is in minutes and only honoured by stores with `supports_ttl`.
    """

    namespace: tuple[str, ...]
    key: str
    value: Mapping[str, Any] | None
    index: Literal[False] | list[str] | None = None
    ttl: float | None = None


Op = GetOp | SearchOp | PutOp | ListNamespacesOp
Result = Item | list[Item] | list[SearchItem] | list[tuple[str, ...]] | None


class InvalidNamespaceError(ValueError):
    """Provided namespace is invalid."""


class TTLConfig(TypedDict, total=False):
    """TTL settings: `refresh_on_read`, `omit_expired`, `default_ttl` (minutes), `sweep_interval_minutes`."""

    refresh_on_read: bool
    omit_expired: bool
    default_ttl: float | None
    sweep_interval_minutes: int | None


class IndexConfig(TypedDict, total=False):
    """Semantic-search settings: `dims`, `embed` (Embeddings, sync/async function, or
    `"provider:model"` string) and `fields` (paths to embed; default `["$"]`, the whole value)."""

    dims: int
    embed: Embeddings | EmbeddingsFunc | AEmbeddingsFunc | str
    fields: list[str] | None


class BaseStore(ABC):
    """Abstract key-value store; subclasses implement `batch` and `abatch`.

    TTL is off unless a subclass sets `supports_ttl = True`; passing a non-None `ttl` to
    `put` on other stores raises NotImplementedError.
    """

    supports_ttl: bool = False
    ttl_config: TTLConfig | None = None

    __slots__ = ("__weakref__",)

    @abstractmethod
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run `ops` and return one result per op, in order."""

    @abstractmethod
    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async `batch`."""

    # --- op builders shared by the sync and async methods ---

    def _get_op(self, namespace: tuple[str, ...], key: str, refresh_ttl: bool | None) -> GetOp:
        _validate_namespace_labels(namespace)
        return GetOp(namespace, str(key), _ensure_refresh(self.ttl_config, refresh_ttl))

    def _search_op(self, prefix, query, filter, limit, offset, refresh_ttl) -> SearchOp:
        _validate_namespace_labels(prefix)
        refresh = _ensure_refresh(self.ttl_config, refresh_ttl)
        return SearchOp(prefix, filter, limit, offset, query, refresh)

    def _put_op(self, namespace, key, value, index, ttl) -> PutOp:
        _validate_namespace(namespace)
        if ttl not in (NOT_PROVIDED, None) and not self.supports_ttl:
            raise NotImplementedError(
                f"TTL is not supported by {type(self).__name__}. "
                "Use a store implementation that supports TTL or set ttl=None."
            )
        return PutOp(namespace, str(key), value, index=index, ttl=_ensure_ttl(self.ttl_config, ttl))

    def _delete_op(self, namespace: tuple[str, ...], key: str) -> PutOp:
        _validate_namespace_labels(namespace)
        return PutOp(namespace, str(key), None, ttl=None)

    @staticmethod
    def _list_op(prefix, suffix, max_depth, limit, offset) -> ListNamespacesOp:
        _validate_namespace_labels(prefix or ())
        _validate_namespace_labels(suffix or ())
        conditions = [MatchCondition("prefix", prefix)] if prefix else []
        if suffix:
            conditions.append(MatchCondition("suffix", suffix))
        return ListNamespacesOp(tuple(conditions), max_depth, limit, offset)

    # --- sync API ---

    def get(
        self, namespace: tuple[str, ...], key: str, *, refresh_ttl: bool | None = None
    ) -> Item | None:
        """Return the item at `(namespace, key)`, or None if absent."""
        return self.batch([self._get_op(namespace, key, refresh_ttl)])[0]

    def search(
        self,
        namespace_prefix: tuple[str, ...],
        /,
        *,
        query: str | None = None,
        filter: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        refresh_ttl: bool | None = None,
    ) -> list[SearchItem]:
        """Return items under `namespace_prefix` matching `filter` (see `SearchOp`)."""
        op = self._search_op(namespace_prefix, query, filter, limit, offset, refresh_ttl)
        return self.batch([op])[0]

    def put(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None = None,
        *,
        ttl: float | None | NotProvided = NOT_PROVIDED,
    ) -> None:
        """Create or replace the item at `(namespace, key)` (see `PutOp`)."""
        self.batch([self._put_op(namespace, key, value, index, ttl)])

    def delete(self, namespace: tuple[str, ...], key: str) -> None:
        """Delete the item at `(namespace, key)`; a missing item is not an error."""
        self.batch([self._delete_op(namespace, key)])

    def list_namespaces(
        self,
        *,
        prefix: NamespacePath | None = None,
        suffix: NamespacePath | None = None,
        max_depth: int | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[tuple[str, ...]]:
        """Return sorted namespaces matching `prefix` / `suffix` (`"*"` is a wildcard label),
        truncated to `max_depth` labels and deduplicated, then sliced by offset/limit."""
        return self.batch([self._list_op(prefix, suffix, max_depth, limit, offset)])[0]

    # --- async API ---

    async def aget(
        self, namespace: tuple[str, ...], key: str, *, refresh_ttl: bool | None = None
    ) -> Item | None:
        """Async `get`."""
        return (await self.abatch([self._get_op(namespace, key, refresh_ttl)]))[0]

    async def asearch(
        self,
        namespace_prefix: tuple[str, ...],
        /,
        *,
        query: str | None = None,
        filter: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        refresh_ttl: bool | None = None,
    ) -> list[SearchItem]:
        """Async `search`."""
        op = self._search_op(namespace_prefix, query, filter, limit, offset, refresh_ttl)
        return (await self.abatch([op]))[0]

    async def aput(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None = None,
        *,
        ttl: float | None | NotProvided = NOT_PROVIDED,
    ) -> None:
        """Async `put`."""
        await self.abatch([self._put_op(namespace, key, value, index, ttl)])

    async def adelete(self, namespace: tuple[str, ...], key: str) -> None:
        """Async `delete`."""
        await self.abatch([self._delete_op(namespace, key)])

    async def alist_namespaces(
        self,
        *,
        prefix: NamespacePath | None = None,
        suffix: NamespacePath | None = None,
        max_depth: int | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[tuple[str, ...]]:
        """Async `list_namespaces`."""
        return (await self.abatch([self._list_op(prefix, suffix, max_depth, limit, offset)]))[0]


def _validate_namespace(namespace: tuple[str, ...]) -> None:
    """Checks for writes: non-empty, valid labels, root label not "langgraph"."""
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    _validate_namespace_labels(namespace)
    if namespace[0] == "langgraph":
        raise InvalidNamespaceError(
            f'Root label for namespace cannot be "langgraph". Got: {namespace}'
        )


def _validate_namespace_labels(namespace: tuple[str, ...]) -> None:
    """Each label must be a non-empty str without '.' or NUL."""
    for label in namespace:
        where = f"Invalid namespace label '{label}' found in {namespace}. Namespace labels"
        if not isinstance(label, str):
            raise InvalidNamespaceError(f"{where} must be strings, but got {type(label).__name__}.")
        if "." in label:
            raise InvalidNamespaceError(f"{where} cannot contain periods ('.').")
        if "\x00" in label:
            raise InvalidNamespaceError(f"{where} cannot contain NUL bytes ('\\x00').")
        if not label:
            raise InvalidNamespaceError(
                f"Namespace labels cannot be empty strings. Got {label} in {namespace}"
            )


def validate_op_namespace(op: Op) -> None:
    """Validate the namespace labels of an op given straight to `batch` (skipping the methods).

    Raises:
        InvalidNamespaceError: If a label is empty, not a string, or contains '.' or NUL.
    """
    if isinstance(op, (GetOp, PutOp)):
        _validate_namespace_labels(op.namespace)
    elif isinstance(op, SearchOp):
        _validate_namespace_labels(op.namespace_prefix)
    elif isinstance(op, ListNamespacesOp):
        for condition in op.match_conditions or ():
            _validate_namespace_labels(condition.path)


def _ensure_refresh(ttl_config: TTLConfig | None, refresh_ttl: bool | None = None) -> bool:
    if refresh_ttl is not None:
        return refresh_ttl
    return ttl_config.get("refresh_on_read", True) if ttl_config is not None else True


def _ensure_ttl(
    ttl_config: TTLConfig | None, ttl: float | None | NotProvided = NOT_PROVIDED
) -> float | None:
    if ttl is NOT_PROVIDED:
        return ttl_config.get("default_ttl") if ttl_config else None
    return ttl


# --- embeddings helpers (langgraph.store.base.embed) ---


def ensure_embeddings(
    embed: Embeddings | EmbeddingsFunc | AEmbeddingsFunc | str | None,
) -> Embeddings:
    """Wrap `embed` as a LangChain `Embeddings`.

    Args:
        embed: An `Embeddings` (returned as is), a sync or async `texts -> vectors` function,
            or a `"provider:model"` string resolved with `langchain.embeddings.init_embeddings`.

    Raises:
        ValueError: If `embed` is None, or a string that langchain cannot resolve.
    """
    if embed is None:
        raise ValueError("embed must be provided")
    if isinstance(embed, str):
        try:
            from langchain.embeddings import init_embeddings
        except ImportError as exc:
            raise ValueError(
                f"Could not load embeddings from string '{embed}': loading embeddings by "
                "provider:identifier string requires langchain>=0.3.9 and the provider package."
            ) from exc
        return init_embeddings(embed)
    if isinstance(embed, Embeddings):
        return embed
    return EmbeddingsLambda(embed)


class EmbeddingsLambda(Embeddings):
    """`Embeddings` around one function; an async function cannot serve the sync methods."""

    def __init__(self, func: EmbeddingsFunc | AEmbeddingsFunc) -> None:
        if func is None:
            raise ValueError("func must be provided")
        self.func = func
        call = getattr(func, "__call__", None)  # noqa: B004 - async callable objects too
        self.is_async = asyncio.iscoroutinefunction(func) or asyncio.iscoroutinefunction(call)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if self.is_async:
            raise ValueError(
                "EmbeddingsLambda was initialized with an async function but no sync function. "
                "Use aembed_documents for async operation or provide a sync function."
            )
        return self.func(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        if self.is_async:
            return await self.func(texts)
        return await super().aembed_documents(texts)

    async def aembed_query(self, text: str) -> list[float]:
        return (await self.aembed_documents([text]))[0]


def tokenize_path(path: str) -> list[str]:
    """Split a field path into tokens: `"a.b[0].{c,d}"` -> `["a", "b", "[0]", "{c,d}"]`."""
    tokens: list[str] = []
    current = ""
    i = 0
    while i < len(path):
        char = path[i]
        if char in "[{":
            if current:
                tokens.append(current)
                current = ""
            close, depth, j = "]" if char == "[" else "}", 0, i
            while j < len(path):
                depth += (path[j] == char) - (path[j] == close)
                j += 1
                if depth == 0:
                    break
            tokens.append(path[i:j])
            i = j
            continue
        if char == ".":
            if current:
                tokens.append(current)
                current = ""
        else:
            current += char
        i += 1
    if current:
        tokens.append(current)
    return tokens


def get_text_at_path(obj: Any, path: str | list[str]) -> list[str]:
    """Texts found at `path` in `obj`, for embedding.

    `"$"` (or an empty path) is the whole object as sorted-key JSON. Tokens: field names,
    `[i]` / `[-1]` / `[*]` on lists, `*` over dict values or list items, and `{a,b.c}`
    selecting several fields. Scalars become `str(x)`, lists/dicts JSON, None nothing.
    """
    if isinstance(obj, Mapping) and not isinstance(obj, dict):
        obj = dict(obj)
    if not path or path == "$":
        return [json.dumps(obj, sort_keys=True, ensure_ascii=False)]
    return _texts(obj, tokenize_path(path) if isinstance(path, str) else path, 0)


def _leaf_texts(obj: Any) -> list[str]:
    if isinstance(obj, (str, int, float, bool)):
        return [str(obj)]
    if isinstance(obj, (list, dict)):
        return [json.dumps(obj, sort_keys=True, ensure_ascii=False)]
    return []


def _texts(obj: Any, tokens: list[str], pos: int) -> list[str]:
    if pos >= len(tokens):
        return _leaf_texts(obj)
    token = tokens[pos]
    children: Iterable[Any] = ()
    if token.startswith("[") and token.endswith("]"):
        if not isinstance(obj, list):
            return []
        if token == "[*]":
            children = obj
        else:
            try:
                idx = int(token[1:-1])
            except ValueError:
                return []
            idx = idx + len(obj) if idx < 0 else idx
            children = [obj[idx]] if 0 <= idx < len(obj) else []
    elif token.startswith("{") and token.endswith("}"):
        if not isinstance(obj, dict):
            return []
        out: list[str] = []
        for field in token[1:-1].split(","):
            sub_tokens, current = tokenize_path(field.strip()), obj
            for sub in sub_tokens:
                current = current.get(sub) if isinstance(current, dict) else None
                if current is None:
                    break
            if sub_tokens:
                out.extend(_leaf_texts(current))
        return out
    elif token == "*":
        children = obj.values() if isinstance(obj, dict) else obj if isinstance(obj, list) else ()
    elif isinstance(obj, dict) and token in obj:
        children = [obj[token]]
    return [text for child in children for text in _texts(child, tokens, pos + 1)]


__all__ = [
    "AEmbeddingsFunc",
    "BaseStore",
    "Embeddings",
    "EmbeddingsFunc",
    "GetOp",
    "IndexConfig",
    "InvalidNamespaceError",
    "Item",
    "ListNamespacesOp",
    "MatchCondition",
    "NOT_PROVIDED",
    "NamespaceMatchType",
    "NamespacePath",
    "NotProvided",
    "Op",
    "PutOp",
    "Result",
    "SearchItem",
    "SearchOp",
    "TTLConfig",
    "ensure_embeddings",
    "get_text_at_path",
    "tokenize_path",
    "validate_op_namespace",
]
