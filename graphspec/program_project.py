"""A LangGraph project (`langgraph.json`): its graphs, env file and local dependencies, read as
`langgraph dev` reads them, so the studio opens the same graphs the server would serve.

Only data is read here; nothing is imported. `graph_target` says which file and attribute a
graph id names, `project_environment` what loading it needs (the env file's variables, the
project's local folders on `sys.path`), applied only after the user agreed to run the code.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from graphspec.errors import SpecError
from graphspec.program_siblings import make_way
from graphspec.project_packages import package_roots

MAX_CONFIG_BYTES = 1_000_000


def is_project_file(path: Path) -> bool:
    return path.name == "langgraph.json"


@dataclass(frozen=True)
class Project:
    folder: Path
    graphs: dict[str, str]
    """graph id -> `./path/to/file.py:attr` (or `package.module:attr`), as written."""
    env: dict[str, str] = field(default_factory=dict)
    dependencies: tuple[Path, ...] = ()
    """The project's local dependency folders (`.`, `./src`) and the package roots their
    pyproject.toml installs from (`src/`): importable while it loads."""
    store: dict = field(default_factory=dict)
    """Its "store" settings (an embedding `index`), for the store its server gives a graph."""

    def target(self, graph_id: str) -> tuple[Path, str]:
        """The file and attribute (or factory) a graph id names."""
        where = self.graphs.get(graph_id)
        if where is None:
            raise SpecError(f"langgraph.json has no graph {graph_id!r} "
                            f"(it lists {', '.join(self.graphs)})")  # fmt: skip
        file, _, attr = where.rpartition(":")
        if not file or not attr.isidentifier():
            raise SpecError(f"langgraph.json: graph {graph_id!r} is {where!r}; expected "
                            "'./path/to/file.py:name'")  # fmt: skip
        if file.endswith(".py"):
            path = (self.folder / file).resolve()
        else:  # a module path: a file under one of the local dependencies
            relative = Path(*file.split(".")).with_suffix(".py")
            found = [d / relative for d in (self.folder, *self.dependencies)
                     if (d / relative).is_file()]  # fmt: skip
            if not found:
                raise SpecError(f"langgraph.json: graph {graph_id!r}: no file for module {file}")
            path = found[0].resolve()
        if not path.is_file():
            raise SpecError(f"langgraph.json: graph {graph_id!r}: no such file {file}")
        if not path.is_relative_to(self.folder.resolve()):
            raise SpecError(f"langgraph.json: graph {graph_id!r} points outside the project "
                            f"({file})")  # fmt: skip
        return path, attr


def read_project(path: Path) -> Project:
    """Read langgraph.json and its env file (data only); a SpecError names what is wrong."""
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise SpecError(f"{path.name} is larger than {MAX_CONFIG_BYTES} bytes")
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecError(f"cannot read {path}: {exc}") from None
    graphs = data.get("graphs") if isinstance(data, dict) else None
    if not isinstance(graphs, dict) or not graphs:
        raise SpecError(f"{path.name} lists no graphs (a 'graphs' object of id: './file.py:name')")
    graphs = {str(k): v if isinstance(v, str) else str(v.get("path", "")) for k, v in
              graphs.items() if isinstance(v, (str, dict))}  # fmt: skip
    folder = path.resolve().parent
    deps = data.get("dependencies") or []
    local = [(folder / d).resolve() for d in deps
             if isinstance(d, str) and d.startswith(".") and (folder / d).is_dir()]  # fmt: skip
    installed = [root for d in local for root in package_roots(d)]  # as `pip install -e` them
    store = data.get("store") if isinstance(data.get("store"), dict) else {}
    roots = tuple(dict.fromkeys(local + installed))
    return Project(folder, graphs, _env(folder, data.get("env")), roots, store)


def _env(folder: Path, env: object) -> dict[str, str]:
    """The variables of the env entry: an object, or a .env file of KEY=VALUE lines."""
    if isinstance(env, dict):
        return {str(k): str(v) for k, v in env.items()}
    if not isinstance(env, str):
        return {}
    file = (folder / env).resolve()
    if not file.is_file() or not file.is_relative_to(folder):
        return {}
    out = {}
    for line in file.read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        out[key.strip()] = value.strip().strip("'\"")
    return out


@contextmanager
def project_environment(project: Project) -> Iterator[None]:
    """While a project's graph loads: its local dependencies importable. Its env file's
    variables are set for the session (a graph reads them when it runs), never overriding
    what the user's environment already has."""
    for key, value in project.env.items():
        os.environ.setdefault(key, value)
    make_way((project.folder, *project.dependencies))  # its modules, not another program's
    saved = list(sys.path)
    sys.path[:0] = [str(d) for d in (project.folder, *project.dependencies)]
    try:
        yield
    finally:
        sys.path[:] = saved


__all__ = ["Project", "is_project_file", "project_environment", "read_project"]
