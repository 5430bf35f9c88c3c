"""A spec's file paths work on every OS: one saved on Windows (folders separated by `\\`)
opens and runs on macOS and Linux, and the paths the studio writes use `/`.

Designers and teachers hand specs and saved tests around between machines (a test saved on a
Windows laptop runs in a Linux CI); a `\\` path there named a file that did not exist.
"""

from __future__ import annotations

import json

from graphspec.io import load_spec
from graphspec.module_files import naming_program
from graphspec.trust import closure
from studio.replay.saved_trust import spec_in_project
from tests.graphspec.helpers import setter, write_spec


def test_a_subgraph_file_named_the_windows_way_runs(tmp_path, capsys):
    from studio.cli import main

    (tmp_path / "parts").mkdir()
    write_spec(tmp_path / "parts", "shout.json", state=[{"name": "text"}],
               nodes=[setter("upper", text="text.upper()")], entry=["upper"])  # fmt: skip
    path = write_spec(
        tmp_path,
        state=[{"name": "text"}],
        nodes=[{"id": "shout", "kind": "subgraph", "subgraph": "shouter"}],
        subgraphs=[{"id": "shouter", "file": "parts\\shout.json"}],
        entry=["shout"],
    )
    assert main(["run", str(path), "--input", '{"text": "hey"}']) == 0
    assert capsys.readouterr().out == '{"text": "HEY"}\n'


def test_a_program_named_the_windows_way_is_the_one_hashed_for_trust(tmp_path):
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "bot.py").write_text("", encoding="utf-8")
    spec = load_spec(json.dumps({"version": 2, "module_file": "agents\\bot.py"}).encode())
    assert spec.module_file == "agents/bot.py"
    found = closure(spec, tmp_path)
    assert str((tmp_path / "agents" / "bot.py").resolve()) in found.files
    assert "missing" not in found.files.values()


def test_a_spec_made_from_a_program_names_it_with_slashes(tmp_path):
    (tmp_path / "agents").mkdir()
    program = tmp_path / "agents" / "bot.py"
    program.write_text("", encoding="utf-8")
    spec = naming_program(load_spec(b'{"version": 2}'), program, tmp_path / "specs")
    assert spec.module_file == "../agents/bot.py"


def test_a_saved_test_naming_its_spec_the_windows_way_finds_it(tmp_path):
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "agent.json").write_text("{}", encoding="utf-8")
    tests = tmp_path / "tests"
    tests.mkdir()
    found = spec_in_project(tests, "..\\specs\\agent.json")
    assert found == (tmp_path / "specs" / "agent.json").resolve()
