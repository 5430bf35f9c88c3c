"""The timeline bench (bench/timeline.py) runs at a small size through the studio's real path."""

from __future__ import annotations

import re

import pytest

from bench import timeline as bench

pytestmark = pytest.mark.gui


def test_small_timeline_bench_prints_every_figure(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SUPERSTEP_STUDIO_HOME", str(tmp_path / "home"))
    code = bench.main(["--steps", "40", "--scrubs", "5"])
    out = capsys.readouterr().out
    assert code in (0, 1)  # the verdict is for the real size; here the bench must run and report
    assert "timeline of a 40-superstep run" in out
    for figure in ("studio Run, to finished", "open (dock shown, drawn)", "scrub median",
                   "scrub worst", "scrub to channels shown", "paint, whole run fitted",
                   "paint, zoomed to bars"):  # fmt: skip
        assert re.search(rf"^  {re.escape(figure)} +[\d.]+", out, re.M), figure
    assert re.search(r"^  build from \d+ events +[\d.]+", out, re.M)
    assert out.rstrip().splitlines()[-1].startswith(("SUMMARY: PASS", "SUMMARY: FAIL"))
