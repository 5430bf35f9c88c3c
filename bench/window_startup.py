"""How long the studio takes to a drawn window, against a bare PySide6 window (issue 32.1).

    python -m bench.window_startup [--repeat N] [--spec NAME]

Each run is a whole `python` process, offscreen, in a fresh studio home (no recent files, no
saved layout), timed from its start until its first top-level window has painted: when events
start to be processed, the child puts an event filter on the top-level windows there are (on
the QApplication if none), and the first Paint event of a window schedules a zero-delay timer
(so the whole paint pass is done) that writes `drawn` and ends the process.

- `bare`: a QApplication and one QLabel, shown: the floor this machine puts under any window.
- `studio`: `superstep studio SPEC` (default `router`), through `studio.cli.main` as the
  console script calls it; the child only makes the QApplication first, to install the filter.

The two alternate, `--repeat` times each (default 5), and the medians are printed with their
ratio; beside the wall time, the CPU time (user and system, the child's and its own children's),
which other processes on the same cores stretch less: on a busy machine its ratio says more.
Targets (on the wall time): the studio's median at most 1.0 s and at most 5x the bare window's
in the same run. Exit status 1 when one is missed (or a child fails); the last line is
`SUMMARY: PASS|FAIL`.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 1.0
TARGET_RATIO = 5.0

DRAWN_HOOK = """
import os, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QLabel


def _report():
    sys.stdout.write("drawn\\n")
    sys.stdout.flush()
    os._exit(0)


class _Drawn(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and obj.isWidgetType() and obj.isWindow():
            obj.removeEventFilter(self)
            QApplication.instance().removeEventFilter(self)
            QTimer.singleShot(0, _report)
        return False


class _Arm(QObject):
    def event(self, event):
        if event.type() != QEvent.Type.User:
            return super().event(event)
        for window in QApplication.topLevelWidgets() or [QApplication.instance()]:
            window.installEventFilter(_filter)
        return True


app = QApplication(sys.argv[:1])
_filter, _arm = _Drawn(), _Arm()
# The filter watches the windows there are when events start to be processed (the first posted
# event, at the highest priority; a paint needs the event loop), not the whole application from
# now on: a Python filter on the application makes PySide wrap every internal object the
# window's construction and first paint send events to (Qt types and their enums), a cost no
# user's studio pays. (No window yet: the application's events are watched.)
app.postEvent(_arm, QEvent(QEvent.Type.User), 1)  # Qt.HighEventPriority (`Qt` costs 8 ms)
"""
"""Shared by both children (and tests/studio/test_start_imports.py): the QApplication, and the
filter that calls `_report()` once the first paint is over (a child may define its own)."""

BARE = (
    DRAWN_HOOK
    + """
label = QLabel("Superstep Studio")
label.show()
app.exec()
"""
)

STUDIO = (
    "import studio.cli\n"
    + DRAWN_HOOK
    + """
sys.exit(studio.cli.main(["studio", sys.argv[1]]))
"""
)
"""`import studio.cli` first, as the console script does (the spec models load before Qt)."""


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def time_child(code: str, args: list[str], home: Path) -> tuple[float, float, str | None]:
    """Wall seconds from starting `python -c CODE ARGS` to its `drawn` line, the CPU seconds
    it used (its own and its children's, user and system), or the error."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "SUPERSTEP_STUDIO_HOME": str(home),
           "PYTHONDONTWRITEBYTECODE": ""}  # fmt: skip
    cpu, start = _cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    took, cpu = time.perf_counter() - start, _cpu() - cpu
    if done.returncode != 0 or done.stdout.strip() != "drawn":
        lines = (done.stderr or done.stdout).strip().splitlines() or [f"exit {done.returncode}"]
        return took, cpu, lines[-1]
    return took, cpu, None


def measure(repeat: int, spec: str) -> dict[str, list[tuple[float, float]]]:
    """(wall, CPU) of both children, alternating, `repeat` times each (one untimed run of each
    first, so the bytecode caches and the disk cache are warm for both)."""
    times: dict[str, list[tuple[float, float]]] = {"bare": [], "studio": []}
    children = {"bare": (BARE, []), "studio": (STUDIO, [spec])}
    with tempfile.TemporaryDirectory(prefix="superstep-bench-") as tmp:
        for run in range(repeat + 1):
            for name, (code, args) in children.items():
                took, cpu, error = time_child(code, args, Path(tmp) / f"{name}-{run}")
                if error is not None:
                    raise RuntimeError(f"{name}: {error}")
                if run:
                    times[name].append((took, cpu))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.window_startup", description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--spec", default="router", help="what the studio opens (default router)")
    args = parser.parse_args(argv)
    try:
        times = measure(max(1, args.repeat), args.spec)
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        print(f"error: {exc}")
        print("SUMMARY: FAIL error")
        return 1
    wall = {name: statistics.median(t for t, _ in runs) for name, runs in times.items()}
    cpu = {name: statistics.median(c for _, c in runs) for name, runs in times.items()}
    studio, ratio = wall["studio"], wall["studio"] / wall["bare"]
    print(f"{'window':<10} {'median s':>9} {'cpu s':>7}  runs s")
    for name in ("bare", "studio"):
        runs = " ".join(f"{t:.2f}" for t, _ in times[name])
        print(f"{name:<10} {wall[name]:>9.3f} {cpu[name]:>7.3f}  {runs}")
    print(f"studio / bare: {ratio:.1f}x (target <= {TARGET_RATIO:g}x; "
          f"{cpu['studio'] / cpu['bare']:.1f}x in CPU); studio {studio:.3f} s "
          f"(target <= {TARGET_S:g} s)")  # fmt: skip
    failed = [what for what, ok in (("time", studio <= TARGET_S), ("ratio", ratio <= TARGET_RATIO))
              if not ok]  # fmt: skip
    print(f"SUMMARY: {'FAIL ' + ','.join(failed) if failed else 'PASS'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
