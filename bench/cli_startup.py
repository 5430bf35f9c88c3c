"""How long the quick commands take from a cold process: what a user waits for at the prompt.

    python -m bench.cli_startup [--repeat N] [--only NAME[,NAME...]]

Each row runs in a fresh `python` subprocess `--repeat` times (default 5) and keeps the median
wall time, interpreter start included, and beside it the median CPU time (user and system), which
other processes on the same cores stretch less: on a busy machine it says more. Targets (issues 19.3 and 32.1): `superstep templates`,
`superstep validate` and `superstep run router` under 0.5 s, `import engine.graph` under 0.3 s.
The floor, `python -c pass` timed the same way, is printed first, and each row's median as a
multiple of it. Exit status 1 when a median is above its target (or a command fails), 0
otherwise; the last line is `SUMMARY: PASS|FAIL`. The studio's window: bench/window_startup.py.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ROWS: dict[str, tuple[list[str], float]] = {
    "templates": (["-m", "studio.cli", "templates"], 0.5),
    "validate": (["-m", "studio.cli", "validate", "router"], 0.5),
    "validate-agent": (["-m", "studio.cli", "validate", "react_agent"], 0.5),
    "run-router": (["-m", "studio.cli", "run", "router"], 0.5),
    "import-engine-graph": (["-c", "import engine.graph"], 0.3),
}
"""name -> (python arguments, target seconds)."""
FLOOR = ["-c", "pass"]
"""The interpreter alone: what every row pays before its own work."""


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def time_row(argv: list[str], repeat: int) -> tuple[float, float, str | None]:
    """The median wall and CPU seconds of `python ARGV`, or the failure's last stderr line."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "", "QT_QPA_PLATFORM": "offscreen"}
    times, cpus = [], []
    for _ in range(repeat):
        cpu, start = _cpu(), time.perf_counter()
        done = subprocess.run(
            [sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True
        )
        times.append(time.perf_counter() - start)
        cpus.append(_cpu() - cpu)
        if done.returncode != 0:
            error = (done.stderr.strip().splitlines() or ["?"])[-1]
            return statistics.median(times), statistics.median(cpus), error
    return statistics.median(times), statistics.median(cpus), None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cli_startup", description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", help=f"comma-separated rows: {','.join(ROWS)}")
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else list(ROWS)
    failed = []
    floor, floor_cpu, _ = time_row(FLOOR, args.repeat)
    print(f"{'command':<22} {'median s':>9} {'cpu s':>7} {'x pass':>7} {'target s':>9}  result")
    print(f"{'python -c pass':<22} {floor:>9.3f} {floor_cpu:>7.3f} {1:>7.1f} {'':>9}  floor")
    for name in names:
        cmd, target = ROWS[name]
        median, cpu, error = time_row(cmd, args.repeat)
        ok = error is None and median <= target
        failed += [] if ok else [name]
        print(f"{name:<22} {median:>9.3f} {cpu:>7.3f} {median / floor:>7.1f} {target:>9.2f}  "
              f"{'ok' if ok else error or 'SLOW'}")  # fmt: skip
    print(f"SUMMARY: {'FAIL ' + ','.join(failed) if failed else 'PASS'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
