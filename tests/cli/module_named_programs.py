"""Programs whose file is named as a module of the standard library (`random.py`, `json.py`),
each with a node using that very module, and their results on real langgraph, loaded as
`langgraph dev` loads a project: its folder appended to sys.path (after the standard library),
the graph's file by path. Shared by the command line's tests and the studio's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HEAD = """\
from typing_extensions import TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    words: list[str]
    pick: str

"""
TAIL = """

builder = StateGraph(State)
builder.add_node("pick", pick)
builder.add_edge(START, "pick")
builder.add_edge("pick", END)
graph = builder.compile()
"""
PROGRAMS = {
    "random.py": '"""Picks a word by chance, named like the standard library\'s random."""\n\n'
    + "import random\n\n"
    + HEAD
    + """
def pick(state: State) -> dict:
    return {"pick": random.Random(len(state["words"])).choice(state["words"])}
"""
    + TAIL,
    "json.py": '"""Writes its words as JSON, named like the standard library\'s json."""\n\n'
    + "import json\n\n"
    + HEAD
    + """
def pick(state: State) -> dict:
    return {"pick": json.dumps(sorted(state["words"]))}
"""
    + TAIL,
}
INPUT = {"words": ["owl", "lark", "wren", "kite"], "pick": ""}


def write(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(PROGRAMS[name], encoding="utf-8")
    return path


def as_langgraph_dev(folder: Path, file: str, code: str, cwd: Path) -> Any:
    """What `code` prints as JSON (its last line) after `module` is loaded from `file` of
    `folder` as `langgraph dev` loads it, by a fresh Python (`-P`: no working folder first on
    sys.path, which would hide the standard library's module of that name) on real langgraph."""
    load = (
        "import importlib.util, json, sys\n"
        f"sys.path.append({str(folder)!r})\n"
        f"spec = importlib.util.spec_from_file_location('served', {str(folder / file)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "sys.modules['served'] = module\n"
        "spec.loader.exec_module(module)\n"
    )
    env = {**os.environ, "PYTHONPATH": ""}
    done = subprocess.run([sys.executable, "-P", "-c", load + code], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def langgraph_result(program: Path, cwd: Path) -> Any:
    """The program's graph invoked on `INPUT` on real langgraph, loaded as `langgraph dev` does."""
    return as_langgraph_dev(program.parent, program.name,
                            f"print(json.dumps(module.graph.invoke({INPUT!r})))", cwd)  # fmt: skip


def served_result(project: Path, cwd: Path) -> Any:
    """The graph of an exported langgraph.json project, invoked on `INPUT`, as served."""
    config = json.loads((project / "langgraph.json").read_text(encoding="utf-8"))
    [where] = config["graphs"].values()
    file, _, attr = where.partition(":")
    return as_langgraph_dev(project, file, f"print(json.dumps(module.{attr}.invoke({INPUT!r})))",
                            cwd)  # fmt: skip
