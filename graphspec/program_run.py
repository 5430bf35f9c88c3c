"""`superstep run PROGRAM.py[:NAME]`: the graph of a developer's own LangGraph program, on the engine.

The command line's way to a program file (or a langgraph.json project's graph), as the studio
opens one: once the user agreed to run its code, the module is loaded on the engine
(`graphspec.importer.load_module`), its graph found (`graphspec.program_graphs`: NAME, else
graph/app/agent or its only one; several are named with the PROGRAM:NAME that runs one) and
compiled if it is a builder, then given the run's checkpointer, as `langgraph dev` gives a
graph its own. `commands.run_graph` runs it like a spec's.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from graphspec.errors import BadInput, SpecError
from graphspec.import_refs import split_target
from graphspec.program_project import is_project_file, project_environment, read_project


def is_program(target: str) -> bool:
    """Whether `target` names a program (`file.py[:NAME]`, `langgraph.json[:GRAPH]`), not a spec."""
    file, _ = split_target(target)
    return file.endswith(".py") or is_project_file(Path(file))


def program_graph(target: str, *, confirm: Callable[[str], bool]) -> Any:
    """The compiled graph `target` names, loaded on the engine after `confirm(file)` agreed to
    run the file's code; BadInput says why there is none (one line, naming the file)."""
    from graphspec.program_graphs import name_one  # asyncio and all: only for a program

    file, name = split_target(target)
    path, environment = Path(file), nullcontext()
    try:
        if is_project_file(path):
            project = read_project(path)
            if name is None:
                ids = list(project.graphs)
                if len(ids) > 1:
                    raise BadInput(name_one(path, ids, "run"))
                name = ids[0]
            path, name = project.target(name)
            environment = project_environment(project)
        elif not path.is_file():
            raise BadInput(f"no such file: {file}")
        if not confirm(path.name):
            raise BadInput(f"running {path.name} runs its Python code: not run (pass --trust to "
                           "allow it)")  # fmt: skip
        with environment:
            return _load(path, name)
    except SpecError as exc:
        raise BadInput(exc.line()) from None


def _load(path: Path, name: str | None) -> Any:
    from engine.pregel.main import Pregel
    from graphspec.importer import load_module
    from graphspec.program_graphs import SeveralGraphs, compiled, graph_value, name_one, pick_name

    module = load_module(str(path), on_engine=True)  # as the studio runs it
    if name is None:
        try:
            name = pick_name(module, path.name)
        except SeveralGraphs as several:
            raise BadInput(name_one(path, several.names, "run")) from None
    graph = compiled(graph_value(module, name, path.name), f"{path.name}:{name}")
    if not isinstance(graph, Pregel):  # made on another runtime (its own langgraph import)
        raise BadInput(f"{path.name}:{name} is a {type(graph).__name__}, which the engine does "
                       "not run")  # fmt: skip
    return graph


def with_saver(graph: Any, saver: Any) -> Any:
    """The graph with the run's checkpointer in place of its own, as `langgraph dev` runs it."""
    return graph.copy({"checkpointer": saver})


__all__ = ["is_program", "program_graph", "with_saver"]
