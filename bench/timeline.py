"""Timeline benchmark (issue 30.2): the Superstep timeline of a long run, in the studio.

    python -m bench.timeline [--steps 10000] [--scrubs 50]

A loop of `--steps` supersteps (the counter_loop template) runs in a main window offscreen, the
Run button clicked, with the timeline dock behind its tab. Then, timed:

1. open: the timeline dock brought to the front and painted. Target: < 1 s.
2. build: a new Timeline read from all the run's trace events at once (what the dock spreads
   over the run's batches), for scale.
3. scrub: `--scrubs` scrubs to random steps (the slider moved, the canvas's path and edge data
   redrawn, the view repainted); median and worst. Target: worst < 100 ms.
4. channels: one scrub until the Channels dock shows that step's checkpoint (read from SQLite
   on the run's worker, after the scrub settles).
5. zoomed: a paint zoomed in to single bars, and a paint of the whole run fitted.

Prints each figure and its target; exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import studio  # noqa: F401,E402  (spec models before Qt)
from bench.studio import write_spec  # noqa: E402

OPEN_TARGET_S = 1.0
SCRUB_TARGET_MS = 100.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=10000)
    parser.add_argument("--scrubs", type=int, default=50)
    args = parser.parse_args(argv)

    from studio.app import application
    from studio.timeline.model import Timeline
    from studio.timeline.probe import channels_after, long_run, open_timeline, paints, scrub, timed

    app = application()
    work = Path(tempfile.mkdtemp(prefix="bench-timeline-"))
    os.environ["SUPERSTEP_STUDIO_HOME"] = str(work / "home")
    failures: list[str] = []
    try:
        path = write_spec(work, "loop", args.steps)
        win, events, ran = long_run(app, path, {"count": 0, "limit": args.steps})
        steps = len(win.timeline_dock.timeline)
        assert steps == args.steps + 1, steps
        opened = open_timeline(app, win)
        built = timed(lambda: Timeline().add_events(events))
        picks = random.Random(7).sample(range(steps), min(args.scrubs, steps))
        scrubs = [scrub(win, i) * 1000 for i in picks]
        channels = channels_after(app, win, steps // 2, "count")
        fitted, zoomed = paints(win, steps // 2)

        print(f"timeline of a {args.steps}-superstep run (counter_loop, SQLite, durability async)")
        print(f"  studio Run, to finished  {ran:8.3f} s")
        print(f"  open (dock shown, drawn) {opened:8.3f} s  target < {OPEN_TARGET_S}")
        print(f"  build from {len(events)} events {built:8.3f} s  (spread over the run's batches)")
        print(f"  scrub median             {statistics.median(scrubs):8.1f} ms")
        print(f"  scrub worst              {max(scrubs):8.1f} ms target < {SCRUB_TARGET_MS:.0f}")
        print(f"  scrub to channels shown  {channels:8.3f} s  (read after the scrub settles)")
        print(f"  paint, whole run fitted  {fitted * 1000:8.1f} ms")
        print(f"  paint, zoomed to bars    {zoomed * 1000:8.1f} ms")
        if opened >= OPEN_TARGET_S:
            failures.append(f"open {opened:.2f} s")
        if max(scrubs) >= SCRUB_TARGET_MS:
            failures.append(f"scrub {max(scrubs):.0f} ms")
        win.runner.close()
        win.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("SUMMARY: " + ("FAIL " + ", ".join(failures) if failures else "PASS"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
