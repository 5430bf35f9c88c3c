"""`superstep run langgraph.json[:GRAPH]` runs a project laid out as LangGraph's own templates
are: its package under src/ (installed by `pip install -e .` before `langgraph dev`), named in
pyproject.toml, and imported by the graph's file as a package."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from studio.cli import main
from tests.cli.program_file_names import on_langgraph

PYPROJECT = textwrap.dedent("""\
    [project]
    name = "greeter"
    version = "0.1.0"

    [tool.setuptools]
    packages = ["langgraph.templates.greeter", "greeter"]
    [tool.setuptools.package-dir]
    "langgraph.templates.greeter" = "src/greeter"
    "greeter" = "src/greeter"
""")

GRAPH = textwrap.dedent("""\
    from typing_extensions import TypedDict

    from langgraph.graph import START, StateGraph

    from greeter.words import greeting


    class State(TypedDict):
        name: str
        text: str


    def greet(state: State) -> dict:
        return {"text": greeting(state["name"])}


    graph = StateGraph(State).add_node(greet).add_edge(START, "greet").compile()
""")


def write_src_project(folder: Path) -> Path:
    """A project whose graph file imports its own package, which lives under src/."""
    package = folder / "src" / "greeter"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "words.py").write_text("def greeting(name):\n    return f'hello {name}'\n",
                                      encoding="utf-8")  # fmt: skip
    (package / "graph.py").write_text(GRAPH, encoding="utf-8")
    (folder / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    project = folder / "langgraph.json"
    project.write_text(json.dumps({"dependencies": ["."],
                                   "graphs": {"agent": "./src/greeter/graph.py:graph"}}))  # fmt: skip
    return project


def test_a_project_with_its_package_under_src_runs(capsys, tmp_path):
    project = write_src_project(tmp_path / "proj")
    assert main(["run", str(project), "--trust", "--input", '{"name": "Ada"}']) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    expected = on_langgraph(  # as served after `pip install -e .`: src/ importable
        "import json, sys; sys.path.insert(0, 'src')\nfrom greeter.graph import graph\n"
        "print(json.dumps(graph.invoke({'name': 'Ada'})))\n",
        project.parent,
    )
    assert result == expected == {"name": "Ada", "text": "hello Ada"}
