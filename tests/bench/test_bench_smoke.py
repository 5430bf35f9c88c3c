"""The benchmark workloads compute what they claim, on both backends, at small sizes.

Runs each bench/ workload once (with and without the in-memory saver) and checks the result
values, so a benchmark figure is never a figure for a graph that does something else.
"""

from __future__ import annotations

import pytest

from bench.workloads import SAVER_MODES, SMOKE_SIZES, WORKLOADS, run_once

PREFIXES = ("langgraph", "engine")


@pytest.mark.parametrize("saver", SAVER_MODES)
@pytest.mark.parametrize("name", list(WORKLOADS))
@pytest.mark.parametrize("prefix", PREFIXES)
def test_workload_result(prefix: str, name: str, saver: str) -> None:
    size = SMOKE_SIZES[name]
    result = run_once(name, prefix, saver=saver, size=size)
    WORKLOADS[name].check(result, size)


def test_expected_values_spelled_out() -> None:
    """The checks themselves, pinned to literal values on langgraph."""
    assert run_once("chain", "langgraph", size=5) == {"count": 5}
    assert run_once("loop", "langgraph", size=10) == {"count": 10}
    fan = run_once("fanout", "langgraph", size=10)
    assert fan["n"] == 10 and sorted(fan["results"]) == list(range(10))
    br = run_once("branches", "langgraph", size=5)
    assert br["joined"] == 5 and sorted(br["hits"]) == [0, 1, 2, 3, 4]
    grow = run_once("grow", "langgraph", size=3)
    assert grow["count"] == 3 and [len(x) for x in grow["log"]] == [1024] * 3
    assert [x[:8] for x in grow["log"]] == ["00000000", "00000001", "00000002"]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_sqlite_mode_reports_bytes_per_checkpoint_and_cleans_up(prefix: str) -> None:
    import os

    from bench.workloads import dispose, sqlite_stats

    w = WORKLOADS["grow"]
    graph = w.compile(prefix, 5, "sqlite")
    w.check(graph.invoke(w.make_input(5), w.config(5, "sqlite")), 5)
    path = next(
        f for _, n, f in graph.checkpointer.conn.execute("PRAGMA database_list") if n == "main"
    )
    size, checkpoints = sqlite_stats(graph)
    assert checkpoints == 7  # the input checkpoint (step -1), then steps 0 (__start__) to 5
    assert size >= os.path.getsize(path) > 0
    dispose(graph)
    assert not os.path.exists(path)


def test_bench_sizes_match_the_issue() -> None:
    sizes = {name: w.size for name, w in WORKLOADS.items()}
    assert sizes == {"chain": 100, "loop": 1000, "fanout": 1000, "branches": 50, "grow": 500}
    assert WORKLOADS["fanout"].unit == "task"


@pytest.mark.parametrize("name", list(WORKLOADS))
def test_checks_reject_wrong_results(name: str) -> None:
    with pytest.raises(AssertionError):
        WORKLOADS[name].check({}, SMOKE_SIZES[name])
