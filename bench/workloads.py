"""The benchmark workloads, written once against a module prefix ("langgraph" or "engine").

Every builder imports through `importlib.import_module(prefix + ...)`, so the graph code is
byte-for-byte the same on both backends: the only difference is the import prefix.

A `Workload` knows how to build its compiled graph for a given size, what input and config to
invoke it with, how many units of work (supersteps, or tasks for the fan-out) one invocation
performs, and how to check that the result is what the workload claims to compute.
"""

from __future__ import annotations

import importlib
import operator
import os
import sqlite3
import tempfile
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypedDict

SAVER_MODES = ("none", "memory", "sqlite")


# --------------------------------------------------------------------------- states


class CounterState(TypedDict):
    count: int


class FanOutState(TypedDict):
    n: int
    results: Annotated[list[int], operator.add]


class BranchState(TypedDict):
    hits: Annotated[list[int], operator.add]
    joined: int


class GrowState(TypedDict):
    count: int
    log: Annotated[list[str], operator.add]


GROW_ITEM_BYTES = 1024


# --------------------------------------------------------------------------- helpers


def _mod(prefix: str, path: str):
    return importlib.import_module(f"{prefix}.{path}")


def make_checkpointer(prefix: str, saver: str):
    """None for saver "none"; a fresh `<prefix>.checkpoint.memory.InMemorySaver` for "memory";
    for "sqlite", `<prefix>.checkpoint.sqlite.SqliteSaver` on a new temporary file (see
    `sqlite_stats` and `dispose`)."""
    if saver == "none":
        return None
    if saver == "memory":
        return _mod(prefix, "checkpoint.memory").InMemorySaver()
    if saver == "sqlite":
        path = os.path.join(tempfile.mkdtemp(prefix="bench-"), "checkpoints.sqlite")
        conn = sqlite3.connect(path, check_same_thread=False)
        return _mod(prefix, "checkpoint.sqlite").SqliteSaver(conn)
    raise ValueError(f"unknown saver mode {saver!r} (expected one of {SAVER_MODES})")


def _sqlite_file(graph) -> tuple[sqlite3.Connection, str] | None:
    conn = getattr(getattr(graph, "checkpointer", None), "conn", None)
    if not isinstance(conn, sqlite3.Connection):
        return None
    path = next(file for _, name, file in conn.execute("PRAGMA database_list") if name == "main")
    return conn, path


def sqlite_stats(graph) -> tuple[int, int] | None:
    """(database bytes, number of checkpoints) of a graph's SQLite saver, else None.

    The write-ahead log is folded into the file first, so the size is what the data takes."""
    found = _sqlite_file(graph)
    if found is None:
        return None
    conn, path = found
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (count,) = conn.execute("SELECT count(*) FROM checkpoints").fetchone()
    size = sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))
    return size, count


def dispose(graph) -> None:
    """Close and delete a graph's temporary SQLite file (no-op for other savers)."""
    found = _sqlite_file(graph)
    if found is None:
        return
    conn, path = found
    conn.close()
    folder = os.path.dirname(path)
    for name in os.listdir(folder):
        os.remove(os.path.join(folder, name))
    os.rmdir(folder)


def _increment(state: CounterState) -> dict:
    return {"count": state["count"] + 1}


# --------------------------------------------------------------------------- builders


def build_chain(prefix: str, size: int, checkpointer=None):
    """n0 -> n1 -> ... -> n{size-1}, each node adds 1 to `count`."""
    g = _mod(prefix, "graph")
    builder = g.StateGraph(CounterState)
    names = [f"n{i}" for i in range(size)]
    for name in names:
        builder.add_node(name, _increment)
    builder.add_edge(g.START, names[0])
    for a, b in zip(names, names[1:], strict=False):
        builder.add_edge(a, b)
    builder.add_edge(names[-1], g.END)
    return builder.compile(checkpointer=checkpointer)


def _self_loop(prefix: str, size: int, checkpointer, name: str, state: type, node) -> Any:
    """START -> `name`, which loops to itself through a conditional edge until count == size."""
    g = _mod(prefix, "graph")
    end = g.END

    def route(values: dict) -> str:
        return name if values["count"] < size else end

    builder = g.StateGraph(state)
    builder.add_node(name, node)
    builder.add_edge(g.START, name)
    builder.add_conditional_edges(name, route, [name, end])
    return builder.compile(checkpointer=checkpointer)


def build_loop(prefix: str, size: int, checkpointer=None):
    """One node `step` looping to itself through a conditional edge until count == size."""
    return _self_loop(prefix, size, checkpointer, "step", CounterState, _increment)


def build_fanout(prefix: str, size: int, checkpointer=None):
    """A router (conditional edge out of START) sends `size` Send packets to `worker`;
    each worker appends its index to the operator.add list `results`."""
    g = _mod(prefix, "graph")
    send = _mod(prefix, "types").Send

    def router(state: FanOutState) -> list:
        return [send("worker", {"i": i}) for i in range(state["n"])]

    def worker(packet: dict) -> dict:
        return {"results": [packet["i"]]}

    builder = g.StateGraph(FanOutState)
    builder.add_node("worker", worker)
    builder.add_conditional_edges(g.START, router, ["worker"])
    builder.add_edge("worker", g.END)
    return builder.compile(checkpointer=checkpointer)


