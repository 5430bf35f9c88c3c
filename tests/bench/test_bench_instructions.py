"""bench.instructions: what callgrind counts in its children becomes instructions per unit."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

from bench import instructions
from bench.workloads import WORKLOADS


def test_a_cells_figure_is_the_invokes_count_per_unit(monkeypatch):
    commands = []

    def fake_run(command, **_):
        commands.append(command)
        collected = 7_000_000 if command[-1] == "invoke" else 1_000_000
        return SimpleNamespace(
            returncode=0, stderr=f"==42== Events : Ir\n==42== Collected : {collected}\n"
        )

    monkeypatch.setattr(instructions.subprocess, "run", fake_run)
    figure = instructions.per_unit("loop", "memory", "engine")
    assert figure == 6_000_000 / WORKLOADS["loop"].units(WORKLOADS["loop"].size)
    # an uncounted run first (it brings the bytecode caches up to date), then the two counted
    assert [c[0] for c in commands] == [sys.executable, "valgrind", "valgrind"]
    assert [c[-4:] for c in commands] == [
        ["loop", "memory", "engine", "invoke"],
        ["loop", "memory", "engine", "invoke"],
        ["loop", "memory", "engine", "compile"],
    ]


def test_a_child_that_fails_is_an_error_naming_the_cell(monkeypatch):
    failed = SimpleNamespace(returncode=1, stderr="Traceback ...\nImportError: no engine\n")
    monkeypatch.setattr(instructions.subprocess, "run", lambda command, **_: failed)
    try:
        instructions.per_unit("grow", "none", "engine")
    except RuntimeError as exc:
        assert str(exc) == "engine grow/none failed: ImportError: no engine"
    else:
        raise AssertionError("no error")


def test_the_child_runs_and_checks_what_callgrind_would_count():
    # the same command callgrind wraps, without it: the workload's result is checked there
    for mode in ("compile", "invoke"):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "bench.instructions",
                "--child",
                "chain",
                "memory",
                "engine",
                mode,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr


def test_without_valgrind_it_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    assert instructions.main(["--only", "loop"]) == 2
    assert "valgrind" in capsys.readouterr().out
