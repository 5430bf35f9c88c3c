"""watch_root_runs: the graphs run at the root while watched (a script's, for the studio)."""

import asyncio
from typing import TypedDict

from engine.graph import END, START, StateGraph
from engine.pregel.root_runs import watch_root_runs


class State(TypedDict):
    n: int


def _inner():
    builder = StateGraph(State)
    builder.add_node("add", lambda s: {"n": s["n"] + 1})
    builder.add_edge(START, "add")
    builder.add_edge("add", END)
    return builder.compile()


def _outer(inner):
    def call_inner(state: State) -> dict:
        return inner.invoke(state)  # a graph called inside a node: not a root run

    builder = StateGraph(State)
    builder.add_node("call", call_inner)
    builder.add_node("sub", inner)  # a subgraph: not a root run either
    builder.add_edge(START, "call")
    builder.add_edge("call", "sub")
    builder.add_edge("sub", END)
    return builder.compile()


def test_only_the_graphs_run_at_the_root_are_seen_in_order_with_their_threads():
    inner = _inner()
    outer = _outer(inner)
    with watch_root_runs() as runs:
        assert outer.invoke({"n": 0}) == {"n": 2}
        list(inner.stream({"n": 5}, {"configurable": {"thread_id": "t9"}}))
    assert [(run.graph, run.thread_id) for run in runs] == [(outer, None), (inner, "t9")]


def test_async_runs_are_seen_and_nothing_is_kept_unwatched():
    inner = _inner()
    with watch_root_runs() as runs:
        assert asyncio.run(inner.ainvoke({"n": 1})) == {"n": 2}
    assert [run.graph for run in runs] == [inner]
    inner.invoke({"n": 1})  # no longer watched
    assert len(runs) == 1


def test_the_graphs_made_while_watched_are_seen_subgraphs_and_copies_too_but_not_after():
    made: list = []
    with watch_root_runs(made=made):
        inner = _inner()
        outer = _outer(inner)
        outer.with_config({"recursion_limit": 5})  # a copy is the same graph, not a new one
    _inner()  # no longer watched
    assert made == [inner, outer]


def test_runs_in_threads_started_while_watched_are_seen_when_asked_and_older_threads_are_not():
    from concurrent.futures import ThreadPoolExecutor

    inner = _inner()
    with ThreadPoolExecutor(1) as older:  # a thread alive before the watch (the debugger's own)
        older.submit(lambda: None).result()
        with watch_root_runs() as runs:
            with ThreadPoolExecutor(2) as pool:  # the script's: runs there do not share its context
                assert list(pool.map(inner.invoke, [{"n": 1}, {"n": 2}])) == [{"n": 2}, {"n": 3}]
        assert runs == []
        with watch_root_runs(new_threads=True) as runs:
            with ThreadPoolExecutor(2) as pool:
                assert list(pool.map(inner.invoke, [{"n": 1}, {"n": 2}])) == [{"n": 2}, {"n": 3}]
            older.submit(inner.invoke, {"n": 0}).result()
        assert [run.graph for run in runs] == [inner, inner]
    with ThreadPoolExecutor(1) as later:
        later.submit(inner.invoke, {"n": 0}).result()  # no longer watched
    assert len(runs) == 2
