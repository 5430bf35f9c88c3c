"""The studio bench (bench/studio.py) runs at small sizes through the studio's real run path."""

from __future__ import annotations

import re

import pytest

from bench import studio as bench

pytestmark = pytest.mark.gui


def test_small_studio_bench_prints_every_figure(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SUPERSTEP_STUDIO_HOME", str(tmp_path / "home"))
    code = bench.main(
        ["--steps", "40", "--history", "60", "--repeat", "1", "--files", str(tmp_path)]
    )
    out = capsys.readouterr().out
    assert code in (0, 1)  # the verdict is for the real sizes; here the bench must run and report
    assert "loop of 40 supersteps" in out and "thread of 62 checkpoints" in out
    for figure in ("headless superstep run", "studio Run", "studio/headless", "longest GUI stall",
                   "open, thread listed", "click, history shown", "open + show"):  # fmt: skip
        assert re.search(rf"^  {re.escape(figure)} +[\d.]+", out, re.M), figure
    assert out.rstrip().splitlines()[-1].startswith(("SUMMARY: PASS", "SUMMARY: FAIL"))
    assert (tmp_path / "history60.checkpoints.sqlite").exists()  # --files keeps the long thread
