"""Differential tests of the SQLite store: the same scenario on langgraph's SqliteStore
(langgraph-checkpoint-sqlite) and on `engine.store.sqlite`, results compared.

Vector search cannot run on langgraph's SqliteStore here (it needs the sqlite-vec extension,
which this Python's sqlite3 cannot load), so ranked searches are compared with langgraph's
InMemoryStore under the same index and a deterministic embedding."""

import asyncio
import math
import sqlite3
import time

import pytest

from tests.oracle import Backend, run_both

pytestmark = pytest.mark.differential


def _conn(path):
    # langgraph's store runs its own BEGIN/COMMIT: it needs an autocommit connection
    return sqlite3.connect(path, check_same_thread=False, isolation_level=None)


def _rows(items):
    """What a search or get returned, without timestamps (compared on their own)."""
    if items is None:
        return None
    if not isinstance(items, list):
        return (items.namespace, items.key, items.value)
    return [(i.namespace, i.key, i.value, getattr(i, "score", None)) for i in items]


def _stamp_shape(item):
    """Timestamps as langgraph's SQLite store gives them: naive, whole seconds, equal."""
    c, u = item.created_at, item.updated_at
    return (type(c).__name__, c.tzinfo, c.microsecond, c == u)


def _outcome(call):
    try:
        return _rows(call())
    except Exception as exc:
        return (type(exc).__name__, str(exc))


def _same_second():
    """Wait for a new second: items written within one second order as langgraph's query
    plan yields them (its timestamps have whole seconds), which both stores reproduce."""
    time.sleep(1.02 - time.time() % 1)


def _fill(store):
    _same_second()
    store.put(("docs", "x"), "b", {"n": 2, "t": True, "s": "beta", "l": [1, 2], "d": {"k": 1}})
    store.put(("docs", "x"), "c", {"n": 3.5, "t": False, "s": "gamma", "nested": {"deep": 7}})
    store.put(("docs",), "z", {"n": 1, "s": "zeta", "none": None})
    store.put(("docs-y",), "q", {"n": 2, "my-key": 3, "s": "9"})
    store.put(("doc",), "short", {"n": 0})
    store.put(("Docs",), "upper", {"n": 10})
    store.put(("docs", "x", "deeper"), "a", {"n": 1, "s": "alpha", "t": 1})
    store.put(("users", "u1", "memories"), "m", {"text": "hello"})
    store.put(("users", "u2", "memories"), "m", {"text": "bye"})
    store.put(("users", "u2", "prefs"), "p", {"theme": "dark"})
    store.put(("docs", "x"), "b", {"n": 2, "t": True, "s": "beta2", "l": [1, 2]})  # replaced
    store.put(("docs",), "gone", {"n": 99})
    store.delete(("docs",), "gone")


_SEARCHES = [
    ((), {}),
    (("docs",), {}),
    (("doc",), {}),
    (("docs", "x"), {"limit": 2}),
    (("docs",), {"limit": 2, "offset": 1}),
    (("docs",), {"offset": 10}),
    (("docs",), {"filter": {"s": "beta2"}}),
    ((), {"filter": {"n": 2}}),
    ((), {"filter": {"n": 2.0}}),
    ((), {"filter": {"t": True}}),
    ((), {"filter": {"t": 1}}),
    ((), {"filter": {"t": False}}),
    ((), {"filter": {"none": None}}),
    ((), {"filter": {"l": [1, 2]}}),
    ((), {"filter": {"nested.deep": 7}}),
    ((), {"filter": {"my-key": 3}}),
    ((), {"filter": {"n": {"$gt": 1}}}),
    ((), {"filter": {"n": {"$gte": 2, "$lt": 3.5}}}),
    ((), {"filter": {"n": {"$lte": 1}}}),
    ((), {"filter": {"n": {"$ne": 2}}}),
    ((), {"filter": {"s": {"$ne": "beta2"}}}),
    ((), {"filter": {"s": {"$gt": "b"}}}),
    ((), {"filter": {"none": {"$ne": None}}}),
    ((), {"filter": {"n": {"$eq": 1}, "s": "alpha"}}),
    ((), {"filter": {"l": {"$eq": [1, 2]}}}),
    ((), {"filter": {"d": {"k": 1}}}),
    ((), {"filter": {"bad key": 1}}),
    ((), {"filter": {"n": {"$in": [1]}}}),
    ((), {"query": "ignored without an index"}),
]

