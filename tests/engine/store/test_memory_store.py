"""InMemoryStore: differential against langgraph's, plus unit tests of engine-only guarantees."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from tests.oracle import Backend, run_both


def norm(value):
    """Items without timestamps (scores rounded); exceptions as (class name, message)."""
    if isinstance(value, BaseException):
        return (type(value).__name__, str(value))
    if hasattr(value, "namespace") and hasattr(value, "created_at"):
        out = {"cls": type(value).__name__, "ns": value.namespace, "key": value.key}
        out["value"] = value.value
        if hasattr(value, "score"):
            out["score"] = None if value.score is None else round(value.score, 6)
        return out
    if isinstance(value, list):
        return [norm(v) for v in value]
    if isinstance(value, tuple):
        return tuple(norm(v) for v in value)
    if isinstance(value, dict):
        return {k: norm(v) for k, v in value.items()}
    return value


def same(scenario):
    expected, actual = run_both(scenario)
    assert norm(actual) == norm(expected)
    return actual


def letters(texts):
    """A deterministic toy embedding: counts of a-e plus length."""
    return [[float(t.count(c)) for c in "abcde"] + [len(t) / 10] for t in texts]


async def aletters(texts):
    return letters(texts)


def seeded(b: Backend, **kwargs):
    store = b.mod("store.memory").InMemoryStore(**kwargs)
    store.put(("docs", "u1"), "a", {"n": 1, "color": "red", "meta": {"tag": "x"}, "l": [1, 2]})
    store.put(("docs", "u1"), "b", {"n": 5, "color": "blue", "meta": {"tag": "y"}})
    store.put(("docs", "u2"), "c", {"n": 3, "color": "red", "text": "abba cab"})
    store.put(("notes",), "d", {"n": "7", "text": "eddie"})
    return store


# --- differential -----------------------------------------------------------------------


def test_put_get_overwrite_delete():
    def scenario(b):
        s = seeded(b)
        out = [s.get(("docs", "u1"), "a"), s.get(("docs", "u1"), "zz"), s.get(("nope",), "a")]
        s.put(("docs", "u1"), "a", {"n": 2})
        s.delete(("docs", "u1"), "b")
        s.delete(("docs", "u1"), "never")
        out += [s.get(("docs", "u1"), "a"), s.get(("docs", "u1"), "b"), s.search(("docs",))]
        s.put(("docs", "u1"), "b", {"back": True})  # re-put after delete moves to the end
        out += [s.search(()), s.list_namespaces(), s.get(("docs", "u1"), 5)]
        return out

    same(scenario)


@pytest.mark.parametrize(
    "filter",
    [
        None,
        {},
        {"color": "red"},
        {"color": "green"},
        {"meta": {"tag": "y"}},
        {"meta.tag": "x"},  # langgraph does not split dotted keys: nothing matches
        {"l": [1, 2]},
        {"l": (1, 2)},
        {"l": [1]},
        {"n": {"$gt": 2}},
        {"n": {"$gte": 3, "$lt": 5}},
        {"n": {"$lte": 3}},
        {"n": {"$eq": 5}},
        {"n": {"$ne": 5}},
        {"color": {"$ne": "red"}},
        {"color": "red", "n": {"$gt": 1}},
        {"missing": None},
        {"missing": {"$ne": 1}},
    ],
)
def test_search_filters(filter):
    same(lambda b: seeded(b).search((), filter=filter))


@pytest.mark.parametrize(
    "filter", [{"n": {"$foo": 1}}, {"missing": {"$gt": 1}}, {"color": {"$lt": 3}}]
)
def test_search_filter_errors(filter):
    assert isinstance(same(lambda b: seeded(b).search((), filter=filter)), Exception)


@pytest.mark.parametrize(
    ("prefix", "limit", "offset"),
    [((), 10, 0), ((), 2, 1), ((), 0, 0), ((), -1, 0), ((), 2, -1), (("docs",), 1, 1)]
    + [(("docs", "u2"), 10, 0), (("do",), 10, 0), (("docs", "u1", "x"), 10, 0)],
)
def test_search_prefix_and_paging(prefix, limit, offset):
    same(lambda b: seeded(b).search(prefix, limit=limit, offset=offset, query="ignored"))


def test_list_namespaces():
    def scenario(b):
        s = b.mod("store.memory").InMemoryStore()
        for ns in [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]:
            s.put(ns, "k", {})
        s.put(("a", "c", "f"), "k", {})
        s.put(("z", "v1"), "k", {})
        s.get(("seen", "by", "get"), "k")  # registers an empty namespace, as langgraph does
        return [
            s.list_namespaces(),
            s.list_namespaces(prefix=("a", "b"), max_depth=3),
            s.list_namespaces(prefix=("a", "*", "f")),
            s.list_namespaces(suffix=("f",)),
            s.list_namespaces(suffix=("*", "f"), prefix=("a",)),
            s.list_namespaces(max_depth=1),
            s.list_namespaces(max_depth=0),
            s.list_namespaces(limit=2, offset=1),
            s.list_namespaces(prefix=("a", "b", "c", "d", "e")),
        ]

    same(scenario)


def test_batch_reads_before_writes_and_last_put_wins():
    def scenario(b):
        base = b.mod("store.base")
        s = seeded(b)
        return [
            s.batch(
                [
                    base.PutOp(("q",), "k", {"v": 1}),
                    base.GetOp(("q",), "k"),
                    base.PutOp(("q",), "k", {"v": 2}),
                    base.SearchOp(("q",)),
                    base.PutOp(("docs", "u1"), "a", None),
                    base.GetOp(("docs", "u1"), "a"),
                    base.ListNamespacesOp(max_depth=1),
                ]
            ),
            s.search(()),
        ]

    same(scenario)


def test_batch_unknown_op():
    same(lambda b: b.mod("store.memory").InMemoryStore().batch([("not", "an", "op")]))


@pytest.mark.parametrize(
    ("method", "ns"),
    [
        (m, ns)
        for m in ("put", "get", "delete", "search", "prefix", "suffix")
        for ns in [(), ("a.b",), ("a", ""), ("a", 1), ("a\x00",), ("langgraph", "x"), ("ok",)]
    ],
)
def test_namespace_validation(method, ns):
    def scenario(b):
        s = b.mod("store.memory").InMemoryStore()
        if method == "put":
            return s.put(ns, "k", {"v": 1})
        if method in ("get", "delete"):
            return getattr(s, method)(ns, "k")
        if method == "search":
            return s.search(ns)
        return s.list_namespaces(**{method: ns})

    same(scenario)


def test_validation_error_type():
    from engine.store.base import InvalidNamespaceError
    from engine.store.memory import InMemoryStore

    with pytest.raises(InvalidNamespaceError, match="cannot contain periods") as info:
        InMemoryStore().put(("a.b",), "k", {})
    assert isinstance(info.value, ValueError)


def test_ttl_not_supported():
    def scenario(b):
        s = b.mod("store.memory").InMemoryStore()
        s.put(("a",), "k", {}, ttl=None)
        return [s.supports_ttl, s.ttl_config, s.get(("a",), "k"), s.put(("a",), "k", {}, ttl=5)]

    same(scenario)


def test_async_twins():
    def scenario(b):
        async def run():
            s = seeded(b)
            await s.aput(("docs", "u3"), "e", {"n": 9})
            await s.adelete(("docs", "u1"), "a")
            return [
                await s.aget(("docs", "u3"), "e"),
                await s.asearch(("docs",), filter={"n": {"$gt": 2}}, limit=5),
                await s.alist_namespaces(prefix=("docs",)),
                await s.abatch([b.mod("store.base").GetOp(("docs", "u1"), "b")]),
            ]

        return asyncio.run(run())

    same(scenario)


def index_scenario(embed, fields=None, use_async=False):
    def scenario(b):
        index = {"dims": 6, "embed": embed} | ({"fields": fields} if fields else {})
        s = b.mod("store.memory").InMemoryStore(index=index)

        async def run():
            calls = [
                (("docs",), "1", {"text": "aaaa", "parts": ["bb", "ab"]}, None),
                (("docs",), "2", {"text": "abcde", "parts": ["e"]}, None),
                (("docs",), "3", {"text": "cccc"}, False),
                (("docs",), "4", {"text": "dd", "other": "aaaaa"}, ["other"]),
                (("docs", "sub"), "5", {"text": "bbbb", "parts": []}, ["parts[*]"]),
            ]
            for ns, key, value, idx in calls:
                if use_async:
                    await s.aput(ns, key, value, index=idx)
                else:
                    s.put(ns, key, value, index=idx)
            search = s.asearch if use_async else None
            out = []
            for kwargs in [
                {"query": "aaa"},
                {"query": "bbb", "limit": 2},
                {"query": "cde", "offset": 1, "limit": 2},
                {"query": "e", "filter": {"text": {"$ne": "aaaa"}}},
                {"query": "abba", "limit": 10, "offset": 3},
                {},
            ]:
                if search:
                    out.append(await search(("docs",), **kwargs))
                else:
                    out.append(s.search(("docs",), **kwargs))
            return out

        return asyncio.run(run())

    return scenario


@pytest.mark.parametrize("fields", [None, ["text"], ["parts[*]"], ["text", "parts[0]"]])
def test_semantic_search_sync(fields):
    same(index_scenario(letters, fields))


@pytest.mark.parametrize("embed", [letters, aletters])
def test_semantic_search_async(embed):
    same(index_scenario(embed, ["text", "parts[-1]"], use_async=True))


@pytest.mark.parametrize(
    "path",
    [
        "$",
        "",
        "a",
        "a.b",
        "a.b.c",
        "list[0]",
        "list[-1]",
        "list[*]",
        "list[9]",
        "list[x]",
        "objs[*].t",
        "objs[*].n",
        "*",
        "a.*",
        "{a,list}",
        "{a.b, missing, objs}",
        "{,a}",
        "nested[*][1]",
        "none",
        "a[0]",
        "list",
    ],
)
def test_text_extraction(path):
    value = {
        "a": {"b": {"c": 1.5}, "x": True},
        "list": ["p", "q", "r"],
        "objs": [{"t": "one", "n": None}, {"t": "two"}],
        "nested": [[1, 2], [3, 4]],
        "none": None,
    }

    def scenario(b):
        base = b.mod("store.base")
        return base.tokenize_path(path), base.get_text_at_path(value, path)

    same(scenario)


def test_item_behaviour_matches():
    def scenario(b):
        base = b.mod("store.base")
        t = "2024-05-01T12:00:00+00:00"
        item = base.Item(value={"v": 1}, key="k", namespace=["a", "b"], created_at=t, updated_at=t)
        hit = base.SearchItem(("a", "b"), "k", {"v": 1}, t, t, score=0.5)
        return [
            repr(item),
            repr(hit),
            item.dict(),
            hit.dict(),
            item == hit,
            hit == item,
            item == "x",
            hash(item) == hash(hit),
            item.created_at,
            item.namespace,
            [f for f in base.SearchOp._fields],
            [f for f in base.PutOp._fields],
            [f for f in base.GetOp._fields],
            [f for f in base.ListNamespacesOp._fields],
            tuple(base.SearchOp(("a",))),
            tuple(base.ListNamespacesOp()),
            bool(base.NOT_PROVIDED),
            repr(base.NOT_PROVIDED),
        ]

    same(scenario)


# --- engine unit tests ------------------------------------------------------------------


def test_timestamps_are_utc_and_reset_on_put():
    from engine.store.memory import InMemoryStore

    s = InMemoryStore()
    s.put(("a",), "k", {"v": 1})
    first = s.get(("a",), "k")
    assert first.created_at.tzinfo == UTC and first.created_at <= datetime.now(UTC)
    s.put(("a",), "k", {"v": 2})
    second = s.get(("a",), "k")
    assert second.created_at >= first.created_at and second.updated_at == second.created_at


def test_put_copies_top_level_mapping():
    from engine.store.memory import InMemoryStore

    s = InMemoryStore()
    value = {"v": 1}
    s.put(("a",), "k", value)
    value["v"] = 2
    assert s.get(("a",), "k").value == {"v": 1}


def test_repeated_text_in_one_batch_shares_a_vector():
    from engine.store.memory import InMemoryStore

    seen = []

    def embed(texts):
        seen.extend(texts)
        return letters(texts)

    s = InMemoryStore(index={"dims": 6, "embed": embed, "fields": ["a", "b"]})
    s.put(("x",), "k", {"a": "same", "b": "same"})  # langgraph raises ValueError here
    assert seen == ["same"]
    assert set(s._vectors[("x",)]["k"]) == {"a", "b"}
    assert s.search(("x",), query="same")[0].score == pytest.approx(1.0)


def test_async_embed_function_cannot_serve_sync_calls():
    from engine.store.memory import InMemoryStore

    s = InMemoryStore(index={"dims": 6, "embed": aletters})
    with pytest.raises(ValueError, match="async function"):
        s.put(("x",), "k", {"a": "b"})


def test_langchain_embeddings_object_is_used_as_is():
    from langchain_core.embeddings import DeterministicFakeEmbedding

    from engine.store.memory import InMemoryStore

    fake = DeterministicFakeEmbedding(size=8)
    s = InMemoryStore(index={"dims": 8, "embed": fake, "fields": ["t"]})
    assert s.embeddings is fake
    s.put(("x",), "1", {"t": "hello"})
    s.put(("x",), "2", {"t": "other"})
    hits = s.search(("x",), query="hello")
    assert [h.key for h in hits][0] == "1" and hits[0].score == pytest.approx(1.0)


def test_missing_embed_is_an_error():
    from engine.store.memory import InMemoryStore

    with pytest.raises(ValueError, match="embed must be provided"):
        InMemoryStore(index={"dims": 3})


def test_validate_op_namespace():
    from engine.store.base import (
        GetOp,
        InvalidNamespaceError,
        ListNamespacesOp,
        MatchCondition,
        validate_op_namespace,
    )

    validate_op_namespace(GetOp(("a", "b"), "k"))
    with pytest.raises(InvalidNamespaceError):
        validate_op_namespace(GetOp(("a.b",), "k"))
    with pytest.raises(InvalidNamespaceError):
        validate_op_namespace(ListNamespacesOp((MatchCondition("prefix", ("",)),)))


def test_in_memory_store(backend):
    InMemoryStore = backend.mod("store.memory").InMemoryStore
    store = InMemoryStore()
    store.put(("users", "tamir"), "pref", {"lang": "zh"})
    item = store.get(("users", "tamir"), "pref")
    assert (item.namespace, item.key, item.value) == (("users", "tamir"), "pref", {"lang": "zh"})
    assert store.get(("users", "other"), "pref") is None
