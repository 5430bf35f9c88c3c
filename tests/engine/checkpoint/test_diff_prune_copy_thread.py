"""Saver `copy_thread` and `prune` (langgraph's saver contract; langgraph's own memory and SQLite
savers leave them unimplemented): a copied thread, and a pruned one, read and resume on the
engine exactly as the original thread does on langgraph (issue 31)."""

import asyncio
import operator
from typing import Annotated

import pytest
from typing_extensions import TypedDict

from tests.engine.checkpoint.test_diff_delta_channel import _saver, extend
from tests.oracle import Backend, assert_same

pytestmark = pytest.mark.differential

KINDS = ["memory", "sqlite"]


def _graph(b: Backend, saver, *, delta: bool):
    """A counter loop (its history in a DeltaChannel, or a plain list) around a subgraph with
    its own checkpoints, that asks for approval once."""
    g = b.graph
    log_type = (
        Annotated[list, b.channels.DeltaChannel(extend, snapshot_frequency=3)]
        if delta
        else Annotated[list, operator.add]
    )

    class S(TypedDict):
        log: log_type
        n: int

    class Sub(TypedDict):
        n: int
        note: str

    def inner(s):
        return {"note": f"inner{s['n']}"}

    sub = g.StateGraph(Sub)
    sub.add_node("inner", inner)
    sub.add_edge(g.START, "inner")

    def step(s):
        if s["n"] == 3:
            return {"log": [f"ok:{b.types.interrupt('go on?')}"], "n": s["n"] + 1}
        return {"log": [f"s{s['n']}"], "n": s["n"] + 1}

    builder = g.StateGraph(S)
    builder.add_node("step", step)
    builder.add_node("sub", sub.compile(checkpointer=True))
    builder.add_edge(g.START, "step")
    builder.add_edge("step", "sub")
    builder.add_conditional_edges("sub", lambda s: "step" if s["n"] < 6 else g.END)
    return builder.compile(checkpointer=saver)


def _ran(b: Backend, kind: str, delta: bool, *threads: str) -> tuple:
    """(saver, graph) once each thread has run up to the interrupt."""
    saver = _saver(b, kind)
    graph = _graph(b, saver, delta=delta)
    for thread in threads:
        graph.invoke({"log": [], "n": 0}, _config(thread))
    return saver, graph


def _config(thread: str) -> dict:
    return {"configurable": {"thread_id": thread}}


def _state(graph, thread: str) -> tuple:
    snap = graph.get_state(_config(thread), subgraphs=True)
    return (
        snap.values,
        snap.next,
        [(t.name, [i.value for i in t.interrupts]) for t in snap.tasks],
        snap.metadata["step"],
    )


def _continued(b: Backend, graph, thread: str) -> list:
    """Resume the thread, then run it again from a new input."""
    return [
        graph.invoke(b.types.Command(resume="yes"), _config(thread)),
        _state(graph, thread),
        graph.invoke({"log": ["again"], "n": 0}, _config(thread)),
        _state(graph, thread),
    ]


def _history(graph, thread: str) -> list:
    return [
        (s.metadata["step"], s.metadata["source"], s.values, s.next)
        for s in graph.get_state_history(_config(thread))
    ]