_LISTS = [
    {},
    {"prefix": ("docs",)},
    {"prefix": ("doc",)},
    {"suffix": ("memories",)},
    {"prefix": ("users", "*", "memories")},
    {"prefix": ("users",), "suffix": ("prefs",)},
    {"suffix": ("*", "memories")},
    {"max_depth": 1},
    {"max_depth": 2, "prefix": ("users",)},
    {"limit": 2, "offset": 1},
    {"prefix": ("nothing",)},
]


def test_put_get_search_list_match_langgraph(tmp_path):
    def scenario(b: Backend):
        path = tmp_path / f"{b.prefix}.sqlite"
        with b.mod("store.sqlite").SqliteStore.from_conn_string(str(path)) as store:
            store.setup()
            _fill(store)
            gets = [_rows(store.get(ns, k)) for ns, k in
                    [(("docs", "x"), "b"), (("docs",), "gone"), (("nope",), "k"), (("docs",), "z")]]  # fmt: skip
            shape = _stamp_shape(store.get(("docs",), "z"))
            searches = [_outcome(lambda p=p, kw=kw: store.search(p, **kw)) for p, kw in _SEARCHES]
            lists = [store.list_namespaces(**kw) for kw in _LISTS]
            return gets, shape, searches, lists

    langgraph, engine = run_both(scenario)
    assert engine == langgraph


def test_batch_reads_before_writes_and_last_put_wins(tmp_path):
    def scenario(b: Backend):
        base = b.mod("store.base")
        conn = _conn(str(tmp_path / f"{b.prefix}.sqlite"))
        store = b.mod("store.sqlite").SqliteStore(conn)
        store.setup()
        store.put(("a",), "k", {"v": 0})
        results = store.batch(
            [
                base.PutOp(("a",), "k", {"v": 1}),
                base.GetOp(("a",), "k"),
                base.PutOp(("a",), "k", {"v": 2}),
                base.SearchOp(("a",)),
                base.ListNamespacesOp(),
                base.PutOp(("b",), "k", {"v": 3}),
                base.PutOp(("b",), "k", None),
            ]
        )
        after = [_rows(store.get(("a",), "k")), _rows(store.get(("b",), "k"))]
        conn.close()
        return [r if isinstance(r, list) and r and isinstance(r[0], tuple) else _rows(r)
                for r in results], after  # fmt: skip

    langgraph, engine = run_both(scenario)
    assert engine == langgraph


def test_errors_match_langgraph(tmp_path):
    def scenario(b: Backend):
        store = b.mod("store.sqlite").SqliteStore(_conn(":memory:"))
        store.setup()
        out = [
            _outcome(lambda: store.put(("a.b",), "k", {})),
            _outcome(lambda: store.put((), "k", {})),
            _outcome(lambda: store.put(("langgraph",), "k", {})),
            _outcome(lambda: store.get(("",), "k")),
            _outcome(lambda: store.search(("a",), filter={"x": {"b": 1}})),
        ]
        try:
            asyncio.run(store.aget(("a",), "k"))
        except NotImplementedError as exc:
            out.append(str(exc))
        return out

    langgraph, engine = run_both(scenario)
    assert engine == langgraph


def test_a_reopened_file_has_the_data(tmp_path):
    def scenario(b: Backend):
        SqliteStore = b.mod("store.sqlite").SqliteStore
        path = str(tmp_path / f"{b.prefix}.sqlite")
        with SqliteStore.from_conn_string(path) as store:
            store.setup()
            _fill(store)
        with SqliteStore.from_conn_string(path) as store:
            store.setup()
            return _rows(store.search((), limit=50)), store.list_namespaces()

    langgraph, engine = run_both(scenario)
    assert engine == langgraph
    assert len(engine[0]) == 10


