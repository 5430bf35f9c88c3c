"""The read bench (bench/reads.py) runs at small sizes on both backends and reports every read."""

from __future__ import annotations

import re

import pytest

from bench import reads


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(reads, "ROUND_SECONDS", 0.001)


def test_small_read_bench_reports_every_ratio(capsys, tmp_path):
    code = reads.main(
        ["--counter", "30", "--grow", "12", "--repeat", "1", "--files", str(tmp_path)]
    )
    out = capsys.readouterr().out
    assert code in (0, 1)  # the verdict is for the real sizes; here the bench must just run
    for name, size in (("counter", 30), ("grow", 12)):
        assert f"{name} ({size} supersteps)" in out
    row = re.compile(r"^  (\S.*?)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+( {2}over target)?$")
    reported = {m.group(1) for line in out.splitlines() if (m := row.match(line))}
    assert {*reads._reads({}).keys(), *reads.ASYNC_READS} <= reported
    # beside the ratio, the engine's microseconds per checkpoint read (the 32 of the full one)
    full = next(line for line in out.splitlines() if line.startswith("  history full"))
    engine_ms, per_checkpoint = float(full.split()[3]), float(full.split()[5])
    assert abs(per_checkpoint - engine_ms * 1000 / 32) <= 0.01 + per_checkpoint * 0.01
    assert out.rstrip().splitlines()[-1].startswith(("SUMMARY: PASS", "SUMMARY: FAIL"))
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"{b}-{w}.sqlite" for b in ("engine", "langgraph") for w in ("counter-30", "grow-12")
    ]


@pytest.mark.parametrize("prefix", ["langgraph", "engine"])
def test_written_threads_read_back_whole(prefix, tmp_path):
    for workload in reads.WORKLOADS.values():
        path = str(tmp_path / f"{workload.name}.sqlite")
        reads.write_thread(workload, prefix, 8, path)
        got = reads.measure(workload, prefix, 8, 1, path)  # asserts the history's length
        assert set(got) == {*reads._reads({}), *reads.ASYNC_READS}


def test_gated_reads_are_the_issues():
    assert reads.GATED == ("history full", "history first 50", "get_state")
    assert (reads.WORKLOADS["counter"].size, reads.WORKLOADS["grow"].size) == (10_000, 2_000)
    assert reads.TARGET == 0.5
