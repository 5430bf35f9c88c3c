"""Time the workloads on real langgraph and on our engine, in one process.

    python -m bench.run [--only NAME[,NAME...]] [--repeat N] [--backend langgraph|engine|both]

For every workload x saver mode x backend: compile the graph (untimed), invoke once to warm up
and check the result, then time `--repeat` invocations with time.perf_counter, or the process's
CPU time with `--clock cpu` (alternating the backends, each run on a freshly compiled graph and
saver) and keep the median. The figure printed is that median divided by the workload's units
of work (supersteps, or tasks for the fan-out), in microseconds. The ratio column is engine /
langgraph; the targets (issue 32.3) are ratio <= 0.15 without a saver and with the in-memory
one, <= 0.25 with SQLite, and for SQLite no more bytes per checkpoint than langgraph. The floor (a plain Python loop calling a node and
merging its update, what any engine pays per step) is timed first; `x floor` is the engine's
figure in floors. Exit status: 0 if every cell meets its target (or no ratio was measured
because only one backend was asked for), 1 otherwise.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import statistics
import sys
import time
from dataclasses import dataclass
from importlib import metadata

from bench.workloads import SAVER_MODES, WORKLOADS, Workload, dispose, sqlite_stats

TARGETS = {"none": 0.15, "memory": 0.15, "sqlite": 0.25}
FLOOR_STEPS = 10_000
BACKENDS = ("langgraph", "engine")


@dataclass
class Measurement:
    per_unit_us: float | None = None  # median time per unit, microseconds
    per_run_ms: float | None = None  # median time per invoke, milliseconds
    bytes_per_checkpoint: float | None = None  # SQLite file size / checkpoints (sqlite saver)
    error: str | None = None


def _error_text(exc: BaseException) -> str:
    msg = " ".join(str(exc).split())
    if len(msg) > 70:
        msg = msg[:67] + "..."
    return f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__


def _guard(fn):
    """Run fn(); return (value, None) or (None, error text). Never lets an Exception out."""
    try:
        return fn(), None
    except Exception as exc:  # noqa: BLE001 - report, never crash
        return None, _error_text(exc)


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
"""--clock: wall time (the default), or this process's CPU time (every thread's), which other
processes on the same cores stretch far less: for comparing on a shared machine (it leaves out
the time spent waiting, on fsync for SQLite)."""


def _timed_run(w: Workload, prefix: str, saver: str, clock=time.perf_counter) -> float:
    # A fresh graph + saver per run, so checkpoints do not pile up across repeats; compiling
    # is outside the timed region.
    graph = w.compile(prefix, w.size, saver)
    inp, cfg = w.make_input(w.size), w.config(w.size, saver)
    gc.collect()
    try:
        t0 = clock()
        graph.invoke(inp, cfg)
        return clock() - t0
    finally:
        dispose(graph)


def _checked_run(w: Workload, prefix: str, saver: str) -> float | None:
    """Run once and check the result; return the SQLite bytes per checkpoint, if any."""
    graph = w.compile(prefix, w.size, saver)
    try:
        w.check(graph.invoke(w.make_input(w.size), w.config(w.size, saver)), w.size)
        stats = sqlite_stats(graph)
        return stats[0] / stats[1] if stats and stats[1] else None
    finally:
        dispose(graph)


def measure(
    w: Workload,
    backends: tuple[str, ...],
    saver: str,
    repeat: int,
    warmup: int,
    clock=time.perf_counter,
) -> dict[str, Measurement]:
    """Time one (workload, saver) cell on every backend. Never raises: any failure (import,
    build, run, wrong result) becomes that backend's `error`.

    Warm-up runs double as the correctness check (a fast wrong answer does not count). The
    timed repeats alternate between backends so that machine drift hits both alike.
    """
    errors: dict[str, str] = {}
    times: dict[str, list[float]] = {p: [] for p in backends}
    sizes: dict[str, float | None] = {}
    for prefix in backends:
        for _ in range(max(warmup, 1)):
            size, err = _guard(lambda prefix=prefix: _checked_run(w, prefix, saver))
            if err:
                errors[prefix] = err
                break
            sizes[prefix] = size
    for _ in range(repeat):
        for prefix in backends:
            if prefix in errors:
                continue
            t, err = _guard(lambda prefix=prefix: _timed_run(w, prefix, saver, clock))
            if err:
                errors[prefix] = err
            else:
                times[prefix].append(t)
    out = {}
    for prefix in backends:
        if prefix in errors:
            out[prefix] = Measurement(error=errors[prefix])
        else:
            med = statistics.median(times[prefix])
            out[prefix] = Measurement(
                per_unit_us=med / w.units(w.size) * 1e6,
                per_run_ms=med * 1e3,
                bytes_per_checkpoint=sizes.get(prefix),
            )
    return out


def _floor_step(state: dict) -> dict:
    return {"count": state["count"] + 1}


def floor_us(repeat: int, clock=time.perf_counter) -> float:
    """Microseconds per step of the least a graph step can cost in Python: a loop calling a
    node function on the state and merging its update (median of `repeat` runs)."""
    times = []
    for _ in range(max(repeat, 1)):
        state, node = {"count": 0}, _floor_step
        gc.collect()
        t0 = clock()
        while state["count"] < FLOOR_STEPS:
            state = {**state, **node(state)}
        times.append(clock() - t0)
    return statistics.median(times) / FLOOR_STEPS * 1e6


def _fmt_us(m: Measurement | None) -> str:
    if m is None:
        return "-"
    if m.error is not None:
        return "error"
    return f"{m.per_unit_us:,.1f}"


def _fmt_bytes(m: Measurement | None) -> str:
    if m is None or m.bytes_per_checkpoint is None:
        return "-"
    return f"{m.bytes_per_checkpoint:,.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n")[0])
    ap.add_argument(
        "--only",
        metavar="NAME",
        help=f"comma-separated workloads to run (of: {', '.join(WORKLOADS)}); default all",
    )
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per cell (default 5)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed checked runs first (min 1)")
    ap.add_argument("--backend", choices=("langgraph", "engine", "both"), default="both")
    ap.add_argument(
        "--saver",
        choices=(*SAVER_MODES, "all", "both"),
        default="all",
        help="saver mode(s) to run: none, memory, sqlite, or all (default; 'both' is an alias)",
    )
    ap.add_argument(
        "--clock",
        choices=tuple(CLOCKS),
        default="wall",
        help="time with the wall clock (default) or this process's CPU time (a shared machine)",
    )
    args = ap.parse_args(argv)

    if args.repeat < 1:
        ap.error("--repeat must be >= 1")
    names = list(WORKLOADS) if not args.only else [n.strip() for n in args.only.split(",")]
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        ap.error(f"unknown workload(s) {', '.join(unknown)}; choose from {', '.join(WORKLOADS)}")
    backends = BACKENDS if args.backend == "both" else (args.backend,)
    savers = SAVER_MODES if args.saver in ("all", "both") else (args.saver,)

    print(
        f"python {sys.version.split()[0]}; repeat={args.repeat} (median), warmup={args.warmup}, "
        f"clock={args.clock}; "
        "figures are microseconds per superstep (per task for fan-out); targets engine/langgraph <= "
        + ", ".join(f"{saver} {target}" for saver, target in TARGETS.items())
        + "; SQLite bytes per checkpoint <= langgraph's"
    )
    for prefix in backends:
        try:
            importlib.import_module(f"{prefix}.graph")
            try:
                version = metadata.version(prefix)
            except metadata.PackageNotFoundError:
                version = "importable"
            print(f"  {prefix}: {version}")
        except Exception as exc:  # noqa: BLE001
            print(f"  {prefix}: cannot import {prefix}.graph ({_error_text(exc)})")
    floor = floor_us(args.repeat, CLOCKS[args.clock])
    print(f"  floor: {floor:.2f} us per step (a Python loop calling a node and merging its update)")
    print()

    header = (
        f"{'workload':<9} {'saver':<7} {'unit':<5} {'units':>6} "
        f"{'langgraph us':>13} {'engine us':>11} {'ratio':>7} {'x floor':>8} "
        f"{'lg ms/run':>10} {'eng ms/run':>10} {'lg B/ckpt':>10} {'eng B/ckpt':>10}  note"
    )
    print(header)
    print("-" * len(header))

    errors: list[str] = []
    ratios: list[tuple[str, float]] = []
    for name in names:
        w = WORKLOADS[name]
        for saver in savers:
            res = measure(w, backends, saver, args.repeat, args.warmup, CLOCKS[args.clock])
            lg, en = res.get("langgraph"), res.get("engine")
            ratio_txt, notes = "-", []
            for prefix, m in res.items():
                if m.error is not None:
                    notes.append(f"{prefix} error: {m.error}")
                    errors.append(f"{name}/{saver}/{prefix}")
            if lg and en and lg.error is None and en.error is None:
                ratio = en.per_unit_us / lg.per_unit_us
                target = TARGETS[saver]
                ratio_txt = f"{ratio:.3f}"
                bytes_over = (
                    en.bytes_per_checkpoint is not None
                    and lg.bytes_per_checkpoint is not None
                    and en.bytes_per_checkpoint > lg.bytes_per_checkpoint
                )
                ratios.append((f"{name}/{saver}", ratio, target, bytes_over))
                notes.append(
                    "ok"
                    if ratio <= target and not bytes_over
                    else f"over target {target}"
                    if ratio > target
                    else "more bytes per checkpoint than langgraph"
                )
            lg_ms = f"{lg.per_run_ms:,.2f}" if lg and lg.error is None else "-"
            en_ms = f"{en.per_run_ms:,.2f}" if en and en.error is None else "-"
            floors = f"{en.per_unit_us / floor:,.1f}" if en and en.error is None else "-"
            print(
                f"{name:<9} {saver:<7} {w.unit:<5} {w.units(w.size):>6} "
                f"{_fmt_us(lg):>13} {_fmt_us(en):>11} {ratio_txt:>7} {floors:>8} "
                f"{lg_ms:>10} {en_ms:>10} {_fmt_bytes(lg):>10} {_fmt_bytes(en):>10}  "
                + "; ".join(notes),
                flush=True,
            )
    print()

    if len(backends) < 2:
        status = "errors" if errors else "ok"
        print(
            f"SUMMARY: backend {backends[0]} only, no ratios to compare ({status}"
            + (f": {', '.join(errors)})" if errors else ")")
        )
        return 1 if errors else 0
    missed = [
        f"{k}={r:.3f}" + (" (bytes)" if over else "")
        for k, r, target, over in ratios
        if r > target or over
    ]
    if not errors and not missed:
        worst = max(ratios, key=lambda kr: kr[1] / kr[2])
        print(
            f"SUMMARY: PASS - all {len(ratios)} cells meet their targets "
            f"(closest {worst[0]}={worst[1]:.3f} of {worst[2]})"
        )
        return 0
    cells = len(ratios) + len({e.rsplit("/", 1)[0] for e in errors} - {k for k, *_ in ratios})
    parts = []
    if missed:
        parts.append(f"over target: {', '.join(missed)}")
    if errors:
        parts.append(f"errored: {', '.join(errors)}")
    print(
        f"SUMMARY: FAIL - {len(ratios) - len(missed)} of {cells} cells meet their targets; "
        + "; ".join(parts)
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
