"""A program file named as a module of the standard library (`random.py`, `json.py`) runs, imports
as a spec that runs in a new process, and exports (a module, a langgraph.json project) that runs
on real langgraph, without ever replacing that module in sys.modules: the program's own
`import random` and everything after it get the standard library's."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main
from tests.cli.module_named_programs import (
    INPUT,
    PROGRAMS,
    as_langgraph_dev,
    langgraph_result,
    served_result,
    write,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["random.py", "json.py"])
def test_a_program_named_like_the_standard_library_runs_and_exports(capsys, tmp_path, name):
    stdlib = importlib.import_module(name.removesuffix(".py"))
    program = write(tmp_path / "prog", name)
    expected = langgraph_result(program, tmp_path)

    spec = program.with_name("spec.json")
    assert main(["import", str(program), "--trust", "-o", str(spec)]) == 0
    assert sys.modules[stdlib.__name__] is stdlib  # the program took a name of its own
    capsys.readouterr()
    assert main(["run", str(program), "--trust", "--input", json.dumps(INPUT)]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == expected
    assert sys.modules[stdlib.__name__] is stdlib
    # a new process, which has loaded nothing: the spec's module_file names the program again
    done = subprocess.run([sys.executable, "-m", "studio.cli", "run", str(spec), "--trust",
                           "--input", json.dumps(INPUT)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == expected

    exported = program.with_name("exported.py")
    assert main(["export", str(spec), "--to", "langgraph", "-o", str(exported)]) == 0
    assert as_langgraph_dev(program.parent, "exported.py",
                            f"print(json.dumps(module.graph.invoke({INPUT!r})))", tmp_path) == expected  # fmt: skip

    project = tmp_path / "project"
    assert main(["export", str(spec), "--to", "langgraph-project", "-o", str(project)]) == 0
    assert (project / name).read_text(encoding="utf-8") == program.read_text(encoding="utf-8")
    assert served_result(project, tmp_path) == expected
    assert sys.modules[stdlib.__name__] is stdlib


def test_loading_the_same_program_again_replaces_its_own_module(tmp_path):
    from graphspec.importer import load_module

    program = write(tmp_path, "random.py")
    first = load_module(str(program), on_engine=True)
    program.write_text(program.read_text(encoding="utf-8") + "AGAIN = True\n", encoding="utf-8")
    again = load_module(str(program), on_engine=True)
    assert again.__name__ == first.__name__ and again.AGAIN  # its own name, run again
    assert sys.modules[again.__name__] is again
    other = write(tmp_path / "other", "random.py")  # another program of that name
    third = load_module(str(other), on_engine=True)
    assert third.__name__ != again.__name__ and sys.modules[again.__name__] is again
    import random

    assert random.__file__ != str(program) and sys.modules["random"] is random


def test_a_folder_named_as_its_program_takes_no_name_from_it(tmp_path, monkeypatch):
    """`agent/agent.py` with `agent/`'s parent on sys.path: the folder is a namespace package,
    which never hides a module of its name (the import system takes the module), so the program
    keeps its own name (a spec's import paths and the inspector read `agent:...`)."""
    from graphspec.importer import load_module

    (tmp_path / "proggy").mkdir()
    program = tmp_path / "proggy" / "proggy.py"
    program.write_text(PROGRAMS["json.py"], encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    loaded = load_module(str(program), on_engine=True)
    try:
        assert loaded.__name__ == "proggy"
    finally:
        sys.modules.pop(loaded.__name__, None)
