"""Time reading long threads back from SQLite on real langgraph and on our engine.

    python -m bench.reads [--counter N] [--grow N] [--repeat N] [--backend langgraph|engine|both]

For each workload (a counter looping N supersteps; a list growing by 200 bytes a superstep) and
backend: one untimed `invoke` writes the thread into a new SqliteSaver file, then each read is
timed `--repeat` times (median kept), on one graph, sync and async (`AsyncSqliteSaver` on the
same file), the two backends' rounds of each read alternating. Printed: milliseconds per read and
the ratio engine / langgraph. Target (issue 21): every ratio at most 0.5; exit status 1 if one
is above, 0 otherwise (or when one backend ran alone).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib
import itertools
import operator
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypedDict

TARGET = 0.5
BACKENDS = ("langgraph", "engine")
THREAD = {"configurable": {"thread_id": "reads"}}
GROW_ITEM_BYTES = 200
ROUND_SECONDS = 0.2


class Counter(TypedDict):
    count: int


class Grow(TypedDict):
    count: int
    log: Annotated[list[str], operator.add]


def _counter_node(state: Counter) -> dict:
    return {"count": state["count"] + 1}


def _grow_node(state: Grow) -> dict:
    n = state["count"]
    return {"count": n + 1, "log": [f"{n:08d}".ljust(GROW_ITEM_BYTES, "x")]}


@dataclass(frozen=True)
class ReadWorkload:
    name: str
    state: type
    node: Callable[[Any], dict]
    size: int

    def build(self, prefix: str, size: int, checkpointer: Any) -> Any:
        graph = importlib.import_module(prefix + ".graph")

        def route(values: dict) -> str:
            return "step" if values["count"] < size else graph.END

        builder = graph.StateGraph(self.state)
        builder.add_node("step", self.node)
        builder.add_edge(graph.START, "step")
        builder.add_conditional_edges("step", route, ["step", graph.END])
        return builder.compile(checkpointer=checkpointer)

    def initial(self) -> dict:
        return {"count": 0} if self.state is Counter else {"count": 0, "log": []}


WORKLOADS = {
    "counter": ReadWorkload("counter", Counter, _counter_node, 10_000),
    "grow": ReadWorkload("grow", Grow, _grow_node, 2_000),
}


def _history(graph: Any, **kw: Any) -> int:
    return sum(1 for _ in graph.get_state_history(THREAD, **kw))


def _before(graph: Any, middle: dict) -> int:
    return _history(graph, before=middle, limit=50)


def _reads(middle: dict) -> dict[str, Callable[[Any, Any], Any]]:
    """name -> read(graph, saver): what the issue asks to be fast on a long thread."""
    return {
        "history full": lambda g, s: _history(g),
        "history first 50": lambda g, s: sum(
            1 for _ in itertools.islice(g.get_state_history(THREAD), 50)
        ),
        "history limit 50": lambda g, s: _history(g, limit=50),
        "history before+limit": lambda g, s: _before(g, middle),
        "history filter": lambda g, s: _history(g, filter={"step": 7}),
        "get_state": lambda g, s: g.get_state(THREAD),
        "get_tuple": lambda g, s: s.get_tuple(THREAD),
        "list limit 50": lambda g, s: sum(1 for _ in s.list(THREAD, limit=50)),
    }


async def _ahistory(graph: Any, **kw: Any) -> int:
    return len([x async for x in graph.aget_state_history(THREAD, **kw)])


ASYNC_READS: dict[str, Callable[[Any], Any]] = {
    "async history full": lambda g: _ahistory(g),
    "async history limit 50": lambda g: _ahistory(g, limit=50),
    "async get_state": lambda g: g.aget_state(THREAD),
}
GATED = ("history full", "history first 50", "get_state")
"""The reads whose ratio decides the exit status (the issue's 'done when')."""


def _sqlite(prefix: str) -> Any:
    return importlib.import_module(prefix + ".checkpoint.sqlite")


def _timed(fns: dict[str, Callable[[], Any]], repeat: int) -> dict[str, float]:
    """Seconds per call of each function: the median of `repeat` rounds, each calling it as many
    times as fill `ROUND_SECONDS` (once for a slow read), after a gc.collect() (as timeit does, a
    fast read is timed in a loop: one call straight after a collection measures the collection's
    mess). The functions' rounds alternate, so a shared machine's load weighs on each alike."""
    calls = {}
    for key, fn in fns.items():
        t0 = time.perf_counter()
        fn()
        calls[key] = max(1, int(ROUND_SECONDS / max(time.perf_counter() - t0, 1e-7)))
    times: dict[str, list[float]] = {key: [] for key in fns}
    for _ in range(repeat):
        for key, fn in fns.items():
            gc.collect()
            t0 = time.perf_counter()
            for _ in range(calls[key]):
                fn()
            times[key].append((time.perf_counter() - t0) / calls[key])
    return {key: statistics.median(found) for key, found in times.items()}


def write_thread(w: ReadWorkload, prefix: str, size: int, path: str) -> None:
    """The thread the reads read: `size` supersteps of `w`, saved in the file at `path`."""
    conn = sqlite3.connect(path, check_same_thread=False)
    try:
        graph = w.build(prefix, size, _sqlite(prefix).SqliteSaver(conn))
        result = graph.invoke(w.initial(), {**THREAD, "recursion_limit": size + 10})
        assert result["count"] == size, f"{prefix} {w.name}: wrong result {result['count']}"
    finally:
        conn.close()


def measure(w: ReadWorkload, prefix: str, size: int, repeat: int, path: str) -> dict[str, float]:
    """Seconds per read (median of `repeat`) on the thread stored at `path`."""
    return measure_all(w, size, repeat, {prefix: path})[prefix]


def measure_all(w: ReadWorkload, size: int, repeat: int, paths: dict[str, str]) -> dict:
    """{backend: {read: seconds}} on each backend's thread in `paths`, the backends' rounds of
    each read alternating (sync on SqliteSaver, then async on AsyncSqliteSaver, same files)."""
    out: dict[str, dict[str, float]] = {prefix: {} for prefix in paths}
    with contextlib.ExitStack() as stack:
        graphs, reads = {}, {}
        for prefix, path in paths.items():
            conn = stack.enter_context(
                contextlib.closing(sqlite3.connect(path, check_same_thread=False))
            )
            saver = _sqlite(prefix).SqliteSaver(conn)
            graph = graphs[prefix] = (w.build(prefix, size, saver), saver)
            configs = [
                s.config for s in itertools.islice(graph[0].get_state_history(THREAD), size // 2)
            ]
            steps = {_history(graph[0]), size + 2}
            assert len(steps) == 1, f"{prefix} {w.name}: history has {steps} checkpoints"
            reads[prefix] = _reads(configs[-1])
        for name in reads[next(iter(paths))]:
            timed = _timed(
                {prefix: lambda r=reads[prefix][name], g=graphs[prefix]: r(*g) for prefix in paths},
                repeat,
            )
            for prefix, seconds in timed.items():
                out[prefix][name] = seconds
    for prefix, found in _measure_async(w, size, repeat, paths).items():
        out[prefix].update(found)
    return out


def _measure_async(w: ReadWorkload, size: int, repeat: int, paths: dict[str, str]) -> dict:
    """The async reads, on `AsyncSqliteSaver`, each call run to completion on one event loop."""
    loop = asyncio.new_event_loop()
    opened = {
        prefix: importlib.import_module(
            prefix + ".checkpoint.sqlite.aio"
        ).AsyncSqliteSaver.from_conn_string(path)
        for prefix, path in paths.items()
    }
    entered = []
    try:
        graphs = {}
        for prefix, saver in opened.items():
            graphs[prefix] = w.build(prefix, size, loop.run_until_complete(saver.__aenter__()))
            entered.append(saver)
        run, out = loop.run_until_complete, {prefix: {} for prefix in paths}
        for name, read in ASYNC_READS.items():
            calls = {prefix: lambda g=graph, r=read: run(r(g)) for prefix, graph in graphs.items()}
            timed = _timed(calls, repeat)
            for prefix, seconds in timed.items():
                out[prefix][name] = seconds
        return out
    finally:
        for saver in entered:
            loop.run_until_complete(saver.__aexit__(None, None, None))
        loop.close()


def run_workload(w: ReadWorkload, backends: tuple[str, ...], size: int, repeat: int,
                 files: str | None = None) -> dict:  # fmt: skip
    """{backend: {read: seconds}}, each backend on its own file: a temporary one, or one kept in
    `files` (written there if missing, so a second run skips the writing)."""
    folder = files or tempfile.mkdtemp(prefix="bench-reads-")
    try:
        paths = {}
        for prefix in backends:
            path = paths[prefix] = os.path.join(folder, f"{prefix}-{w.name}-{size}.sqlite")
            if not os.path.exists(path):
                t0 = time.perf_counter()
                write_thread(w, prefix, size, path + ".tmp")
                os.replace(path + ".tmp", path)
                print(f"  {prefix}: wrote {size} supersteps in {time.perf_counter() - t0:.1f}s",
                      flush=True)  # fmt: skip
        return measure_all(w, size, repeat, paths)
    finally:
        if files is None:
            shutil.rmtree(folder, ignore_errors=True)


def checkpoints_read(read: str, size: int) -> int:
    """How many checkpoints one call of `read` returns on a thread of `size` supersteps (its
    input and first checkpoints too): the per-checkpoint figure divides by it."""
    if read in ("history full", "async history full"):
        return size + 2
    if read == "history filter":
        return 1
    return 50 if "50" in read or "limit" in read else 1


def report(name: str, size: int, results: dict) -> list[float]:
    """Print one table; return the gated ratios."""
    print(f"\n{name} ({size} supersteps)")
    print(f"  {'read':24} {'langgraph ms':>12} {'engine ms':>12} {'ratio':>7} {'eng us/ckpt':>11}")
    gated = []
    reads = next(iter(results.values())).keys()
    for read in reads:
        lg, eng = results.get("langgraph", {}).get(read), results.get("engine", {}).get(read)
        ratio = eng / lg if lg and eng is not None else None
        cells = [f"{x * 1e3:12.4f}" if x is not None else f"{'-':>12}" for x in (lg, eng)]
        mark = ""
        if ratio is not None:
            mark = "" if ratio <= TARGET else "  over target"
            if read in GATED:
                gated.append(ratio)
        text = f"{ratio:7.3f}" if ratio is not None else f"{'-':>7}"
        each = f"{eng * 1e6 / checkpoints_read(read, size):11.2f}" if eng is not None else "-"
        print(f"  {read:24} {cells[0]} {cells[1]} {text} {each:>11}{mark}")
    return gated


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.reads", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--counter", type=int, default=WORKLOADS["counter"].size)
    parser.add_argument("--grow", type=int, default=WORKLOADS["grow"].size)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backend", choices=("langgraph", "engine", "both"), default="both")
    parser.add_argument("--only", default="counter,grow")
    parser.add_argument("--files", help="keep the written threads in this folder and reuse them")
    args = parser.parse_args(argv)
    backends = BACKENDS if args.backend == "both" else (args.backend,)
    sizes = {"counter": args.counter, "grow": args.grow}
    ratios: list[float] = []
    for name in args.only.split(","):
        w, size = WORKLOADS[name], sizes[name]
        print(f"{name}: writing the thread", flush=True)
        ratios += report(name, size, run_workload(w, backends, size, args.repeat, args.files))
    worst = max(ratios, default=None)
    ok = worst is None or worst <= TARGET
    verdict = "PASS" if ok else "FAIL"
    detail = (
        f"worst gated ratio {worst:.3f} (target {TARGET})" if worst is not None else "no ratios"
    )
    print(f"\nSUMMARY: {verdict} {detail}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