def test_ttl_expiry_refresh_and_sweep_match_langgraph(tmp_path):
    # expiry is timed in seconds (langgraph compares whole seconds): 3 s TTLs, reads at 2 s,
    # sweeps at 4 s; items stay readable until swept, as in langgraph
    def scenario(b: Backend):
        SqliteStore = b.mod("store.sqlite").SqliteStore
        ttl = 3 / 60
        refreshing = SqliteStore(_conn(":memory:"),
                                 ttl={"refresh_on_read": True, "default_ttl": ttl})  # fmt: skip
        plain = SqliteStore(_conn(":memory:"))
        for store in (refreshing, plain):
            store.setup()
            for key in ("got", "searched", "kept", "unread"):
                store.put(("t",), key, {"k": key}, ttl=None if key == "kept" else ttl)
        refreshing.put(("t",), "default", {"k": "default"})
        time.sleep(2)
        for store in (refreshing, plain):
            store.get(("t",), "got")
            store.get(("t",), "unread", refresh_ttl=False)
            store.search(("t",), filter={"k": "searched"})
        time.sleep(2)
        before = [len(s.search(("t",), refresh_ttl=False)) for s in (refreshing, plain)]
        swept = [s.sweep_ttl() for s in (refreshing, plain)]
        left = [sorted(i.key for i in s.search(("t",))) for s in (refreshing, plain)]
        return before, swept, left

    langgraph, engine = run_both(scenario)
    assert engine == langgraph
    assert engine[2] == [["got", "kept", "searched"], ["kept"]]


def test_ttl_sweeper_thread_starts_and_stops(tmp_path):
    def scenario(b: Backend):
        SqliteStore = b.mod("store.sqlite").SqliteStore
        store = SqliteStore(_conn(":memory:"),
                            ttl={"sweep_interval_minutes": 1 / 600})  # fmt: skip
        store.put(("t",), "old", {"v": 1}, ttl=-1)
        store.put(("t",), "new", {"v": 1}, ttl=10)
        future = store.start_ttl_sweeper()
        deadline = time.time() + 5
        while store.get(("t",), "old") is not None and time.time() < deadline:
            time.sleep(0.05)
        stopped = store.stop_ttl_sweeper(timeout=2)
        idle = SqliteStore(_conn(":memory:"))
        return (store.get(("t",), "old"), _rows(store.get(("t",), "new")), stopped,
                future.done(), idle.start_ttl_sweeper().done())  # fmt: skip

    langgraph, engine = run_both(scenario)
    assert engine == langgraph
    assert engine[0] is None and engine[2] is True


# --- vector search: compared with langgraph's InMemoryStore ---


def _embed(texts):
    """Deterministic 8-dim embedding: letter-class counts (the same for queries and docs)."""
    groups = ["abc", "def", "ghi", "jkl", "mno", "pqr", "stu", "vwxyz"]
    return [[float(sum(t.lower().count(ch) for ch in g)) + 0.5 for g in groups] for t in texts]


_DOCS = [
    (("docs", "py"), "1", {"text": "python tutorial", "tags": ["code", "snake"], "kind": "a"}),
    (("docs", "ts"), "2", {"text": "typescript guide", "tags": ["web"], "kind": "b"}),
    (("docs", "py"), "3", {"text": "cooking with vegetables", "tags": [], "kind": "a"}),
    (("docs",), "4", {"text": "zzz vvv www", "tags": ["sleep", "xyz"], "kind": "b"}),
    (("other",), "5", {"text": "python guide", "tags": ["code"], "kind": "a"}),
]


