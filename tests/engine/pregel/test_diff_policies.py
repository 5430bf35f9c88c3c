"""Differential tests: RetryPolicy, CachePolicy + InMemoryCache, recursion_limit.

Every test runs on both backends through the `backend` fixture; expected values were taken from
langgraph 1.2.24. Retry intervals are kept tiny so the file stays fast.
"""

import operator
import threading
import time
from typing import Annotated, TypedDict

import pytest

from tests.engine.graphs import C, _sg

pytestmark = pytest.mark.differential


class Log(TypedDict):
    log: Annotated[list[str], operator.add]


class XLog(TypedDict):
    x: int
    y: int
    log: Annotated[list[str], operator.add]


class N(TypedDict):
    n: int


class MyError(Exception):
    pass


def fast_retry(b, **kw):
    kw.setdefault("initial_interval", 0.001)
    kw.setdefault("jitter", False)
    return b.types.RetryPolicy(**kw)


def run_flaky(b, make_exc, policy, fail_times=10):
    """Run a one-node graph whose node raises `make_exc()` for its first `fail_times` calls.

    Returns (outcome, number of calls) where outcome is the output or (exc class name, str)."""
    calls = []

    def flaky(state):
        calls.append(1)
        if len(calls) <= fail_times:
            raise make_exc()
        return {"log": [f"ok after {len(calls)}"]}

    g = b.graph.StateGraph(Log)
    g.add_node("f", flaky, retry_policy=policy)
    g.add_edge(b.graph.START, "f")
    try:
        out = g.compile().invoke({"log": []})
    except Exception as exc:
        out = (type(exc).__name__, str(exc))
    return out, len(calls)


# --------------------------------------------------------------------------------------------
# RetryPolicy
# --------------------------------------------------------------------------------------------


def test_retry_policy_defaults(backend):
    p = backend.types.RetryPolicy()
    assert (p.initial_interval, p.backoff_factor, p.max_interval, p.max_attempts, p.jitter) == (
        0.5,
        2.0,
        128.0,
        3,
        True,
    )


def test_retry_until_success(backend):
    out = run_flaky(backend, lambda: ConnectionError("down"), fast_retry(backend), fail_times=2)
    assert out == ({"log": ["ok after 3"]}, 3)


def test_retry_gives_up_after_max_attempts(backend):
    out = run_flaky(backend, lambda: ConnectionError("down"), fast_retry(backend))
    assert out == (("ConnectionError", "down"), 3)
    out = run_flaky(backend, lambda: ConnectionError("down"), fast_retry(backend, max_attempts=5))
    assert out == (("ConnectionError", "down"), 5)
    out = run_flaky(backend, lambda: ConnectionError("down"), fast_retry(backend, max_attempts=1))
    assert out == (("ConnectionError", "down"), 1)


@pytest.mark.parametrize(
    ("make_exc", "expected"),
    [
        (lambda: ConnectionError("c"), (("ConnectionError", "c"), 3)),
        (lambda: MyError("mine"), (("MyError", "mine"), 3)),
        (lambda: Exception("plain"), (("Exception", "plain"), 3)),
        (lambda: ValueError("bad"), (("ValueError", "bad"), 1)),
        (lambda: TypeError("t"), (("TypeError", "t"), 1)),
        (lambda: KeyError("k"), (("KeyError", "'k'"), 1)),
        (lambda: ZeroDivisionError("z"), (("ZeroDivisionError", "z"), 1)),
        (lambda: RuntimeError("r"), (("RuntimeError", "r"), 1)),
        (lambda: OSError("os"), (("OSError", "os"), 1)),
        (lambda: TimeoutError("t"), (("TimeoutError", "t"), 1)),
    ],
    ids=[
        "ConnectionError",
        "custom",
        "Exception",
        "ValueError",
        "TypeError",
        "KeyError",
        "ZeroDivisionError",
        "RuntimeError",
        "OSError",
        "TimeoutError",
    ],
)
def test_default_retry_on(backend, make_exc, expected):
    assert run_flaky(backend, make_exc, fast_retry(backend)) == expected


def test_default_retry_on_http_status(backend):
    httpx = pytest.importorskip("httpx")
    req = httpx.Request("GET", "http://example.invalid")

    def status_error(code):
        return lambda: httpx.HTTPStatusError(
            "m", request=req, response=httpx.Response(code, request=req)
        )

    assert run_flaky(backend, status_error(503), fast_retry(backend))[1] == 3
    assert run_flaky(backend, status_error(404), fast_retry(backend))[1] == 1