def build_branches(prefix: str, size: int, checkpointer=None):
    """START -> b0..b{size-1} in parallel -> join (waits for all of them via add_edge([...]))."""
    g = _mod(prefix, "graph")
    names = [f"b{i}" for i in range(size)]

    def make_branch(i: int) -> Callable[[BranchState], dict]:
        def branch(state: BranchState) -> dict:
            return {"hits": [i]}

        return branch

    def join(state: BranchState) -> dict:
        return {"joined": len(state["hits"])}

    builder = g.StateGraph(BranchState)
    for i, name in enumerate(names):
        builder.add_node(name, make_branch(i))
        builder.add_edge(g.START, name)
    builder.add_node("join", join)
    builder.add_edge(names, "join")
    builder.add_edge("join", g.END)
    return builder.compile(checkpointer=checkpointer)


def build_grow(prefix: str, size: int, checkpointer=None):
    """One node looping `size` times, appending a 1 KiB string to an operator.add list each
    step: the state grows by 1 KiB a superstep (what a chat history does)."""

    def grow(state: GrowState) -> dict:
        n = state["count"]
        return {"count": n + 1, "log": [f"{n:08d}".ljust(GROW_ITEM_BYTES, "x")]}

    return _self_loop(prefix, size, checkpointer, "grow", GrowState, grow)


# --------------------------------------------------------------------------- checks


def _check_counter(result: Any, size: int) -> None:
    assert result == {"count": size}, f"expected {{'count': {size}}}, got {result!r}"


def _check_fanout(result: Any, size: int) -> None:
    got = result.get("results") if isinstance(result, dict) else None
    assert isinstance(got, list), f"expected a 'results' list, got {result!r}"
    assert sorted(got) == list(range(size)), f"expected results 0..{size - 1}, got {got!r}"
    assert result.get("n") == size, f"expected n == {size}, got {result!r}"


def _check_branches(result: Any, size: int) -> None:
    hits = result.get("hits") if isinstance(result, dict) else None
    assert isinstance(hits, list), f"expected a 'hits' list, got {result!r}"
    assert sorted(hits) == list(range(size)), f"expected hits 0..{size - 1}, got {hits!r}"
    assert result.get("joined") == size, f"expected joined == {size}, got {result!r}"


def _check_grow(result: Any, size: int) -> None:
    log = result.get("log") if isinstance(result, dict) else None
    assert isinstance(log, list), f"expected a 'log' list, got {result!r}"
    assert result.get("count") == size, f"expected count == {size}, got {result.get('count')!r}"
    assert [item[:8] for item in log] == [f"{i:08d}" for i in range(size)], "wrong log items"
    assert all(len(item) == GROW_ITEM_BYTES for item in log), "log items are not 1 KiB"


# --------------------------------------------------------------------------- registry


@dataclass(frozen=True)
class Workload:
    name: str
    description: str
    size: int  # the benchmark size (the smoke test passes smaller ones)
    unit: str  # "step" (superstep) or "task"
    build: Callable[..., Any]  # (prefix, size, checkpointer) -> compiled graph
    make_input: Callable[[int], dict]
    units: Callable[[int], int]  # units of work one invoke performs, for a given size
    check: Callable[[Any, int], None]  # raises AssertionError if the result is wrong

    def config(self, size: int, saver: str) -> dict:
        """Invoke config: a recursion limit with headroom, plus a fresh thread_id with a saver."""
        cfg: dict = {"recursion_limit": size + 10}
        if saver != "none":
            cfg["configurable"] = {"thread_id": f"bench-{self.name}-{uuid.uuid4().hex}"}
        return cfg

    def compile(self, prefix: str, size: int, saver: str):
        return self.build(prefix, size, make_checkpointer(prefix, saver))


WORKLOADS: dict[str, Workload] = {
    w.name: w
    for w in (
        Workload(
            name="chain",
            description="100-node chain n0..n99, each increments a counter",
            size=100,
            unit="step",
            build=build_chain,
            make_input=lambda size: {"count": 0},
            units=lambda size: size,  # one superstep per node
            check=_check_counter,
        ),
        Workload(
            name="loop",
            description="1 node looping to itself via a conditional edge until count == 1000",
            size=1000,
            unit="step",
            build=build_loop,
            make_input=lambda size: {"count": 0},
            units=lambda size: size,  # the node runs `size` times, one superstep each
            check=_check_counter,
        ),
        Workload(
            name="fanout",
            description="router sends 1000 Send packets to a worker appending to an add-list",
            size=1000,
            unit="task",
            build=build_fanout,
            make_input=lambda size: {"n": size, "results": []},
            units=lambda size: size,  # `size` worker tasks (all in one superstep)
            check=_check_fanout,
        ),
        Workload(
            name="branches",
            description="START -> b0..b49 in parallel -> join, writing to a reducer key",
            size=50,
            unit="step",
            build=build_branches,
            make_input=lambda size: {"hits": [], "joined": 0},
            units=lambda size: 2,  # superstep 1: the branches; superstep 2: join
            check=_check_branches,
        ),
        Workload(
            name="grow",
            description="1 node looping 500 times, appending 1 KiB to an operator.add list",
            size=500,
            unit="step",
            build=build_grow,
            make_input=lambda size: {"count": 0, "log": []},
            units=lambda size: size,
            check=_check_grow,
        ),
    )
}

# Sizes for the smoke test (tests/bench): small, but exercising the same shapes.
SMOKE_SIZES = {"chain": 5, "loop": 10, "fanout": 10, "branches": 5, "grow": 10}


def run_once(name: str, prefix: str, saver: str = "none", size: int | None = None) -> Any:
    """Build, invoke once and return the result (no timing). Used by the smoke test."""
    w = WORKLOADS[name]
    size = w.size if size is None else size
    graph = w.compile(prefix, size, saver)
    try:
        return graph.invoke(w.make_input(size), w.config(size, saver))
    finally:
        dispose(graph)
