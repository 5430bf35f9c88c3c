"""A subgraph program in a file whose name is no module name (`09_subgraph.py`), as
`langgraph dev` loads one by path (`"./09_subgraph.py:main"`), and its result on real langgraph.
Shared by the command line's tests and the studio's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

SUBGRAPH_PROGRAM = '''\
"""Research a topic in a subgraph, then summarize it."""

import operator
from typing import Annotated

from typing_extensions import TypedDict

from langgraph.graph import END, START, StateGraph

from helpers_09 import SUFFIX


class SubState(TypedDict):
    topic: str
    notes: Annotated[list[str], operator.add]


class State(TypedDict):
    topic: str
    notes: Annotated[list[str], operator.add]
    summary: str


def research(state: SubState) -> dict:
    return {"notes": [f"fact about {state['topic']}"]}


def review(state: SubState) -> dict:
    return {"notes": [f"checked {len(state['notes'])}"]}


sub = StateGraph(SubState)
sub.add_node("research", research)
sub.add_node("review", review)
sub.add_edge(START, "research")
sub.add_edge("research", "review")
sub.add_edge("review", END)

main = StateGraph(State)
main.add_node("plan", lambda state: {"notes": [f"plan {state['topic']}"]})
main.add_node("sub", sub.compile())
main.add_node("summarize", lambda state: {"summary": " / ".join(state["notes"]) + SUFFIX})
main.add_edge(START, "plan")
main.add_edge("plan", "sub")
main.add_edge("sub", "summarize")
main.add_edge("summarize", END)
'''
HELPER = 'SUFFIX = "!"\n'
"""A sibling module the program imports: its folder must be importable."""
INPUT = {"topic": "owls", "notes": []}


def write_program(folder: Path, name: str = "09_subgraph.py") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "helpers_09.py").write_text(HELPER, encoding="utf-8")
    path = folder / name
    path.write_text(SUBGRAPH_PROGRAM, encoding="utf-8")
    return path


def on_langgraph(code: str, cwd: Path) -> Any:
    """What `code` prints as JSON (its last line), run by a fresh Python in `cwd`, which is on
    sys.path as a script's folder is: nothing of this process (the engine, loaded programs)."""
    env = {**os.environ, "PYTHONPATH": ""}
    done = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, '.')\n{code}"],
                          cwd=cwd, capture_output=True, text=True, timeout=120, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def by_path(file: str, call: str, folder: Path) -> Any:
    """`module.CALL` of the file `file` (in `folder`), loaded by path as `langgraph dev` loads
    a graph's file, on real langgraph."""
    return on_langgraph(
        "import importlib.util, json\n"
        f"spec = importlib.util.spec_from_file_location('by_path', {file!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        f"print(json.dumps(module.{call}))\n",
        folder,
    )


def langgraph_result(program: Path) -> Any:
    """The program's `main` invoked on real langgraph."""
    return by_path(program.name, f"main.compile().invoke({INPUT!r})", program.parent)


def exported_result(folder: Path, module: str) -> Any:
    """The exported module `module` (in `folder`) of that graph, invoked on real langgraph."""
    return on_langgraph(
        f"import json, {module}\nprint(json.dumps({module}.graph.invoke({INPUT!r})))\n", folder
    )


def served_result(project: Path) -> Any:
    """The graph of an exported langgraph.json project, loaded as `langgraph dev` loads it (the
    project's folder importable), invoked on real langgraph."""
    config = json.loads((project / "langgraph.json").read_text(encoding="utf-8"))
    [where] = config["graphs"].values()
    file, _, attr = where.partition(":")
    return by_path(file, f"{attr}.invoke({INPUT!r})", project)