def test_retry_on_exception_class(backend):
    policy = fast_retry(backend, max_attempts=5, retry_on=ValueError)
    assert run_flaky(backend, lambda: ValueError("bad"), policy) == (("ValueError", "bad"), 5)
    assert run_flaky(backend, lambda: ConnectionError("c"), policy) == (
        ("ConnectionError", "c"),
        1,
    )


def test_retry_on_tuple(backend):
    policy = fast_retry(backend, max_attempts=4, retry_on=(ValueError, KeyError))
    assert run_flaky(backend, lambda: KeyError("k"), policy) == (("KeyError", "'k'"), 4)
    assert run_flaky(backend, lambda: ValueError("v"), policy, fail_times=2) == (
        {"log": ["ok after 3"]},
        3,
    )
    assert run_flaky(backend, lambda: TypeError("t"), policy) == (("TypeError", "t"), 1)


def test_retry_on_callable(backend):
    policy = fast_retry(backend, max_attempts=4, retry_on=lambda e: "retry" in str(e))
    assert run_flaky(backend, lambda: ValueError("retry me"), policy) == (
        ("ValueError", "retry me"),
        4,
    )
    assert run_flaky(backend, lambda: ValueError("nope"), policy) == (("ValueError", "nope"), 1)


def test_retry_policy_list_first_match_wins(backend):
    policies = [
        fast_retry(backend, max_attempts=2, retry_on=KeyError),
        fast_retry(backend, max_attempts=3, retry_on=ValueError),
    ]
    assert run_flaky(backend, lambda: ValueError("v"), policies) == (("ValueError", "v"), 3)
    assert run_flaky(backend, lambda: KeyError("k"), policies) == (("KeyError", "'k'"), 2)
    assert run_flaky(backend, lambda: TypeError("t"), policies) == (("TypeError", "t"), 1)


def test_no_retry_policy_means_one_attempt(backend):
    assert run_flaky(backend, lambda: ConnectionError("c"), None) == (("ConnectionError", "c"), 1)


def test_retry_backoff_waits(backend):
    policy = backend.types.RetryPolicy(
        initial_interval=0.05, backoff_factor=2.0, jitter=False, max_attempts=3
    )
    start = time.monotonic()
    run_flaky(backend, lambda: ConnectionError("c"), policy)
    assert time.monotonic() - start >= 0.05 + 0.1 - 0.01


def test_retry_max_interval_caps_wait(backend):
    policy = backend.types.RetryPolicy(
        initial_interval=0.05, backoff_factor=100.0, max_interval=0.05, jitter=False, max_attempts=4
    )
    start = time.monotonic()
    assert run_flaky(backend, lambda: ConnectionError("c"), policy)[1] == 4
    elapsed = time.monotonic() - start
    assert 0.15 - 0.01 <= elapsed < 3.0  # uncapped it would be 0.05 + 5 + 500 s


def _parallel_flaky(b, policy, fails: dict, calls: list, **compile_kw):
    steady_ran = threading.Event()

    def flaky(state):
        calls.append("flaky")
        if fails["n"] > 0:
            fails["n"] -= 1
            steady_ran.wait(timeout=5)  # let the sibling finish first, so its writes are saved
            raise ConnectionError("down")
        return {"log": ["flaky"]}

    def steady(state):
        calls.append("steady")
        steady_ran.set()
        return {"log": ["steady"]}

    g = b.graph.StateGraph(Log)
    if policy is None:
        g.add_node("flaky", flaky)
    else:
        g.add_node("flaky", flaky, retry_policy=policy)
    g.add_node("steady", steady)
    g.add_node("join", lambda s: {"log": ["join"]})
    g.add_edge(b.graph.START, "flaky")
    g.add_edge(b.graph.START, "steady")
    g.add_edge(["flaky", "steady"], "join")
    return g.compile(**compile_kw)


def test_retry_reruns_only_the_failing_node_in_parallel_step(backend):
    calls = []
    app = _parallel_flaky(backend, fast_retry(backend), {"n": 2}, calls)
    assert app.invoke({"log": []}) == {"log": ["flaky", "steady", "join"]}
    assert sorted(calls) == ["flaky", "flaky", "flaky", "steady"]


