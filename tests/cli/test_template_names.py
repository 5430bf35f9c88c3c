"""Which spec a name on the command line means (issue 26.11), and `superstep templates` beside
stray files in the templates folder (issue 27.2)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from studio.cli import main

ROOT = Path(__file__).resolve().parents[2]

IMPOSTOR = {"version": 2, "name": "impostor", "state": [{"name": "x"}],
            "nodes": [{"id": "impostor", "kind": "set_state", "values": {"x": "'local file'"}}],
            "entry": ["impostor"], "finish": ["impostor"]}  # fmt: skip
"""A spec saved in the current folder under a bundled template's name, without extension."""


def test_a_bare_template_name_runs_the_template_and_says_a_file_was_passed_over(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "router").write_text(json.dumps(IMPOSTOR))
    assert main(["run", "router"]) == 0
    out, err = capsys.readouterr()
    assert "local file" not in out
    assert err.splitlines() == [
        "note: 'router' is the bundled template; for the file 'router' in this folder, "
        "give ./router"
    ]


def test_a_file_is_named_by_its_path_or_its_extension(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "router").write_text(json.dumps(IMPOSTOR))
    shutil.copy(tmp_path / "router", tmp_path / "router.json")
    for name in ("./router", "router.json", str(tmp_path / "router")):
        assert main(["run", name, "--input", "{}"]) == 0
        out, err = capsys.readouterr()
        assert "local file" in out and err == "", name


def test_a_bare_name_no_template_has_is_a_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").write_text(json.dumps(IMPOSTOR))
    assert main(["run", "mine", "--input", "{}"]) == 0
    out, err = capsys.readouterr()
    assert "local file" in out and err == ""


def test_listing_templates_passes_over_files_that_are_not_specs(tmp_path):
    # a copy of graphspec reads the templates folder beside it: a templates folder with strays
    shutil.copytree(ROOT / "graphspec", tmp_path / "graphspec",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    for package in ("engine", "studio"):
        (tmp_path / package).symlink_to(ROOT / package, target_is_directory=True)
    folder = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", folder)
    # what running a template opened by its path used to leave beside it
    (folder / "agent_hitl.checkpoints.sqlite.threads.json").write_text('{"threads": []}')
    (folder / "broken.json").write_text("{not json")
    (folder / "notes.json").write_text('["a list, not a spec"]')
    result = subprocess.run([sys.executable, "-m", "studio.cli", "templates"], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(tmp_path)},
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    assert (result.returncode, result.stderr) == (0, "")
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert names == sorted(p.stem for p in (ROOT / "templates").glob("*.json"))
