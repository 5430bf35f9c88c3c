"""InMemoryCache: differential against langgraph's, plus TTL and serde unit tests."""

from __future__ import annotations

import asyncio

import pytest

from tests.oracle import run_both


def same(scenario):
    expected, actual = run_both(scenario)
    assert actual == expected
    return actual


def make(b):
    return b.mod("cache.memory").InMemoryCache()


def test_get_set_clear():
    def scenario(b):
        cache = make(b)
        out = [cache.get([]), cache.get([(("a",), "k")])]
        cache.set(
            {
                (("a",), "k"): ({"v": [1, 2]}, None),
                (("a",), "k2"): ("two", 1000),
                (("a", "b"), "k"): (3, None),
                (("c",), "k"): (None, None),
            }
        )
        keys = [(("a",), "k"), (("a",), "k2"), (("a", "b"), "k"), (("c",), "k"), (("a",), "x")]
        out.append(cache.get(keys))
        cache.set({(("a",), "k"): ("replaced", None)})
        out.append(cache.get(keys))
        cache.clear([("a",), ("missing",)])  # exact namespaces only: ("a", "b") survives
        out.append(cache.get(keys))
        cache.clear()
        out.append(cache.get(keys))
        return out

    same(scenario)


def test_expired_entries_are_not_returned():
    def scenario(b):
        cache = make(b)
        cache.set({(("a",), "zero"): (1, 0), (("a",), "past"): (2, -5), (("a",), "live"): (3, 60)})
        keys = [(("a",), "zero"), (("a",), "past"), (("a",), "live")]
        return [cache.get(keys), cache.get(keys)]

    same(scenario)


def test_async_twins():
    def scenario(b):
        async def run():
            cache = make(b)
            await cache.aset({(("n",), "k"): ("v", None), (("m",), "k"): ("w", None)})
            first = await cache.aget([(("n",), "k"), (("m",), "k")])
            await cache.aclear([("n",)])
            second = await cache.aget([(("n",), "k"), (("m",), "k")])
            await cache.aclear()
            return [first, second, await cache.aget([(("m",), "k")])]

        return asyncio.run(run())

    same(scenario)


def test_base_cache_is_abstract():
    def scenario(b):
        base = b.mod("cache.base")
        try:
            base.BaseCache()
        except TypeError:
            return "abstract"
        return "concrete"

    assert same(scenario) == "abstract"


def test_ttl_expiry_follows_the_clock(monkeypatch):
    import engine.cache.memory as memory

    now = [1000.0]
    monkeypatch.setattr(memory.time, "time", lambda: now[0])
    cache = memory.InMemoryCache()
    cache.set({(("a",), "short"): ("s", 10), (("a",), "forever"): ("f", None)})
    keys = [(("a",), "short"), (("a",), "forever")]
    now[0] = 1009.9
    assert cache.get(keys) == {(("a",), "short"): "s", (("a",), "forever"): "f"}
    now[0] = 1010.0
    assert cache.get(keys) == {(("a",), "forever"): "f"}
    assert "short" not in cache._cache[("a",)]  # dropped when met expired
    cache.set({(("a",), "short"): ("again", 5)})  # re-set restarts the clock
    assert cache.get(keys)[(("a",), "short")] == "again"


def test_values_come_back_as_copies_through_the_default_serde():
    """A cache's default serde is langgraph's (a JsonPlusSerializer without pickle): a program's
    own BaseCache subclass (a notes file's DictCache, a Redis cache) reads `self.serde`, which was
    None on the engine, and InMemoryCache hands back decoded copies, as langgraph's does."""

    def scenario(b):
        base, memory = b.mod("cache.base"), b.mod("cache.memory")

        class Mine(base.BaseCache):
            get = aget = set = aset = clear = aclear = None

        serde = Mine().serde
        value = {"rows": [1, 2]}
        cache = memory.InMemoryCache()
        cache.set({(("a",), "k"): (value, None)})
        got = cache.get([(("a",), "k")])[(("a",), "k")]
        return (type(serde).__name__, serde.dumps_typed({"x": 1})[0], got == value, got is value)

    assert same(scenario) == ("JsonPlusSerializer", "msgpack", True, False)


def test_serde_round_trips_and_copies():
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    from engine.cache.memory import InMemoryCache

    value = {"rows": [1, 2]}
    cache = InMemoryCache(serde=JsonPlusSerializer())
    cache.set({(("a",), "k"): (value, None)})
    got = cache.get([(("a",), "k")])[(("a",), "k")]
    assert got == value and got is not value


@pytest.mark.parametrize("n", [1, 4])
def test_threads_share_one_cache(n):
    from concurrent.futures import ThreadPoolExecutor

    from engine.cache.memory import InMemoryCache

    cache = InMemoryCache()

    def work(i):
        cache.set({(("t",), str(i)): (i, None)})
        return cache.get([(("t",), str(i))])

    with ThreadPoolExecutor(n) as pool:
        results = list(pool.map(work, range(50)))
    assert results == [{(("t",), str(i)): i} for i in range(50)]
