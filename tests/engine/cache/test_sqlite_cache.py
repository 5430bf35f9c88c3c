"""SqliteCache: differential against langgraph's, entries outliving the process, and a graph
whose cached node is skipped in a second "process" (a new cache on the same file)."""

import operator
import time
from typing import Annotated, TypedDict

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def test_get_set_expire_clear(tmp_path):
    def scenario(b):
        cache = b.mod("cache.sqlite").SqliteCache(path=str(tmp_path / f"{b.prefix}.sqlite"))
        cache.set(
            {
                (("a",), "k"): ({"v": [1, 2]}, None),
                (("a",), "brief"): ("gone soon", 0),
                (("a", "b"), "k"): (3, None),
            }
        )
        keys = [(("a",), "k"), (("a",), "brief"), (("a", "b"), "k"), (("a",), "x")]
        time.sleep(0.01)
        out = [cache.get(keys)]
        cache.clear([("a",)])  # exact namespaces only: ("a", "b") survives
        out.append(cache.get(keys))
        cache.clear()
        out.append(cache.get(keys))
        return out

    assert_same(scenario)


def test_a_cached_node_is_skipped_by_the_next_process(tmp_path):
    class S(TypedDict):
        n: int
        log: Annotated[list[str], operator.add]

    def scenario(b):
        calls = []

        def slow(state: S) -> dict:
            calls.append(state["n"])
            return {"log": [f"slow {state['n']}"]}

        def run() -> dict:
            builder = b.graph.StateGraph(S)
            builder.add_node("slow", slow, cache_policy=b.types.CachePolicy())
            builder.add_edge(b.graph.START, "slow")
            cache = b.mod("cache.sqlite").SqliteCache(path=str(tmp_path / f"run-{b.prefix}.sqlite"))
            return builder.compile(cache=cache).invoke({"n": 1, "log": []})

        return run(), run(), calls

    result = assert_same(scenario)
    assert result[2] == [1]
