"""langgraph's private modules that packages built on it import (langgraph-supervisor,
langgraph-swarm): the same names at the same paths, behaving the same (issue 31)."""

from __future__ import annotations

import asyncio
from typing import TypedDict

import pytest
from langchain_core.runnables import RunnableLambda

from tests.engine.graphs import _one_node
from tests.oracle import normalize

pytestmark = pytest.mark.differential


class S(TypedDict):
    x: int
    log: list


def test_runnable_callable_with_a_sync_and_an_async_body(backend):
    RunnableCallable = backend.mod("_internal._runnable").RunnableCallable

    def sync_body(state: dict, config) -> dict:
        return {"log": [*state["log"], ("sync", config["configurable"]["thread_id"])]}

    async def async_body(state: dict, config) -> dict:
        return {"log": [*state["log"], ("async", config["configurable"]["thread_id"])]}

    app = _one_node(backend, S, RunnableCallable(sync_body, async_body), name="agent")
    config = {"configurable": {"thread_id": "t1"}}
    assert app.invoke({"x": 1, "log": []}, config)["log"] == [("sync", "t1")]
    assert asyncio.run(app.ainvoke({"x": 1, "log": []}, config))["log"] == [("async", "t1")]


def test_runnable_callable_options(backend):
    RunnableCallable = backend.mod("_internal._runnable").RunnableCallable
    seen = []

    def body(x, *, extra, more=0):
        seen.append((x, extra, more))
        return RunnableLambda(lambda v: ("recursed", v)) if x == "recurse" else x

    fixed = RunnableCallable(body, extra="e")
    exploded = RunnableCallable(body, explode_args=True, extra="e")
    flat = RunnableCallable(body, recurse=False, extra="e")
    only_async = RunnableCallable(None, RunnableLambda(lambda v: v).ainvoke, name="a")
    out = [fixed.invoke("v"), exploded.invoke((("w",), {"more": 2})), fixed.invoke("recurse")]
    out.append(type(flat.invoke("recurse")).__name__)
    try:
        only_async.invoke(1)
    except TypeError as exc:
        out.append(str(exc))
    out.append(asyncio.run(fixed.ainvoke("z")))
    assert out == [
        "v",
        "w",
        ("recursed", "recurse"),
        "RunnableLambda",
        'No synchronous function provided to "a".\nEither initialize with a synchronous '
        "function or invoke via the async API (ainvoke, astream, etc.)",
        "z",
    ]
    assert seen == [("v", "e", 0), ("w", "e", 2), ("recurse", "e", 0), ("recurse", "e", 0)] + [
        ("z", "e", 0)
    ]
    with pytest.raises(ValueError, match="At least one of func or afunc must be provided."):
        RunnableCallable(None)


def test_config_helpers(backend):
    config = backend.mod("_internal._config")
    base = {"tags": ["a"], "configurable": {"thread_id": "1", "k": 1}}
    assert config.patch_configurable(None, {"k": 2}) == {"configurable": {"k": 2}}
    assert config.patch_configurable({"tags": ["a"]}, {"k": 2}) == {
        "tags": ["a"],
        "configurable": {"k": 2},
    }
    assert config.patch_configurable(base, {"k": 2}) == {
        "tags": ["a"],
        "configurable": {"thread_id": "1", "k": 2},
    }
    assert base["configurable"]["k"] == 1  # not changed in place
    patched = config.patch_config(
        {"run_name": "r", "run_id": "i", "configurable": {"a": 1}},
        callbacks=[],
        recursion_limit=5,
        configurable={"b": 2},
    )
    assert patched == {"callbacks": [], "recursion_limit": 5, "configurable": {"a": 1, "b": 2}}
    assert config.recast_checkpoint_ns("a:1|b:2|3") == "a|b"
    meta = {"parents": {"": "p0"}}
    conf = {"configurable": {"checkpoint_ns": "sub:1", "checkpoint_id": "c1"}, "tags": []}
    assert normalize(config.patch_checkpoint_map(conf, meta)) == {
        "configurable": {
            "checkpoint_ns": "sub:1",
            "checkpoint_id": "c1",
            "checkpoint_map": {"": "p0", "sub:1": "c1"},
        },
        "tags": [],
    }


def test_typing_helpers(backend):
    typing = backend.mod("_internal._typing")
    assert typing.DeprecatedKwargs.__required_keys__ == frozenset()
    assert typing.DeprecatedKwargs.__optional_keys__ == frozenset()
    assert typing.EMPTY_SEQ == ()
    assert typing.MISSING is typing.MISSING


def test_cache_key_helpers_at_their_private_path():
    """A program's own CachePolicy key_func delegating to default_cache_key (a notes file's
    example imports it from langgraph._internal._cache) gets langgraph's very bytes: the engine
    had no such module and hashed to an md5 string. Its default_retry_on is at
    langgraph._internal._retry too."""
    import numpy as np

    from tests.oracle import assert_same

    def scenario(b):
        cache, retry = b.mod("_internal._cache"), b.mod("_internal._retry")
        arr = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
        values = [
            {"b": 2, "a": 1},
            {"outer": {"z": 9, "a": [1, {"y": 2, "x": 1}]}},
            arr,
            "q",
            (1, [2]),
        ]
        frozen = [cache._freeze(v) for v in values]
        keys = [cache.default_cache_key(v) for v in values]
        keys.append(cache.default_cache_key("AI news", user_id="alice", tags=["x"]))
        same_function = b.types.default_cache_key is cache.default_cache_key
        retried = [retry.default_retry_on(e) for e in (ConnectionError(), ValueError(), KeyError())]
        return frozen, keys, same_function, retried

    frozen, keys, same_function, retried = assert_same(scenario)
    assert (
        same_function
        and all(isinstance(k, bytes) for k in keys)
        and retried == [True, False, False]
    )
