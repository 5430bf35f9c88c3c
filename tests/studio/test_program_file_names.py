"""The studio opens a program whose file name is no module name (`09_subgraph.py`), as
`langgraph dev` does, and steps it to langgraph's result; a spec saved from it reopens in a new
process and exports code that runs. A run nobody answers (`--quit`, a screenshot, offscreen)
never waits on a dialog: a program (or project) holding several graphs names them, one not
trusted is not run, and the command exits non-zero."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.checkpoint.sqlite import SqliteSaver
from tests.cli.program_file_names import INPUT, exported_result, langgraph_result, write_program
from tests.studio.code_programs import open_program

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]


def superstep(*args: str, home: Path, timeout: float = 120,
              **more: str) -> subprocess.CompletedProcess:  # fmt: skip
    """The `superstep` command in a process of its own, offscreen, its studio files in `home`
    (`more`: more environment)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "SUPERSTEP_STUDIO_HOME": str(home),
           "PYTHONPATH": str(ROOT), **more}  # fmt: skip
    return subprocess.run([sys.executable, "-m", "studio.cli", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=home.parent)  # fmt: skip


def last_state(runs: Path, keys: list[str]) -> dict:
    """The root state the studio's last thread ended in, from its checkpoint database."""
    [db] = runs.glob("*.checkpoints.sqlite")
    [thread] = json.loads(Path(f"{db}.threads.json").read_text(encoding="utf-8"))
    with SqliteSaver.from_conn_string(str(db)) as saver:
        found = saver.get_tuple({"configurable": {"thread_id": thread, "checkpoint_ns": ""}})
    values = found.checkpoint["channel_values"]
    return {k: values[k] for k in keys if k in values}


def test_the_command_line_opens_and_steps_a_program_named_09_subgraph(tmp_path):
    program = write_program(tmp_path / "prog")
    expected = langgraph_result(program)
    home = tmp_path / "home"
    done = superstep("studio", f"{program}:main", "--trust", "--steps", "10", "--input",
                     json.dumps(INPUT), "--quit", home=home)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert last_state(home / "runs", list(expected)) == expected


@pytest.mark.parametrize("name", ["09_subgraph.py", "subgraph_09.py", "11.graph-Edge-条件边.py"])
def test_saved_from_the_studio_it_reopens_and_exports_by_the_file(qtbot, window, tmp_path, name):
    program = write_program(tmp_path / "prog", name)
    expected = langgraph_result(program)
    open_program(qtbot, window, program, "main")
    assert window.document.code is None  # an editable spec, its nodes by import path
    saved = tmp_path / "prog" / "saved.json"
    assert window.save_as(saved)
    assert json.loads(saved.read_text(encoding="utf-8"))["module_file"] == name
    # a new process, which has loaded nothing: the saved spec names the file it runs
    done = superstep("run", str(saved), "--trust", "--input", json.dumps(INPUT),
                     home=tmp_path / "home")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == expected
    assert window.export("langgraph", tmp_path / "prog" / "exported_09.py")
    assert exported_result(tmp_path / "prog", "exported_09") == expected


def test_several_graphs_without_a_name_are_listed_when_nobody_can_pick(tmp_path):
    program = write_program(tmp_path / "prog", "subgraph_09.py")
    home = tmp_path / "home"
    done = superstep("studio", str(program), "--trust", "--quit", home=home, timeout=90)
    assert done.returncode != 0
    assert (f"subgraph_09.py defines 2 graphs: sub, main; open one with {program}:sub"
            in done.stderr)  # fmt: skip
    project = program.with_name("langgraph.json")
    project.write_text(json.dumps({"dependencies": ["."], "graphs": {
        "research": "./subgraph_09.py:sub", "report": "./subgraph_09.py:main"}}))  # fmt: skip
    shot = tmp_path / "shot.png"
    done = superstep("studio", str(project), "--screenshot", str(shot), "--quit", home=home,
                     timeout=90)  # fmt: skip
    assert done.returncode != 0
    assert (f"langgraph.json defines 2 graphs: research, report; open one with {project}:research"
            in done.stderr)  # fmt: skip


def test_the_studio_names_the_graphs_in_its_language(tmp_path):
    program = write_program(tmp_path / "prog", "subgraph_09.py")
    done = superstep("studio", str(program), "--trust", "--quit", home=tmp_path / "home",
                     timeout=90, LC_ALL="zh_CN.UTF-8", LANG="zh_CN.UTF-8")  # fmt: skip
    assert done.returncode != 0
    assert f"subgraph_09.py 定义了 2 个图：sub, main；用 {program}:sub 打开其中一个" in done.stderr


def test_a_program_not_trusted_is_not_run_when_nobody_can_agree(tmp_path):
    program = write_program(tmp_path / "prog", "subgraph_09.py")
    program.write_text(program.read_text(encoding="utf-8") + "open('ran.txt', 'w').close()\n",
                       encoding="utf-8")  # fmt: skip
    home = tmp_path / "home"
    done = superstep("studio", f"{program}:main", "--quit", home=home, timeout=90)
    assert done.returncode != 0
    assert "opening subgraph_09.py runs its Python code: not opened (pass --trust" in done.stderr
    assert not (home.parent / "ran.txt").exists()
