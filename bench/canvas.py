"""Canvas benchmark: a generated spec with 1,000 nodes and 1,500 edges in the studio.

    python -m bench.canvas [--nodes 1000] [--edges 1500]

Prints open+draw time, pan and zoom frame times (a synchronous repaint of the canvas) with the
whole graph visible (fit view: the cached overview picture), just above the overview zoom (45%)
and at 100%, a node drag and a selection change at 100%, the automatic layout (computing
positions, then applying them as one edit), live validation, and the process's peak memory. Targets from issue 6: open+draw < 2 s, a frame < 16 ms, layout < 3 s,
memory < 500 MB. A benchmark to read, not a timed test. Runs offscreen when there is no display.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import studio  # noqa: F401,E402  (spec models before Qt)
from graphspec.model import GraphSpec  # noqa: E402


def generated_spec(nodes: int, edges: int, seed: int = 7) -> GraphSpec:
    """A connected DAG: every node after the first has one parent, the rest of the edges join
    random earlier nodes to later ones; nodes sit on a grid as a drawn graph would."""
    rng = random.Random(seed)
    ids = [f"n{i}" for i in range(nodes)]
    pairs: set[tuple[int, int]] = set()
    for i in range(1, nodes):
        pairs.add((rng.randrange(max(0, i - 30), i), i))
    while len(pairs) < edges:
        a = rng.randrange(nodes - 1)
        pairs.add((a, rng.randrange(a + 1, min(nodes, a + 60))))
    return GraphSpec.model_validate({
        "name": f"generated {nodes} nodes",
        "state": [{"name": "total", "type": "int"}],
        "nodes": [{"id": n, "kind": "set_state", "values": {"total": "total + 1"},
                   "position": {"x": (i % 40) * 240.0, "y": (i // 40) * 140.0}} for i, n in enumerate(ids)],
        "edges": [{"id": f"e{k}", "sources": [ids[a]], "target": ids[b]} for k, (a, b) in enumerate(sorted(pairs))],
        "entry": [ids[0]],
        "finish": [ids[-1]],
    })  # fmt: skip


def frame_ms(view, change, frames: int = 30) -> tuple[float, float]:
    """Median and worst time of `change()` followed by a synchronous repaint."""
    times = []
    for i in range(frames):
        start = time.perf_counter()
        change(i)
        view.viewport().repaint()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def settle(view) -> None:
    """What the view does when a zoom gesture settles (a timer), then the frame it repaints."""
    if hasattr(view, "_zoom_settle"):
        view._zoom_settle.stop()
        view._zoom_settled()
    view.viewport().repaint()


def peak_rss_mb() -> float:
    try:
        import resource

        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return rss / 1024 / (1024 if sys.platform == "darwin" else 1)
    except ImportError:  # Windows
        return float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--edges", type=int, default=1500)
    args = parser.parse_args(argv)

    from studio.app import application
    from studio.canvas.items.node_item import card_size
    from studio.canvas.layout import layered_positions
    from studio.canvas.looks import node_look
    from studio.canvas.overview import OVERVIEW_ZOOM
    from studio.main_window import MainWindow

    app = application()
    spec = generated_spec(args.nodes, args.edges)
    window = MainWindow()
    window.resize(1440, 900)
    window.show()
    app.processEvents()
    rows = []

    start = time.perf_counter()
    window._start_editing(spec, None, trusted=True)
    window.view.viewport().repaint()
    rows.append(("open + draw (fit to window)", (time.perf_counter() - start) * 1000, "ms", 2000))
    drawn = (len(window.scene.nodes), len(window.scene.edges))

    view = window.view
    bar = view.horizontalScrollBar()
    view.fit()  # the whole graph visible: far below the overview zoom, one cached picture a frame
    view.viewport().repaint()
    rows.append(
        (f"fit view zoom (overview below {OVERVIEW_ZOOM:.0%})", view.zoom() * 100, "%", None)
    )
    med, worst = frame_ms(view, lambda i: bar.setValue(bar.value() + (40 if i % 2 else -40)))
    rows.append(("pan frame, whole graph visible (median)", med, "ms", 16))
    rows.append(("pan frame, whole graph visible (worst)", worst, "ms", None))
    med, worst = frame_ms(view, lambda i: view.zoom_by(1.05 if i < 15 else 1 / 1.05))
    rows.append(("zoom frame, whole graph visible (median)", med, "ms", 16))
    rows.append(("zoom frame, whole graph visible (worst)", worst, "ms", None))
    start = time.perf_counter()
    view.overview._settled()  # the zoom settled: the picture is rendered again at the new scale
    view.viewport().repaint()
    rows.append(
        (
            "overview re-render after a zoom settles",
            (time.perf_counter() - start) * 1000,
            "ms",
            None,
        )
    )
    pan = lambda i: bar.setValue(bar.value() + (40 if i % 2 else -40))  # noqa: E731
    zoom = lambda i: view.zoom_by(1.05 if i % 2 else 1 / 1.05)  # noqa: E731  (stays near the zoom)
    for label, level in (("45% zoom", 0.45), ("100% zoom", 1.0)):
        # 45% is just above the overview: the items (and the edge layer) paint themselves
        view.zoom_by(level / view.zoom())
        view.centerOn(window.scene.nodes["n500"])
        settle(view)  # the zoom that got here is over: cards sharp at this scale
        med, worst = frame_ms(view, pan)
        rows.append((f"pan frame at {label} (median)", med, "ms", 16))
        rows.append((f"pan frame at {label} (worst)", worst, "ms", None))
        med, worst = frame_ms(view, zoom)
        rows.append((f"zoom frame at {label} (median)", med, "ms", 16))
        rows.append((f"zoom frame at {label} (worst)", worst, "ms", None))
        start = time.perf_counter()
        settle(view)
        rows.append(
            (
                f"sharp repaint after a zoom settles at {label}",
                (time.perf_counter() - start) * 1000,
                "ms",
                None,
            )
        )
    # an edit near the middle: a node dragged at 100% (its edges re-routed, the edge layer rebuilt)
    node = window.scene.nodes["n500"]
    med, worst = frame_ms(view, lambda i: node.moveBy(20 if i % 2 else -20, 0))
    rows.append(("drag frame at 100% zoom (median)", med, "ms", 16))
    rows.append(("drag frame at 100% zoom (worst)", worst, "ms", None))
    med, worst = frame_ms(view, lambda i: window.scene.select_ids([f"n{500 + i % 3}"]))
    rows.append(("selection change at 100% zoom (median)", med, "ms", 16))
    rows.append(("selection change at 100% zoom (worst)", worst, "ms", None))
    window.scene.clearSelection()

    start = time.perf_counter()
    heights = {n.id: card_size(node_look(spec, n))[1] for n in spec.nodes}
    positions = layered_positions(spec, heights)
    computed = (time.perf_counter() - start) * 1000
    rows.append(("auto-layout: compute positions (worker thread)", computed, "ms", None))
    start = time.perf_counter()
    window.editor.move(positions)
    window.view.viewport().repaint()
    rows.append(
        (
            "auto-layout: apply as one edit + redraw",
            (time.perf_counter() - start) * 1000,
            "ms",
            None,
        )
    )
    rows.append(("auto-layout total", computed + rows[-1][1], "ms", 3000))

    start = time.perf_counter()
    window.editor.stack.undo()
    rows.append(("undo the layout", (time.perf_counter() - start) * 1000, "ms", None))

    start = time.perf_counter()
    window.validator.schedule()
    window.validator.run_now()
    while window.validator.busy:
        app.processEvents()
        time.sleep(0.005)
    rows.append(
        ("live validation (worker thread)", (time.perf_counter() - start) * 1000, "ms", None)
    )
    rows.append(("peak memory (process RSS)", peak_rss_mb(), "MB", 500))

    print(f"canvas benchmark: {len(spec.nodes)} nodes, {len(spec.edges)} edges "
          f"({drawn[0]} node items, {drawn[1]} edge items), platform {app.platformName()}")  # fmt: skip
    for name, value, unit, target in rows:
        verdict = (
            ""
            if target is None
            else ("  ok" if value < target else f"  OVER target {target} {unit}")
        )
        print(f"  {name:<48} {value:9.1f} {unit:<2}{verdict}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