def test_retried_attempts_are_not_streamed(backend):
    calls = []
    app = _parallel_flaky(backend, fast_retry(backend), {"n": 2}, calls)
    chunks = list(app.stream({"log": []}, stream_mode="tasks"))
    results = sorted((c["name"], c["error"], repr(c["result"])) for c in chunks if "result" in c)
    assert results == [
        ("flaky", None, "{'log': ['flaky']}"),
        ("join", None, "{'log': ['join']}"),
        ("steady", None, "{'log': ['steady']}"),
    ]
    assert [c["name"] for c in chunks if "input" in c][:2] == ["flaky", "steady"]


def test_failed_step_keeps_successful_writes_and_resumes(backend):
    calls = []
    saver = backend.mod("checkpoint.memory").InMemorySaver()
    app = _parallel_flaky(backend, None, {"n": 1}, calls, checkpointer=saver)
    cfg = {"configurable": {"thread_id": "t"}}
    with pytest.raises(ConnectionError, match="down"):
        app.invoke({"log": []}, cfg)
    st = app.get_state(cfg)
    assert st.next == ("flaky",)
    assert st.values == {"log": ["steady"]}
    assert [(t.name, t.error, t.result) for t in st.tasks] == [
        ("flaky", "ConnectionError('down')", None),
        ("steady", None, {"log": ["steady"]}),
    ]
    assert app.invoke(None, cfg) == {"log": ["flaky", "steady", "join"]}
    assert sorted(calls) == ["flaky", "flaky", "steady"]  # steady is not re-run


def test_failed_task_in_tasks_stream(backend):
    calls = []
    saver = backend.mod("checkpoint.memory").InMemorySaver()
    app = _parallel_flaky(backend, None, {"n": 1}, calls, checkpointer=saver)
    chunks = []
    with pytest.raises(ConnectionError):
        for c in app.stream({"log": []}, {"configurable": {"thread_id": "t"}}, stream_mode="tasks"):
            chunks.append(c)
    results = {c["name"]: c for c in chunks if "result" in c}
    assert set(results) == {"flaky", "steady"}
    err = results["flaky"]["error"]
    assert isinstance(err, ConnectionError) and str(err) == "down"
    assert results["flaky"]["result"] == {}
    assert results["steady"]["error"] is None


async def test_retry_async_node(backend):
    calls = []

    async def flaky(state):
        calls.append(1)
        if len(calls) < 3:
            raise ConnectionError("x")
        return {"log": ["ok"]}

    g = backend.graph.StateGraph(Log)
    g.add_node("f", flaky, retry_policy=fast_retry(backend))
    g.add_edge(backend.graph.START, "f")
    assert await g.compile().ainvoke({"log": []}) == {"log": ["ok"]}
    assert len(calls) == 3


# --------------------------------------------------------------------------------------------
# CachePolicy
# --------------------------------------------------------------------------------------------


def _cached_app(b, calls: list, policy=None, *, cache=True):
    def slow(state):
        calls.append(state["x"])
        return {"y": state["x"] * 2, "log": ["slow"]}

    g = b.graph.StateGraph(XLog)
    g.add_node("slow", slow, cache_policy=policy or b.types.CachePolicy())
    g.add_node("after", lambda s: {"log": ["after"]})
    g.add_edge(b.graph.START, "slow")
    g.add_edge("slow", "after")
    if cache:
        return g.compile(cache=b.mod("cache.memory").InMemoryCache())
    return g.compile()


def test_cache_second_invoke_skips_node(backend):
    calls = []
    app = _cached_app(backend, calls)
    assert app.invoke({"x": 1}) == {"x": 1, "y": 2, "log": ["slow", "after"]}
    assert calls == [1]
    assert app.invoke({"x": 1}) == {"x": 1, "y": 2, "log": ["slow", "after"]}
    assert calls == [1]
    assert app.invoke({"x": 2}) == {"x": 2, "y": 4, "log": ["slow", "after"]}
    assert calls == [1, 2]


def test_cache_hit_in_updates_stream(backend):
    calls = []
    app = _cached_app(backend, calls)
    assert list(app.stream({"x": 1}, stream_mode="updates")) == [
        {"slow": {"y": 2, "log": ["slow"]}},
        {"after": {"log": ["after"]}},
    ]
    assert list(app.stream({"x": 1}, stream_mode="updates")) == [
        {"slow": {"y": 2, "log": ["slow"]}, "__metadata__": {"cached": True}},
        {"after": {"log": ["after"]}},
    ]
    assert calls == [1]


