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


NOTES = textwrap.dedent("""\
    from dataclasses import dataclass

    from typing_extensions import TypedDict

    from langgraph.graph import START, StateGraph
    from langgraph.runtime import Runtime


    @dataclass
    class Settings:
        user: str = "guest"


    class State(TypedDict):
        note: str
        recalled: list


    def remember(state: State, runtime: Runtime[Settings]) -> dict:
        space = ("notes", runtime.context.user)
        runtime.store.put(space, "n1", {"text": state["note"]})
        found = runtime.store.search(space, query=state["note"])
        return {"recalled": [(hit.key, hit.value["text"], hit.score) for hit in found]}


    graph = StateGraph(State, context_schema=Settings).add_node(remember).add_edge(
        START, "remember").compile()
""")

EMBED = "def embed(texts):\n    return [[float(len(t)), 1.0] for t in texts]\n"


def write_served_project(folder: Path) -> Path:
    """A project whose graph reads a run context nobody passes and a store it has none of."""
    folder.mkdir(parents=True)
    (folder / "notes.py").write_text(NOTES, encoding="utf-8")
    (folder / "embed.py").write_text(EMBED, encoding="utf-8")
    project = folder / "langgraph.json"
    project.write_text(json.dumps({"dependencies": ["."], "graphs": {"notes": "./notes.py:graph"},
                                   "store": {"index": {"dims": 2, "embed": "./embed.py:embed"}}}))  # fmt: skip
    return project


def test_a_projects_graph_gets_its_servers_run_context_and_store(capsys, tmp_path):
    """As langgraph dev serves it: a run given no context gets an empty one, made into the
    graph's context_schema (its defaults), and a graph without a store gets the server's, with
    the embedding index langgraph.json configures."""
    project = write_served_project(tmp_path / "proj")
    assert main(["run", str(project), "--trust", "--input", '{"note": "buy milk"}']) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    expected = on_langgraph(
        "import json\nfrom notes import graph\nfrom embed import embed\n"
        "from langgraph.store.memory import InMemoryStore\n"
        "served = graph.copy({'store': InMemoryStore(index={'dims': 2, 'embed': embed})})\n"
        "print(json.dumps(served.invoke({'note': 'buy milk'}, context={})))\n",
        project.parent,
    )
    assert result == expected
    assert [hit[:2] for hit in result["recalled"]] == [["n1", "buy milk"]]
    assert isinstance(result["recalled"][0][2], float)  # scored: the index embedded it
    given = '{"user": "ada"}'
    assert (
        main(["run", str(project), "--trust", "--input", '{"note": "x"}', "--context", given]) == 0
    )
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["recalled"][0][:2] == ["n1", "x"]


def test_a_module_file_runs_as_a_script_invokes_it(capsys, tmp_path):
    """Opened on its own, not through its project, the file gets no context and no store."""
    project = write_served_project(tmp_path / "proj")
    assert (
        main(["run", str(project.parent / "notes.py"), "--trust", "--input", '{"note": "a"}']) == 1
    )
    assert "'NoneType' object has no attribute 'user'" in capsys.readouterr().err


CONFIGURED = textwrap.dedent("""\
    from dataclasses import dataclass

    from langchain_core.runnables import RunnableConfig
    from typing_extensions import TypedDict

    from langgraph.graph import START, StateGraph


    @dataclass(kw_only=True)
    class Configuration:
        user_id: str


    class State(TypedDict):
        owner: str


    def stamp(state: State, config: RunnableConfig) -> dict:
        return {"owner": config["configurable"]["user_id"]}


    graph = StateGraph(State, config_schema=Configuration).add_node(stamp).add_edge(
        START, "stamp").compile()
""")


def write_configured_project(folder: Path) -> Path:
    """A project of the config_schema days: its node reads the user from the configurable."""
    folder.mkdir(parents=True)
    (folder / "stamp.py").write_text(CONFIGURED, encoding="utf-8")
    project = folder / "langgraph.json"
    project.write_text(json.dumps({"graphs": {"stamp": "./stamp.py:graph"}}))
    return project


def test_a_projects_run_context_is_mirrored_into_its_configurable(capsys, tmp_path):
    """The server copies a run's context into its configurable, so a graph reading
    config["configurable"] gets what --context gives (and the schema its required field)."""
    project = write_configured_project(tmp_path / "proj")
    given = ["--input", '{"owner": ""}', "--context", '{"user_id": "ada"}']
    assert main(["run", str(project), "--trust", *given]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == {"owner": "ada"}
    assert main(["run", str(project), "--trust", "--input", '{"owner": ""}']) == 1
    assert "missing 1 required keyword-only argument: 'user_id'" in capsys.readouterr().err
