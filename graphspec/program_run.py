"""`superstep run PROGRAM.py[:NAME]`: the graph of a developer's own LangGraph program, on the engine.

The command line's way to a program file (or a langgraph.json project's graph), as the studio
opens one: once the user agreed to run its code, the module is loaded on the engine
(`graphspec.importer.load_module`), its graph found (`graphspec.program_graphs`: NAME, else
graph/app/agent or its only one; several are named with the PROGRAM:NAME that runs one; a
script's, run by its top-level code or its __main__ block, when none is at module level:
`program_script`; a module's graph its top-level code ran is that run's) and compiled if it
is a builder, then given the run's checkpointer, as `langgraph dev` gives a graph its own. `commands.run_graph` runs it like a spec's. The studio
opens a program through the same `program_target` and `load_graph`, asking which graph where
this command names them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from graphspec.errors import BadInput, SpecError
from graphspec.import_refs import split_target
from graphspec.program_project import is_project_file, project_environment, read_project
from graphspec.program_serve import Served, served


def is_program(target: str) -> bool:
    """Whether `target` names a program (`file.py[:NAME]`, `langgraph.json[:GRAPH]`), not a spec."""
    file, _ = split_target(target)
    return file.endswith(".py") or is_project_file(Path(file))


def program_graph(target: str, *, confirm: Callable[[str], bool]) -> tuple[Any, Served | None, Any]:
    """The compiled graph `target` names, loaded on the engine after `confirm(file)` agreed to
    run the file's code, and, for a langgraph.json project's, how its server serves it (the
    graph already has the server's store where it has none), and the input the program's
    script first ran it with (a ScriptInput; None for a graph its code did not run); BadInput
    says why there is none (one line, naming the file)."""
    from engine.pregel.main import Pregel

    file, name = split_target(target)
    try:
        if not is_project_file(Path(file)) and not Path(file).is_file():
            raise BadInput(f"no such file: {file}")
        path, name, environment = program_target(Path(file), name, _refused)
        if not confirm(path.name):
            raise BadInput(f"running {path.name} runs its Python code: not run (pass --trust to "
                           "allow it)")  # fmt: skip
        with environment():
            found = load_graph(path, name, _refused)
            serving = served(read_project(Path(file))) if is_project_file(Path(file)) else None
    except SpecError as exc:
        raise BadInput(exc.line()) from None
    if found.script is not None and found.script.stopped:  # as `python FILE.py` would show it
        print(f"{path.name}: its {found.script.stopped_in} stopped: {found.script.stopped}",
              file=sys.stderr)  # fmt: skip
    if not isinstance(found.graph, Pregel):  # made on another runtime (its own langgraph import)
        raise BadInput(f"{path.name}:{found.name} is a {type(found.graph).__name__}, which the "
                       "engine does not run")  # fmt: skip
    graph = found.graph if serving is None else serving.graph(found.graph)
    return graph, serving, (found.script.script_input if found.script is not None else None)


def _refused(path: Path, names: list[str]) -> str:
    from graphspec.program_graphs import name_one

    raise BadInput(name_one(path, names))


Pick = Callable[[Path, list[str]], "str | None"]
"""Which of the graphs `names` that the file `path` holds to take; None: none (cancelled)."""


def program_target(
    path: Path, name: str | None, pick: Pick
) -> tuple[Path, str | None, Callable[[], Any]] | None:
    """The program file and graph `path[:name]` point at, and what loading it runs inside: the
    file itself (nothing around it), or the file and attr a langgraph.json project's graph id
    names (its only one, else `pick`'s; None when it picks none), inside the project's
    environment (env file, local folders). SpecError says why the project cannot be read."""
    if not is_project_file(path):
        return path, name, nullcontext
    project = read_project(path)
    if name is None:
        ids = list(project.graphs)
        name = ids[0] if len(ids) == 1 else pick(path, ids)
        if name is None:
            return None
    file, attr = project.target(name)
    return file, attr, partial(project_environment, project)


@dataclass
class ProgramGraph:
    module: Any
    name: str
    value: Any  # what the module holds under `name`: a graph, a builder or a factory
    graph: Any  # `value` compiled (the caller checks it is the engine's)
    script: Any = None  # a ScriptGraph: the program's own code ran it (program_script)


def load_graph(
    path: Path, name: str | None, pick: Pick, keep_waiting: Any = None
) -> ProgramGraph | None:
    """Load the program file on the engine (the user agreed) and find its graph: `name`, else
    graph/app/agent or its only one, else `pick`'s of several (None when it picks none); a
    script's, run by its top-level code or its __main__ block (until `keep_waiting` says stop:
    program_script). SpecError says why there is none."""
    from graphspec.program_graphs import NoGraph, SeveralGraphs, compiled, graph_value, pick_name
    from graphspec.program_script import import_program, is_main_name

    script = import_program(path, keep_waiting)  # watched: its top-level code may run graphs
    module = script.module
    if module is None and name is not None and not is_main_name(name):
        raise script.failure or SpecError(f"{path.name}'s top-level code did not run to its end "
                                          f"({script.stopped or 'it exited'})")  # fmt: skip
    if module is None or is_main_name(name):  # it did not end: the graphs it ran, if any
        return _run_by_script(script, name, pick, keep_waiting)
    if name is None:
        try:
            name = pick_name(module, path.name)
        except NoGraph:  # a script: the graphs its code runs
            return _run_by_script(script, None, pick, keep_waiting)
        except SeveralGraphs as several:
            name = pick(path, several.names)
            if name is None:
                return None
    value = graph_value(module, name, path.name)
    graph = compiled(value, f"{path.name}:{name}")
    return ProgramGraph(module, name, value, graph, script=_run_on_import(script, graph))


def _run_on_import(script: Any, graph: Any) -> Any:
    """The module's graph as its top-level code ran it (a tutorial's `graph = builder.compile(
    checkpointer=...)` then `graph.invoke(...)` with no __main__ guard), else None: opened live
    where that code left it, its threads and its input, as a graph a __main__ block ran."""
    return next((ran for ran in script.graphs() if ran.ran and ran.graph is graph), None)


def _run_by_script(
    script: Any, name: str | None, pick: Pick, keep_waiting: Any
) -> ProgramGraph | None:
    from graphspec.program_script import main_graph

    ran = main_graph(script, name, pick, keep_waiting)
    if ran is None:
        return None
    return ProgramGraph(script.module, ran.name, ran.graph, ran.graph, script=ran)


def with_saver(graph: Any, saver: Any) -> Any:
    """The graph with the run's checkpointer in place of its own, as `langgraph dev` runs it."""
    return graph.copy({"checkpointer": saver})


__all__ = [
    "ProgramGraph",
    "is_program",
    "load_graph",
    "program_graph",
    "program_target",
    "with_saver",
]
