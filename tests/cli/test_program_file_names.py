"""A program whose file name is no module name (`09_subgraph.py`, `my-agent.py`,
`11.graph-Edge-条件边.py`: `langgraph dev` loads such files by path) imports as a spec that runs,
reopens from its file and exports to LangGraph code (and a langgraph.json project) that runs on
real langgraph; a Chinese name stays readable in the module name its import paths use."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main
from tests.cli.program_file_names import (
    INPUT,
    by_path,
    exported_result,
    langgraph_result,
    served_result,
    write_program,
)

ROOT = Path(__file__).resolve().parents[2]


CHINESE = {"11.graph-Edge-条件边.py": "_11_graph_Edge_条件边", "条件边.py": "条件边"}
"""A file named in Chinese (a dot in it, or a name Python takes as it is) -> its module name."""


@pytest.mark.parametrize("name", ["09_subgraph.py", "my-agent.py", *CHINESE])
def test_a_program_file_named_like_no_module_imports_runs_and_exports(capsys, tmp_path, name):
    program = write_program(tmp_path / "prog", name)
    expected = langgraph_result(program)
    assert expected["summary"].endswith("fact about owls / checked 2!")  # the subgraph ran
    spec = tmp_path / "prog" / "spec.json"

    assert main(["import", f"{program}:main", "--trust", "-o", str(spec)]) == 0
    saved = json.loads(spec.read_text(encoding="utf-8"))
    assert saved["module_file"] == name  # a run loads it again, by its own name
    capsys.readouterr()

    assert main(["run", str(spec), "--trust", "--input", json.dumps(INPUT)]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == expected

    exported = tmp_path / "prog" / "exported_09.py"  # beside the program, as its imports are
    assert main(["export", str(spec), "--to", "langgraph", "-o", str(exported)]) == 0
    assert exported_result(exported.parent, "exported_09") == expected

    project = tmp_path / "project"
    assert main(["export", str(spec), "--to", "langgraph-project", "-o", str(project)]) == 0
    assert (project / name).is_file()  # the program is copied, and served from the project
    assert (project / "helpers_09.py").is_file()  # with the sibling it imports
    assert "not beside the spec" not in (project / "README.md").read_text(encoding="utf-8")
    assert served_result(project) == expected


@pytest.mark.parametrize(("name", "module"), CHINESE.items())
def test_a_program_file_named_in_chinese_keeps_its_name_in_import_paths(tmp_path, name, module):
    program = write_program(tmp_path / "prog", name)
    spec = tmp_path / "prog" / "spec.json"
    # a process of its own: this one may hold the name already, for an earlier test's file
    done = subprocess.run([sys.executable, "-m", "studio.cli", "import", f"{program}:main",
                           "--trust", "-o", str(spec)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert done.returncode == 0, done.stderr
    paths = re.findall(r'"import_path": "([^"]*)"', spec.read_text(encoding="utf-8"))
    assert f"{module}:research" in paths and f"{module}:review" in paths


CHINESE_NAMES = """\
from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    number: int


def 加一(state: State):
    return {"number": state["number"] + 1}


def 路由(state: State) -> str:
    return "node1" if state["number"] > 5 else END


builder = StateGraph(State)
builder.add_node("node1", 加一)
builder.add_conditional_edges(START, 路由)
builder.add_edge("node1", END)
graph = builder.compile()
"""


def test_chinese_functions_of_a_chinese_file_export_by_their_names(tmp_path):
    program = tmp_path / "路由图.py"  # a name no other test of this process loads
    program.write_text(CHINESE_NAMES, encoding="utf-8")
    spec, exported = tmp_path / "spec.json", tmp_path / "exported_route.py"
    assert main(["import", f"{program}:graph", "--trust", "-o", str(spec)]) == 0
    assert main(["export", str(spec), "--to", "langgraph", "-o", str(exported)]) == 0
    assert "from 路由图 import 加一" in exported.read_text(encoding="utf-8")
    call = "graph.invoke({'number': 7})"
    assert by_path(exported.name, call, tmp_path) == by_path(program.name, call, tmp_path)
