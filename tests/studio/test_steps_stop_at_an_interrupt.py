"""`superstep studio PROGRAM.py --steps N --quit` stops stepping where the Step button does: at
an interrupt waiting for its answer. Stepping on started the input again on the same thread,
dropping the question, so the picture and the saved thread showed a fresh run instead of the
program waiting for its answer (tests/programs/gh_hil_func.py: an @entrypoint whose middle task
interrupts). The question waits once, as on langgraph: the studio runs the entrypoint itself,
not a graph around it, which langgraph's runner shows the task's and the caller's interrupt."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.checkpoint.sqlite import SqliteSaver

pytestmark = pytest.mark.gui

PROGRAM = Path(__file__).parents[1] / "programs" / "gh_hil_func.py"


def test_stepping_a_program_stops_at_its_interrupt(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "studio.cli", "studio", str(PROGRAM), "--trust", "--steps", "5",
         "--input", '"foo"', "--quit"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "SUPERSTEP_STUDIO_HOME": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    with SqliteSaver.from_conn_string(str(tmp_path / "runs" / "gh_hil_func.graph.checkpoints.sqlite")) as saver:  # fmt: skip
        saved = list(saver.list({"configurable": {"thread_id": "run-1"}}))
    assert [c.metadata["source"] for c in saved].count("input") == 1  # not started again
    asked = [write[2] for write in saved[0].pending_writes if write[1] == "__interrupt__"]
    assert [i.value for i in asked[-1]] == ["Please provide feedback: foo bar"]  # still waiting
