"""`superstep run` on a graph whose own code drains its run (`runtime.control.request_drain`):
the run stops at the superstep boundary with its checkpoint saved, as langgraph's does, and
the command says so and how to carry on, as for a breakpoint (it said "run failed:
GraphDrained"); `--continue` then finishes the thread."""

from __future__ import annotations

import json

from studio.cli import main
from tests.cli.program_scripts import DRAINING


def test_a_drained_run_says_how_to_carry_on(tmp_path, capsys):
    script = tmp_path / "draining.py"
    script.write_text(DRAINING, encoding="utf-8")
    db = tmp_path / "runs.sqlite"
    args = [str(script), "--trust", "--db", str(db), "--thread", "t"]
    code = main(["run", *args, "--input", '{"count": 0}'])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    assert json.loads(lines[0]) == {"count": 1}
    assert lines[1] == "drained (maintenance) before second"
    assert lines[2].startswith("continue with: superstep run") and lines[2].endswith("--continue")
    code = main(["run", *args, "--continue"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out.splitlines()[0]) == {"count": 11}
