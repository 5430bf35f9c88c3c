"""Count the instructions one unit of work costs on real langgraph and on our engine.

    python -m bench.instructions [--only NAME[,NAME...]] [--saver none|memory|sqlite|all]

bench.run's figures are times: they move with the machine (another CPU gives our engine's and
langgraph's code different speeds) and with whatever else runs on it. This counts what the CPU
executes instead, with valgrind's callgrind (Linux; `apt install valgrind`), which is the same
on any machine of an architecture and under any load, so a change's effect shows to the percent.

For every workload x saver mode x backend, a child process compiles the graph at the workload's
size after a small warm-up run (imports, first-call caches) and either stops there or invokes it
once (after one such child run uncounted, which brings the bytecode caches up to date); the instructions of the invoke are the difference between the two counts, divided by the
workload's units (supersteps, or tasks for the fan-out). A cell takes about a minute (langgraph
under callgrind is slow). The ratio column is engine / langgraph, beside bench.run's targets.
Exit status: 0 if every cell meets its target, 1 otherwise, 2 without valgrind.
"""

from __future__ import annotations

import argparse
import gc
import re
import shutil
import subprocess
import sys

from bench.run import BACKENDS, TARGETS
from bench.workloads import SAVER_MODES, WORKLOADS, dispose

WARMUP_SIZE = 5
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def child(name: str, saver: str, prefix: str, invoke: bool) -> None:
    """What callgrind counts: a warm-up run, the measured graph compiled, and maybe its invoke."""
    w = WORKLOADS[name]
    warm = w.compile(prefix, WARMUP_SIZE, saver)
    warm.invoke(w.make_input(WARMUP_SIZE), w.config(WARMUP_SIZE, saver))
    dispose(warm)
    graph = w.compile(prefix, w.size, saver)
    inp, cfg = w.make_input(w.size), w.config(w.size, saver)
    gc.collect()
    if invoke:
        w.check(graph.invoke(inp, cfg), w.size)
    dispose(graph)


def _child_command(name: str, saver: str, prefix: str, invoke: bool) -> list[str]:
    return [sys.executable, "-m", "bench.instructions", "--child", name, saver, prefix,
            "invoke" if invoke else "compile"]  # fmt: skip


def counted(name: str, saver: str, prefix: str, invoke: bool) -> int:
    """The instructions callgrind counts in a child process (the interpreter's start included:
    it cancels out in the difference)."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               *_child_command(name, saver, prefix, invoke)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"{prefix} {name}/{saver} failed: {tail[0]}")
    return int(found.group(1))


def per_unit(name: str, saver: str, prefix: str) -> float:
    w = WORKLOADS[name]
    # once uncounted first: a counted child that compiled a changed module's source and wrote
    # its bytecode would be charged for it, and the next one not (a cell read 311k for 199k)
    subprocess.run(_child_command(name, saver, prefix, True), capture_output=True, check=False)
    spent = counted(name, saver, prefix, True) - counted(name, saver, prefix, False)
    return spent / w.units(w.size)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m bench.instructions", description=__doc__.split("\n")[0]
    )
    ap.add_argument(
        "--only",
        metavar="NAME",
        help=f"comma-separated workloads (of: {', '.join(WORKLOADS)}); default loop,grow",
    )
    ap.add_argument("--saver", choices=(*SAVER_MODES, "all"), default="all")
    ap.add_argument(
        "--child", nargs=4, metavar=("NAME", "SAVER", "PREFIX", "MODE"), help=argparse.SUPPRESS
    )
    args = ap.parse_args(argv)  # fmt: skip
    if args.child:
        name, saver, prefix, mode = args.child
        child(name, saver, prefix, mode == "invoke")
        return 0
    if shutil.which("valgrind") is None:
        print("bench.instructions needs valgrind (callgrind) on PATH: apt install valgrind")
        return 2
    names = [n.strip() for n in (args.only or "loop,grow").split(",")]
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        ap.error(f"unknown workload(s) {', '.join(unknown)}; choose from {', '.join(WORKLOADS)}")
    savers = SAVER_MODES if args.saver == "all" else (args.saver,)
    print(f"python {sys.version.split()[0]}; instructions per superstep (per task for fan-out), "
          "counted by callgrind; targets engine/langgraph <= "
          + ", ".join(f"{saver} {target}" for saver, target in TARGETS.items()))  # fmt: skip
    header = f"{'workload':<9} {'saver':<7} {'langgraph':>12} {'engine':>10} {'ratio':>7}  note"
    print(header)
    print("-" * len(header))
    missed = 0
    for name in names:
        for saver in savers:
            try:
                counts = {prefix: per_unit(name, saver, prefix) for prefix in BACKENDS}
            except RuntimeError as exc:
                missed += 1
                print(f"{name:<9} {saver:<7} {'-':>12} {'-':>10} {'-':>7}  error: {exc}")
                continue
            ratio = counts["engine"] / counts["langgraph"]
            ok = ratio <= TARGETS[saver]
            missed += not ok
            print(f"{name:<9} {saver:<7} {counts['langgraph']:>12,.0f} {counts['engine']:>10,.0f} "
                  f"{ratio:>7.3f}  {'ok' if ok else f'over target {TARGETS[saver]}'}", flush=True)  # fmt: skip
    print(f"\nSUMMARY: {'PASS' if not missed else 'FAIL'} - {missed} cell(s) over target or failed")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