def _vector_results(store, put, search):
    for namespace, key, value in _DOCS:
        put(namespace, key, value)
    put(("docs",), "plain", {"text": "python python python"}, index=False)
    put(("docs",), "tagged", {"text": "nothing", "tags": ["guide pythons"]}, index=["tags[*]"])
    out = []
    for prefix, kw in [
        ((), {"query": "python guide", "limit": 10}),
        (("docs",), {"query": "web typescript", "limit": 3}),
        (("docs",), {"query": "sleepy zzz", "limit": 2, "offset": 1}),
        ((), {"query": "python", "filter": {"kind": "a"}, "limit": 10}),
        (("docs", "py"), {"query": "vegetables", "limit": 10}),
    ]:
        found = search(prefix, **kw)
        out.append([(i.namespace, i.key, i.score) for i in found if i.score is not None])
    return out


@pytest.mark.parametrize("fields", [["text"], ["text", "tags[*]"], None])
def test_vector_search_scores_match_langgraph_in_memory(tmp_path, fields):
    index = {"dims": 8, "embed": _embed}
    if fields:
        index["fields"] = fields
    from langgraph.store.memory import InMemoryStore

    from engine.store.sqlite import SqliteStore

    expected_store = InMemoryStore(index=index)
    expected = _vector_results(expected_store, expected_store.put, expected_store.search)
    with SqliteStore.from_conn_string(str(tmp_path / "v.sqlite"), index=index) as store:
        got = _vector_results(store, store.put, store.search)
        # the unembedded item is not found by a query, as with langgraph's SqliteStore
        assert "plain" not in {i.key for i in store.search((), query="python", limit=50)}
    with SqliteStore.from_conn_string(str(tmp_path / "v.sqlite"), index=index) as store:
        reopened = [[(i.namespace, i.key, i.score) for i in store.search(
            (), query="python guide", limit=10)]]  # fmt: skip
    assert [[(ns, k) for ns, k, _ in r] for r in got] == [
        [(ns, k) for ns, k, _ in r] for r in expected
    ]
    for got_rows, want_rows in zip(got + reopened, expected + expected[:1], strict=False):
        for (_, _, g), (_, _, w) in zip(got_rows, want_rows, strict=True):
            assert math.isclose(g, w, rel_tol=1e-6, abs_tol=1e-6)


def test_vector_search_without_sqlite_vec_on_engine_only(tmp_path):
    # langgraph's SqliteStore cannot even set up an index here: our store needs no extension
    from langgraph.store.sqlite import SqliteStore as LangGraphSqliteStore

    index = {"dims": 8, "embed": _embed, "fields": ["text"]}
    with pytest.raises((AttributeError, sqlite3.OperationalError)):
        with LangGraphSqliteStore.from_conn_string(":memory:", index=index) as store:
            store.setup()
    from engine.store.sqlite import SqliteStore

    with SqliteStore.from_conn_string(":memory:", index=index) as store:
        store.setup()
        store.put(("d",), "1", {"text": "python"})
        [hit] = store.search(("d",), query="python")
        assert hit.key == "1" and math.isclose(hit.score, 1.0, rel_tol=1e-6)


# --- a graph using the store, sync and async ---


def _memory_graph(b: Backend):
    from typing import TypedDict

    graph_mod = b.mod("graph")
    get_store = b.mod("config").get_store
    Runtime = b.mod("runtime").Runtime

    class State(TypedDict):
        text: str
        seen: list

    def remember(state: State, runtime: Runtime):
        runtime.store.put(("notes", "u1"), state["text"], {"text": state["text"], "len": 1})
        return {}

    def recall(state: State):
        store = get_store()
        found = store.search(("notes",), filter={"len": 1})
        return {"seen": sorted(item.key for item in found)}

    builder = graph_mod.StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_edge(graph_mod.START, "remember")
    builder.add_edge("remember", "recall")
    return builder


def test_a_graph_using_the_store_runs_the_same(tmp_path):
    def scenario(b: Backend):
        SqliteStore = b.mod("store.sqlite").SqliteStore
        with SqliteStore.from_conn_string(str(tmp_path / f"{b.prefix}.sqlite")) as store:
            graph = _memory_graph(b).compile(store=store)
            outs = [graph.invoke({"text": t, "seen": []}) for t in ("one", "two")]
            return outs, store.list_namespaces()

    langgraph, engine = run_both(scenario)
    assert engine == langgraph
    assert engine[0][1]["seen"] == ["one", "two"]


