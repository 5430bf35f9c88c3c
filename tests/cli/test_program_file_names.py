"""A program whose file name is no module name (`09_subgraph.py`, `my-agent.py`: `langgraph dev`
loads such files by path) imports as a spec that runs, reopens from its file and exports to
LangGraph code (and a langgraph.json project) that runs on real langgraph."""

from __future__ import annotations

import json

import pytest

from studio.cli import main
from tests.cli.program_file_names import (
    INPUT,
    exported_result,
    langgraph_result,
    served_result,
    write_program,
)


@pytest.mark.parametrize("name", ["09_subgraph.py", "my-agent.py"])
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