def test_cache_hit_in_tasks_stream_has_no_result_event(backend):
    calls = []
    app = _cached_app(backend, calls)
    app.invoke({"x": 1})
    chunks = list(app.stream({"x": 1}, stream_mode="tasks"))
    assert [(c["name"], "result" in c) for c in chunks] == [
        ("slow", False),
        ("after", False),
        ("after", True),
    ]
    assert chunks[0]["input"] == {"x": 1, "log": []}


def test_cache_policy_without_cache_is_ignored(backend):
    calls = []
    app = _cached_app(backend, calls, cache=False)
    app.invoke({"x": 1})
    app.invoke({"x": 1})
    assert calls == [1, 1]


def test_cache_ttl_expires(backend):
    calls = []
    app = _cached_app(backend, calls, backend.types.CachePolicy(ttl=1))
    app.invoke({"x": 1})
    app.invoke({"x": 1})
    assert calls == [1]
    time.sleep(1.1)
    app.invoke({"x": 1})
    assert calls == [1, 1]


def test_cache_key_func(backend):
    calls = []
    policy = backend.types.CachePolicy(key_func=lambda s: str(s["x"] % 2))
    app = _cached_app(backend, calls, policy)
    assert app.invoke({"x": 1})["y"] == 2
    assert app.invoke({"x": 3})["y"] == 2  # same key as x=1: cached writes are reused
    assert app.invoke({"x": 2})["y"] == 4
    assert calls == [1, 2]


def test_cache_clear(backend):
    calls = []
    app = _cached_app(backend, calls)
    app.invoke({"x": 1})
    app.clear_cache()
    app.invoke({"x": 1})
    assert calls == [1, 1]


def test_cache_is_per_node(backend):
    calls = []

    def mk(name):
        def node(s):
            calls.append(name)
            return {"log": [f"{name}{s['x']}"]}

        return node

    g = backend.graph.StateGraph(XLog)
    g.add_node("a", mk("a"), cache_policy=backend.types.CachePolicy())
    g.add_node("b", mk("b"), cache_policy=backend.types.CachePolicy())
    g.add_edge(backend.graph.START, "a")
    g.add_edge(backend.graph.START, "b")
    app = g.compile(cache=backend.mod("cache.memory").InMemoryCache())
    assert app.invoke({"x": 1}) == {"x": 1, "log": ["a1", "b1"]}
    assert app.invoke({"x": 1}) == {"x": 1, "log": ["a1", "b1"]}
    assert sorted(calls) == ["a", "b"]


def test_cache_on_send_tasks(backend):
    Send = backend.types.Send
    calls = []

    def w(state):
        calls.append(state["x"])
        return {"log": [f"w{state['x']}"]}

    g = backend.graph.StateGraph(XLog)
    g.add_node("w", w, cache_policy=backend.types.CachePolicy())
    g.add_conditional_edges(backend.graph.START, lambda s: [Send("w", {"x": i}) for i in (1, 2, 3)])
    app = g.compile(cache=backend.mod("cache.memory").InMemoryCache())
    assert app.invoke({"x": 0}) == {"x": 0, "log": ["w1", "w2", "w3"]}
    assert sorted(calls) == [1, 2, 3]
    chunks = list(app.stream({"x": 0}, stream_mode="updates"))
    assert sorted(map(repr, chunks)) == sorted(
        repr({"w": {"log": [f"w{i}"]}, "__metadata__": {"cached": True}}) for i in (1, 2, 3)
    )
    assert sorted(calls) == [1, 2, 3]


# --------------------------------------------------------------------------------------------
# recursion_limit
# --------------------------------------------------------------------------------------------


def _loop(b):
    g = b.graph.StateGraph(N)
    g.add_node("a", lambda s: {"n": s["n"] + 1})
    g.add_node("b", lambda s: {"n": s["n"] + 1})
    g.add_edge(b.graph.START, "a")
    g.add_edge("a", "b")
    g.add_edge("b", "a")
    return g.compile()


def test_recursion_limit_error(backend):
    GraphRecursionError = backend.errors.GraphRecursionError
    with pytest.raises(GraphRecursionError) as info:
        _loop(backend).invoke({"n": 0}, {"recursion_limit": 5})
    assert isinstance(info.value, RecursionError)
    assert str(info.value) == (
        "Recursion limit of 5 reached without hitting a stop condition. You can increase the "
        "limit by setting the `recursion_limit` config key.\n"
        "For troubleshooting, visit: "
        "https://docs.langchain.com/oss/python/langgraph/errors/GRAPH_RECURSION_LIMIT"
    )