@pytest.mark.parametrize("delta", [False, True], ids=["list", "delta"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_copied_thread_is_the_original(kind, delta):
    """On the engine the copy is read and resumed; on langgraph the original itself."""

    def scenario(b):
        saver, graph = _ran(b, kind, delta, "src")
        thread = "src"
        if b.prefix == "engine":
            before = _history(graph, "src")
            saver.copy_thread("src", "dst")
            thread = "dst"
        out = [_state(graph, thread), _history(graph, thread), *_continued(b, graph, thread)]
        if b.prefix == "engine":  # the source is untouched by the copy's run
            assert _history(graph, "src") == before
            assert saver.list_threads() == ["dst", "src"]
        return out

    assert_same(scenario)


@pytest.mark.parametrize("delta", [False, True], ids=["list", "delta"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_pruned_thread_reads_and_resumes_as_before(kind, delta):
    def scenario(b):
        saver, graph = _ran(b, kind, delta, "t", "other")
        if b.prefix == "engine":
            saver.prune(["t"])
            kept.append(len(_history(graph, "t")))
        return [_state(graph, "t"), *_continued(b, graph, "t"), _history(graph, "other")]

    kept: list = []
    assert_same(scenario)
    [kept] = kept
    # the newest checkpoint alone, or with the ancestors back to the DeltaChannel's snapshot
    assert kept == 1 if not delta else 1 < kept < 8


@pytest.mark.parametrize("kind", KINDS)
def test_keep_latest_keeps_one_checkpoint_per_namespace_and_frees_values(kind, tmp_path):
    saver, graph = _ran(Backend("engine"), kind, False, "t")
    before = list(saver.list(_config("t")))
    values_before = _stored_values(saver, kind)
    saver.prune(["t"])
    after = list(saver.list(_config("t")))
    by_ns = {}
    for t in after:
        by_ns.setdefault(t.config["configurable"]["checkpoint_ns"], []).append(t)
    assert len(before) > 10 and sorted(by_ns) == ["", "sub"]
    assert all(len(ts) == 1 for ts in by_ns.values())
    newest = {t.config["configurable"]["checkpoint_ns"]: t.checkpoint["id"] for t in before}
    assert {ns: ts[0].checkpoint["id"] for ns, ts in by_ns.items()} == {
        ns: max(
            t.checkpoint["id"] for t in before if t.config["configurable"]["checkpoint_ns"] == ns
        )
        for ns in newest
    }
    assert after[0].pending_writes  # the interrupt waiting on the newest checkpoint is kept
    assert _stored_values(saver, kind) < values_before / 2  # the values only they named
    if kind == "sqlite":
        counts = saver.conn.execute("SELECT checkpoint_ns, checkpoints FROM threads ORDER BY 1")
        assert counts.fetchall() == [("", 1), ("sub", 1)]


def _stored_values(saver, kind: str) -> int:
    if kind == "memory":
        return len(saver.blobs)
    return saver.conn.execute("SELECT count(*) FROM blobs").fetchone()[0]


@pytest.mark.parametrize("kind", KINDS)
def test_delete_strategy_async_twins_and_bad_strategies(kind):
    def scenario(b):
        saver, graph = _ran(b, kind, True, "a", "b")
        if b.prefix == "engine":
            asyncio.run(saver.aprune(["a"], strategy="delete"))
            asyncio.run(saver.acopy_thread("b", "c"))
            asyncio.run(saver.aprune(["c"]))
            thread = "c"
        else:  # what a delete is on langgraph
            saver.delete_thread("a")
            thread = "b"
        return _history(graph, "a"), _state(graph, thread), _continued(b, graph, thread)

    assert_same(scenario)
    saver = _saver(Backend("engine"), kind)
    with pytest.raises(ValueError, match="Unknown prune strategy 'delete_all'"):
        saver.prune(["a"], strategy="delete_all")


def test_the_contract_is_langgraphs(backend):
    """Both bases declare the methods (a saver without them raises NotImplementedError, as
    langgraph's own memory and SQLite savers do)."""
    base = backend.mod("checkpoint.base").BaseCheckpointSaver

    class Custom(base):
        pass

    saver, raised = Custom(), []
    for call in (
        lambda: saver.prune(["t"]),
        lambda: saver.copy_thread("a", "b"),
        lambda: saver.delete_for_runs(["r"]),
        lambda: asyncio.run(saver.aprune(["t"], strategy="delete")),
        lambda: asyncio.run(saver.acopy_thread("a", "b")),
    ):
        try:
            call()
        except NotImplementedError:
            raised.append(True)
    assert raised == [True] * 5