def test_async_store_and_async_graph_match_langgraph(tmp_path):
    import aiosqlite

    async def scenario_async(b: Backend):
        AsyncSqliteStore = b.mod("store.sqlite.aio").AsyncSqliteStore
        path = str(tmp_path / f"{b.prefix}.sqlite")
        async with AsyncSqliteStore.from_conn_string(path) as store:
            await store.setup()
            await store.aput(("a", "b"), "k1", {"v": 1})
            await store.aput(("a",), "k2", {"v": 2}, ttl=-1)
            graph = _memory_graph(b).compile(store=store)
            out = await graph.ainvoke({"text": "x", "seen": []})  # sync nodes: a worker thread
            try:
                store.get(("a",), "k2")
                on_loop = None
            except asyncio.InvalidStateError as exc:
                on_loop = str(exc)
            from_thread = await asyncio.to_thread(lambda: _rows(store.get(("a", "b"), "k1")))
            swept = await store.sweep_ttl()
            found = _rows(await store.asearch(("a",), filter={"v": {"$gte": 1}}))
            names = await store.alist_namespaces(max_depth=1)
        async with aiosqlite.connect(path, isolation_level=None) as conn:
            reopened = AsyncSqliteStore(conn)
            await reopened.setup()
            again = _rows(await reopened.aget(("a", "b"), "k1"))
            await reopened.adelete(("a", "b"), "k1")
            gone = await reopened.aget(("a", "b"), "k1")
        return out, on_loop, from_thread, swept, found, names, again, gone

    def scenario(b: Backend):
        return asyncio.run(scenario_async(b))

    langgraph, engine = run_both(scenario)
    assert engine == langgraph
    assert engine[1].startswith("Synchronous calls to AsyncSqliteStore")


def test_async_store_vector_search_uses_async_embeddings(tmp_path):
    from engine.store.sqlite.aio import AsyncSqliteStore

    calls = []

    async def aembed(texts):
        calls.append(list(texts))
        return _embed(texts)

    async def main():
        index = {"dims": 8, "embed": aembed, "fields": ["text"]}
        async with AsyncSqliteStore.from_conn_string(str(tmp_path / "a.sqlite"), index=index) as s:
            await s.aput(("d",), "1", {"text": "python tutorial"})
            await s.aput(("d",), "2", {"text": "cooking"})
            return [(i.key, round(i.score, 5)) for i in await s.asearch(("d",), query="python")]

    found = asyncio.run(main())
    assert [key for key, _ in found] == ["1", "2"]
    assert calls == [["python tutorial"], ["cooking"], ["python"]]


@pytest.mark.parametrize("store_first", [True, False])
def test_store_and_checkpoints_share_one_file(tmp_path, store_first):
    from engine.checkpoint.sqlite import SqliteSaver
    from engine.checkpoint.sqlite.schema import STORE_OBJECTS
    from engine.store.sqlite import SqliteStore

    path = str(tmp_path / "app.sqlite")
    for step in ("store", "saver") if store_first else ("saver", "store"):
        if step == "store":
            with SqliteStore.from_conn_string(path) as store:
                store.put(("a",), "k", {"v": 1})
        else:
            with (SqliteSaver.from_conn_string(path) as saver,
                  SqliteStore.from_conn_string(path) as notes):  # fmt: skip
                graph = _memory_graph(Backend("engine")).compile(checkpointer=saver, store=notes)
                graph.invoke({"text": "t", "seen": []}, {"configurable": {"thread_id": "1"}})
    with SqliteStore.from_conn_string(path) as store:
        assert store.get(("a",), "k").value == {"v": 1}
    with SqliteSaver.from_conn_string(path) as saver:
        assert saver.list_threads() == ["1"]
    conn = sqlite3.connect(path)
    names = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    assert {n for n in names if n.startswith("store_")} == STORE_OBJECTS
