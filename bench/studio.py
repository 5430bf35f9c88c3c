"""Studio run benchmark (issue 13.3): the studio's run path against a headless `superstep run`.

    python -m bench.studio [--steps 3000] [--history 10000] [--files DIR]

1. A loop of `--steps` supersteps (the counter_loop template) runs headless, as `superstep run
   --db` does (`graphspec.commands.run_spec` on a SqliteSaver), then in the studio: a main
   window offscreen, the spec opened from disk, the Run button clicked, timed until the run has
   finished and its panels are filled. Same saver (SQLite beside the spec), same durability
   (async). Target: studio/headless <= 1.5.
2. While the studio runs, a 5 ms QTimer probe records the longest gap between its ticks: the
   longest the event loop stalled. Target: <= 100 ms. Both loop figures are the median of
   `--repeat` runs (default 3), headless and studio alternating: a shared machine is noisy.
3. A thread of `--history` checkpoints (written once, headless; `--files` keeps the file): the
   spec is opened (timed until the thread list shows the thread), then the thread is clicked in
   the thread list (timed until its history shows). Target: open + show < 1 s.

Prints each figure and its target; exit status 1 when a target is missed. Runs offscreen when
there is no display.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import studio  # noqa: F401,E402  (spec models before Qt)
from graphspec.templates import TEMPLATES_DIR  # noqa: E402

RATIO_TARGET = 1.5
STALL_TARGET_MS = 100.0
HISTORY_TARGET_S = 1.0


def loop_spec(steps: int) -> dict:
    """counter_loop counting to `steps`, with room in the recursion limit."""
    data = json.loads((TEMPLATES_DIR / "counter_loop.json").read_text(encoding="utf-8"))
    data["name"] = f"loop {steps}"
    data["recursion_limit"] = steps + 10
    data["inputs"] = [{"name": "bench", "value": {"count": 0, "limit": steps}}]
    return data


def write_spec(folder: Path, name: str, steps: int) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps(loop_spec(steps), indent=2), encoding="utf-8")
    return path


def headless(path: Path, db: Path, steps: int, thread: str = "main") -> float:
    """Seconds for `superstep run SPEC --db DB` without the process start-up."""
    from graphspec.commands import load, open_checkpointer, run_spec

    spec, _ = load(str(path))
    start = time.perf_counter()
    with open_checkpointer(str(db)) as saver:
        state = run_spec(spec, path, {"count": 0, "limit": steps}, thread=thread, saver=saver, trusted=False,
                         modes=[], resuming=False, out=io.StringIO())  # fmt: skip
    elapsed = time.perf_counter() - start
    assert state.values["count"] == steps, state.values
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--history", type=int, default=10000)
    parser.add_argument("--files", help="keep the long thread's files here and reuse them")
    parser.add_argument(
        "--repeat", type=int, default=3, help="loop runs of each kind; medians are compared"
    )
    args = parser.parse_args(argv)

    from studio.app import application
    from studio.run.probe import studio_history, studio_run

    app = application()
    work = Path(tempfile.mkdtemp(prefix="bench-studio-"))
    os.environ["SUPERSTEP_STUDIO_HOME"] = str(work / "home")  # recent files, layout: not the user's
    failures: list[str] = []
    try:
        loop = write_spec(work, "loop", args.steps)
        heads, runs = [], []
        for i in range(args.repeat):  # alternating, each on a new database file
            heads.append(headless(loop, work / f"headless-{i}.sqlite", args.steps))
            runs.append(studio_run(app, loop, args.steps))
            loop.with_name(loop.stem + ".checkpoints.sqlite").unlink()
        head = statistics.median(heads)
        took = statistics.median(t for t, _ in runs)
        stall = statistics.median(s for _, s in runs)
        ratio = took / head
        print(
            f"loop of {args.steps} supersteps (SQLite, durability async), median of {args.repeat}"
        )
        print(
            "  runs (headless s, studio s, stall ms): "
            + "; ".join(f"{h:.2f}, {t:.2f}, {s:.0f}" for h, (t, s) in zip(heads, runs, strict=True))
        )
        print(f"  headless superstep run   {head:8.3f} s  ({args.steps / head:6.0f} supersteps/s)")
        print(f"  studio Run               {took:8.3f} s  ({args.steps / took:6.0f} supersteps/s)")
        print(f"  studio/headless          {ratio:8.2f}    target <= {RATIO_TARGET}")
        print(f"  longest GUI stall        {stall:8.1f} ms target <= {STALL_TARGET_MS:.0f}")
        if ratio > RATIO_TARGET:
            failures.append(f"studio/headless {ratio:.2f}")
        if stall > STALL_TARGET_MS:
            failures.append(f"stall {stall:.0f} ms")

        files = Path(args.files) if args.files else work
        files.mkdir(parents=True, exist_ok=True)
        long_spec = write_spec(files, f"history{args.history}", args.history)
        db = long_spec.with_name(long_spec.stem + ".checkpoints.sqlite")
        if not db.exists():
            headless(long_spec, db, args.history, thread="long")
        listed, shown, stall = studio_history(app, long_spec, "long", args.history)
        total = listed + shown
        print(f"thread of {args.history + 2} checkpoints")
        print(f"  open, thread listed      {listed:8.3f} s")
        print(f"  click, history shown     {shown:8.3f} s")
        print(f"  open + show              {total:8.3f} s  target < {HISTORY_TARGET_S}")
        print(f"  longest GUI stall        {stall:8.1f} ms target <= {STALL_TARGET_MS:.0f}")
        if total >= HISTORY_TARGET_S:
            failures.append(f"history {total:.2f} s")
        if stall > STALL_TARGET_MS:
            failures.append(f"history stall {stall:.0f} ms")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("SUMMARY: " + ("FAIL " + ", ".join(failures) if failures else "PASS"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
