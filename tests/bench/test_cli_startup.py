"""bench/cli_startup.py runs each quick command in a fresh process and judges it by its target
(the figures themselves depend on the machine's load, so only the verdict logic is pinned)."""

from __future__ import annotations

from bench import cli_startup


def test_the_targets_are_the_issues():
    targets = {name: target for name, (_, target) in cli_startup.ROWS.items()}
    assert targets["templates"] == targets["validate"] == targets["run-router"] == 0.5
    assert targets["import-engine-graph"] == 0.3


def test_every_row_runs_in_a_fresh_process():
    for argv, _ in cli_startup.ROWS.values():
        median, cpu, error = cli_startup.time_row(argv, repeat=1)
        assert error is None and median > 0 and cpu > 0


def test_a_row_above_its_target_fails_the_run(monkeypatch, capsys):
    monkeypatch.setitem(cli_startup.ROWS, "templates", (["-m", "studio.cli", "templates"], 0.0))
    assert cli_startup.main(["--repeat", "1", "--only", "templates"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("python -c pass") and out[1].endswith("floor")
    assert out[2].split()[0] == "templates" and out[2].endswith("SLOW")
    assert out[-1] == "SUMMARY: FAIL templates"


def test_a_failing_command_is_reported(monkeypatch, capsys):
    monkeypatch.setitem(cli_startup.ROWS, "broken", (["-c", "raise SystemExit('no luck')"], 9.0))
    assert cli_startup.main(["--repeat", "1", "--only", "broken"]) == 1
    assert "no luck" in capsys.readouterr().out