def test_recursion_limit_values_streamed_before_error(backend):
    chunks = []
    with pytest.raises(backend.errors.GraphRecursionError):
        for c in _loop(backend).stream({"n": 0}, {"recursion_limit": 4}, stream_mode="values"):
            chunks.append(c)
    assert chunks == [{"n": 0}, {"n": 1}, {"n": 2}, {"n": 3}, {"n": 4}]


def _chain(b, k):
    g = b.graph.StateGraph(N)
    names = [f"n{i}" for i in range(k)]
    for name in names:
        g.add_node(name, lambda s: {"n": s["n"] + 1})
    g.add_edge(b.graph.START, names[0])
    for x, y in zip(names, names[1:], strict=False):
        g.add_edge(x, y)
    return g.compile()


@pytest.mark.parametrize("k", [1, 2, 3])
def test_recursion_limit_boundary(backend, k):
    """A chain of k nodes needs recursion_limit >= k + 1 in langgraph 1.2.24."""
    app = _chain(backend, k)
    assert app.invoke({"n": 0}, {"recursion_limit": k + 1}) == {"n": k}
    chunks = []
    with pytest.raises(backend.errors.GraphRecursionError):
        for c in app.stream({"n": 0}, {"recursion_limit": k}, stream_mode="updates"):
            chunks.append(c)
    # all k nodes ran; the error comes after the last step
    assert chunks == [{f"n{i}": {"n": i + 1}} for i in range(k)]


def test_recursion_limit_zero_is_invalid(backend):
    with pytest.raises(ValueError, match="recursion_limit must be at least 1"):
        _chain(backend, 1).invoke({"n": 0}, {"recursion_limit": 0})


def test_recursion_limit_with_checkpointer_keeps_progress(backend):
    g = backend.graph.StateGraph(N)
    g.add_node("a", lambda s: {"n": s["n"] + 1})
    g.add_edge(backend.graph.START, "a")
    g.add_edge("a", "a")
    app = g.compile(checkpointer=backend.mod("checkpoint.memory").InMemorySaver())
    cfg = {"configurable": {"thread_id": "t"}, "recursion_limit": 3}
    with pytest.raises(backend.errors.GraphRecursionError):
        app.invoke({"n": 0}, cfg)
    st = app.get_state(cfg)
    assert (st.values, st.next) == ({"n": 3}, ("a",))


def test_node_cache_policy_in_memory_cache(backend):
    StateGraph, START = _sg(backend)
    InMemoryCache = backend.mod("cache.memory").InMemoryCache
    CachePolicy = backend.types.CachePolicy

    class State(TypedDict, total=False):
        x: int
        result: int

    calls = []

    def expensive_node(state: State):
        calls.append(state["x"])
        return {"result": state["x"] * 2}

    builder = StateGraph(State)
    builder.add_node("expensive_node", expensive_node, cache_policy=CachePolicy(ttl=3))
    builder.add_edge(START, "expensive_node")
    graph = builder.compile(cache=InMemoryCache())

    assert graph.invoke({"x": 5}) == {"x": 5, "result": 10}
    assert graph.invoke({"x": 5}) == {"x": 5, "result": 10}
    assert calls == [5]
    # the document's `{'result': 10, '__metadata__': {'cached': True}}` is the updates-stream chunk
    assert list(graph.stream({"x": 5}, stream_mode="updates")) == [
        {"expensive_node": {"result": 10}, "__metadata__": {"cached": True}}
    ]
    assert list(graph.stream({"x": 6}, stream_mode="updates")) == [
        {"expensive_node": {"result": 12}}
    ]
    assert calls == [5, 6]

    # a tiny ttl expires: the node runs again
    calls.clear()
    builder = StateGraph(State)
    builder.add_node("expensive_node", expensive_node, cache_policy=CachePolicy(ttl=0.05))
    builder.add_edge(START, "expensive_node")
    graph = builder.compile(cache=InMemoryCache())
    graph.invoke({"x": 1})
    graph.invoke({"x": 1})
    time.sleep(0.08)
    assert graph.invoke({"x": 1}) == {"x": 1, "result": 2}
    assert calls == [1, 1]


