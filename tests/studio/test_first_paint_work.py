"""What `superstep studio` does before its window first paints (issue 32.1): only what that
paint shows. Each test starts the studio offscreen in a fresh process, through
`studio.cli.main` as a user does (the bench's child, bench/window_startup.py), and reads the
state at the first paint and once that paint's follow-ups have run."""

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

LAZY_PANELS = ("chatPanel", "breakpointsPanel", "deepAgentPanel", "compiledView", "lectureDock")
"""Panels of docks tabbed behind others (and lecture mode's) at start: made after the first paint."""

CHILD = (
    "import gc, json\nimport graphspec.templates\nimport studio.cli\n"
    + f"LAZY_PANELS = {LAZY_PANELS!r}\n"
    + DRAWN_HOOK
    + """
seen = {"templates_listed": 0}
WINDOW = []
listing = graphspec.templates.list_templates


def _listed(*args, **kwargs):
    seen["templates_listed"] += 1
    return listing(*args, **kwargs)


graphspec.templates.list_templates = _listed  # before the start page's module takes the name

import studio.run.runner as runner

opening = runner.RunSession._open


def _opened(self, *args):  # on the session's thread
    seen["db_opened_before_paint"] = "panels_at_paint" not in seen
    return opening(self, *args)


runner.RunSession._open = _opened


def _later():
    seen["frozen_after"] = gc.get_freeze_count()
    replay = vars(WINDOW[0]).get("replay_dock")  # made by then, unasked
    seen["recording_after"] = replay is not None and replay.recorder in replay.window.runner.session.callbacks
    print(json.dumps(seen), flush=True)
    os._exit(0)


def _report():
    seen["frozen_at_paint"] = gc.get_freeze_count()
    window = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "mainWindow")
    WINDOW.append(window)
    seen["tests_dock_at_paint"] = "replay_dock" in vars(window)
    seen["panels_at_paint"] = sorted(name for name in LAZY_PANELS if window.findChild(QObject, name))
    seen["templates_listed_at_paint"] = seen["templates_listed"]
    QTimer.singleShot(300, _later)


sys.exit(studio.cli.main(["studio", *sys.argv[1:]]))
"""
)


def child(code: str, home: Path, *args: str) -> dict:
    """The JSON `python -c CODE ARGS` prints last, offscreen, in the studio's home `home`."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "SUPERSTEP_STUDIO_HOME": str(home),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def at_first_paint(tmp_path: Path, *args: str) -> dict:
    return child(CHILD, tmp_path, *args)


def test_start_up_is_frozen_until_the_window_has_painted(tmp_path):
    """What start-up makes is frozen (`gc.freeze`), so no collector pass walks it before the
    window is drawn, and goes back to the collector once the window has painted."""
    seen = at_first_paint(tmp_path, "router")
    assert seen["frozen_at_paint"] > 20_000  # the models, the modules, the window
    assert seen["frozen_after"] == 0


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


def test_a_studio_opened_on_a_graph_reads_no_template_before_its_first_paint(tmp_path):
    """The start page's gallery (every template read, and its cached thumbnail) is filled when
    the page first shows: behind the graph, not before the graph's first paint."""
    assert at_first_paint(tmp_path, "router")["templates_listed_at_paint"] == 0
    assert at_first_paint(tmp_path / "bare")["templates_listed_at_paint"] == 1  # it shows


OVERLAP_CHILD = """
import json, sys, time
import studio.cli
from studio import qt_check

checked = qt_check.problem
seen = {}


def slow_check(**options):
    # the check waits (as ldd does) until the window's modules have loaded, 10 s at most
    end = time.monotonic() + 10
    while time.monotonic() < end:
        if getattr(sys.modules.get("studio.main_window"), "MainWindow", None) is not None:
            seen["loaded_during_check"] = True
            break
        time.sleep(0.01)
    return checked(**options)


qt_check.problem = slow_check
code = studio.cli.main(["studio", "router", "--screenshot", sys.argv[1], "--quit"])
print(json.dumps({"code": code, **seen}))
"""


def test_the_windows_modules_load_while_the_qt_check_runs(tmp_path):
    """`superstep studio` asks whether Qt's platform plugin can load (ldd, 0.05-0.1 s) on a
    thread; the window's modules load meanwhile instead of after it."""
    assert child(OVERLAP_CHILD, tmp_path, str(tmp_path / "shot.png")) == {
        "code": 0,
        "loaded_during_check": True,
    }


def test_the_panels_behind_others_are_made_after_the_first_paint(tmp_path):
    assert at_first_paint(tmp_path, "router")["panels_at_paint"] == []


def test_an_agent_spec_records_its_runs_from_the_turn_after_the_first_paint(tmp_path):
    """The Tests dock and its recorder are made right after the first paint (issue 32.1), in
    time for any run: an agent template's runs are recorded, as before."""
    seen = at_first_paint(tmp_path, "react_agent")
    assert seen["tests_dock_at_paint"] is False
    assert seen["recording_after"] is True


def test_the_checkpoint_database_opens_after_the_first_paint(tmp_path):
    """Opening the document's checkpoint database and listing its threads (the run session's
    thread) wait for the first paint: with the GIL they would take their time from it."""
    assert at_first_paint(tmp_path, "router")["db_opened_before_paint"] is False


SOURCE_READS_CHILD = """
import json, sys
from studio.startup import spare_pyside_source_reads

spare_pyside_source_reads()  # what `superstep studio` does before the window's modules load
feature = sys.modules["PySide6.support.feature"]
scanned = []
reading = feature._mod_uses_pyside
feature._mod_uses_pyside = lambda module: scanned.append(module.__name__) or reading(module)
import studio.main_window  # noqa: E402
import asyncio  # noqa: E402
known = feature.pyside_feature_dict
print(json.dumps({
    "ours_read": sorted(n for n in scanned if n.split(".")[0] in ("studio", "engine", "graphspec")),
    "main_window": known.get("studio.main_window"), "graphspec": known.get("graphspec.model"),
    "asyncio": known.get("asyncio"),
}))
"""


def test_pyside_reads_no_source_of_the_studios_engines_or_pythons_own_modules(tmp_path):
    """PySide reads each module's source after importing it, to learn whether it uses PySide
    (about 40 ms of the start); for ours and the standard library the answer is given first:
    0 for the studio's modules, -1 ("ignore") for those that never import Qt."""
    seen = child(SOURCE_READS_CHILD, tmp_path)
    assert seen == {"ours_read": [], "main_window": 0, "graphspec": -1, "asyncio": -1}
