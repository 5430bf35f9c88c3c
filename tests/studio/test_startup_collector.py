"""The garbage collector and the studio's start (issue 32.1): what start-up makes is frozen
(`gc.freeze`), so no collector pass walks it before the window is drawn, and goes back to the
collector once the window has painted (studio/startup.py)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

from bench.window_startup import DRAWN_HOOK
from studio import startup

ROOT = Path(__file__).resolve().parents[2]

CHILD = (
    "import gc, json\nimport studio.cli\n"
    + DRAWN_HOOK
    + """
counts = {}


def _later():
    counts["after"] = gc.get_freeze_count()
    print(json.dumps(counts), flush=True)
    os._exit(0)


def _report():
    counts["at_paint"] = gc.get_freeze_count()
    QTimer.singleShot(300, _later)


sys.exit(studio.cli.main(["studio", "router"]))
"""
)
"""The bench's child (bench/window_startup.py): the frozen objects when the window first paints,
and once that paint's follow-ups have run."""


def test_start_up_is_frozen_until_the_window_has_painted(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "SUPERSTEP_STUDIO_HOME": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    assert counts["at_paint"] > 100_000  # the models, the modules, the window
    assert counts["after"] == 0


def test_the_pause_restores_the_collector_and_freezes_what_it_made():
    was_on = gc.isenabled()
    try:
        gc.enable()
        with startup.collector_paused():
            assert not gc.isenabled()
            made = [[] for _ in range(1000)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= len(made)
        gc.disable()
        with startup.collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        startup.thaw()
        (gc.enable if was_on else gc.disable)()
    assert gc.get_freeze_count() == 0