def test_node_retry_policy_default_retry_on(backend):
    StateGraph, START = _sg(backend)
    RetryPolicy = backend.types.RetryPolicy

    class State(TypedDict, total=False):
        result: str

    def build(exc_type, fail_times):
        attempts = []

        def node_function(state: State):
            attempts.append(1)
            if len(attempts) <= fail_times:
                raise exc_type("boom")
            return {"result": f"ok after {len(attempts)}"}

        builder = StateGraph(State)
        builder.add_node(
            "node_name",
            node_function,
            retry_policy=RetryPolicy(initial_interval=0.001, max_interval=0.002, jitter=False),
        )
        builder.add_edge(START, "node_name")
        return builder.compile(), attempts

    class Flaky(Exception):
        pass

    app, attempts = build(Flaky, 2)
    assert app.invoke({}) == {"result": "ok after 3"}

    # default max_attempts=3
    app, attempts = build(Flaky, 5)
    with pytest.raises(Flaky):
        app.invoke({})
    assert len(attempts) == 3

    # ValueError / LookupError / RuntimeError ... are not retried by default_retry_on
    for exc_type in (ValueError, TypeError, ZeroDivisionError, KeyError, RuntimeError, OSError):
        app, attempts = build(exc_type, 1)
        with pytest.raises(exc_type):
            app.invoke({})
        assert len(attempts) == 1, exc_type


def test_node_retry_execution_info(backend):
    StateGraph, START = _sg(backend)
    RetryPolicy, Runtime = backend.types.RetryPolicy, backend.runtime.Runtime

    class State(TypedDict, total=False):
        result: str

    seen = []

    def call_primary_api():
        raise ConnectionError("primary down")

    def call_fallback_api():
        return "fallback"

    def my_node(state: State, runtime: Runtime):
        info = runtime.execution_info
        seen.append((info.node_attempt, info.node_first_attempt_time))
        if info.node_attempt > 1:
            return {"result": call_fallback_api()}
        return {"result": call_primary_api()}

    builder = StateGraph(State)
    builder.add_node(
        "my_node", my_node, retry_policy=RetryPolicy(max_attempts=3, initial_interval=0.001)
    )
    builder.add_edge(START, "my_node")
    assert builder.compile().invoke({}) == {"result": "fallback"}
    assert [a for a, _ in seen] == [1, 2]
    assert seen[0][1] == seen[1][1] and isinstance(seen[0][1], float)
    assert abs(seen[0][1] - time.time()) < 60


def test_recursion_limit(backend):
    StateGraph, START = _sg(backend)
    GraphRecursionError = backend.errors.GraphRecursionError

    class State(TypedDict):
        n: Annotated[int, operator.add]

    builder = StateGraph(State)
    builder.add_node("loop", lambda s: {"n": 1})
    builder.add_edge(START, "loop")
    builder.add_edge("loop", "loop")
    app = builder.compile()
    with pytest.raises(GraphRecursionError) as exc:
        app.invoke({"n": 0}, config={"recursion_limit": 5}, context={"llm": "anthropic"})
    assert str(exc.value).startswith(
        "Recursion limit of 5 reached without hitting a stop condition."
    )
    assert isinstance(exc.value, RecursionError)


def test_retry_policy_flaky_node(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    RetryPolicy = backend.types.RetryPolicy
    n = {"i": 0}

    def flaky(s):
        n["i"] += 1
        if n["i"] < 3:
            raise ValueError("boom")  # fails twice, then works
        return {"out": ["ok"]}

    g = StateGraph(C)
    g.add_node("f", flaky, retry_policy=RetryPolicy(retry_on=ValueError, initial_interval=0.01))
    g.add_edge(START, "f")
    g.add_edge("f", END)
    assert g.compile().invoke({"total": 0, "out": []}) == {"total": 0, "out": ["ok"]}
    assert n["i"] == 3


def test_retry_policy_default_does_not_retry_value_error(backend):
    StateGraph, START, END = backend.graph.StateGraph, backend.graph.START, backend.graph.END
    RetryPolicy = backend.types.RetryPolicy
    n = {"i": 0}

    def flaky(s):
        n["i"] += 1
        raise ValueError("boom")

    g = StateGraph(C)
    g.add_node("f", flaky, retry_policy=RetryPolicy(initial_interval=0.01))
    g.add_edge(START, "f")
    g.add_edge("f", END)
    with pytest.raises(ValueError) as info:
        g.compile().invoke({"total": 0, "out": []})
    assert str(info.value) == "boom"
    assert n["i"] == 1
