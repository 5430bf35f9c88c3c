"""Spec -> a LangGraph server project: `superstep export SPEC --to langgraph-project -o DIR`.

    DIR/langgraph.json     the graph, for `langgraph dev` / `langgraph up` / `langgraph build`
    DIR/graph.py           the langgraph code export (`graph` is the compiled graph)
    DIR/requirements.txt   what graph.py imports, plus each chat model provider the spec names
    DIR/README.md          how to run it locally and with Postgres and Redis

The module is the plain code export, unchanged: the server brings its own checkpointer and store,
so nothing here depends on Superstep Studio. Modules the spec's code imports by path are copied
when they sit beside the spec, and listed in the README otherwise. Only regular files inside the
spec's folder are copied (a link to a file there is copied as the file); links that lead out of
it, links to folders (never followed, so no loops), and pipes or devices are skipped and named.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from pydantic import BaseModel

from graphspec.model import GraphSpec, ModelSettings
from graphspec.providers import PROVIDER_PACKAGES

MODULE = "graph.py"
LANGGRAPH_PIN = "langgraph>=1.2,<1.3"
"""The langgraph the exports are checked against (the test extra's pin)."""
PACKAGES = {"langgraph": LANGGRAPH_PIN, "langchain": "langchain>=1.2",
            "langchain_core": "langchain-core>=1.0"}  # fmt: skip
"""Top-level import name -> requirement, for the libraries an export may import."""


def graph_id(name: str) -> str:
    """The graph's name on the server (its assistant id): `name` (the spec file's stem) as an
    identifier."""
    gid = re.sub(r"\W+", "_", name.strip().lower()).strip("_") or "graph"
    return f"graph_{gid}" if gid[0].isdigit() else gid


def imported_modules(code: str) -> list[str]:
    """The top-level modules `code` imports (absolute imports only), sorted: a program file
    imported by its own name (`import_module("09_subgraph")`) or by path from beside the code
    (`Path(__file__).with_name("random.py")`) is one, the module name it is given
    (`sys.modules.setdefault("_09_subgraph", ...)`, `sys.modules["random_program"] = ...`) is
    not (`graphspec.program_names.alias_line`)."""
    names: set[str] = set()
    given: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
        elif isinstance(node, ast.Call) and (text := _first_text(node)) is not None:
            if ast.unparse(node.func) == "import_module":
                names.add(text)
            elif ast.unparse(node.func) == "sys.modules.setdefault":
                given.add(text)
            elif (stem := _by_path(node)) is not None:
                names.add(stem)
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "sys.modules":
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                given.add(node.slice.value)
    return sorted(names - given)


def files_by_path(code: str) -> set[str]:
    """The program files `code` loads by path from beside itself, named like other modules (the
    standard library's `random`): copied into the project whatever their name."""
    return {stem for node in ast.walk(ast.parse(code))
            if isinstance(node, ast.Call) and (stem := _by_path(node)) is not None}  # fmt: skip


def _by_path(call: ast.Call) -> str | None:
    text = _first_text(call)
    if ast.unparse(call.func) == "Path(__file__).with_name" and text and text.endswith(".py"):
        return text.removesuffix(".py")
    return None


def _first_text(call: ast.Call) -> str | None:
    first = call.args[0] if call.args else None
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def _providers(spec: GraphSpec) -> set[str]:
    """Every chat model provider named anywhere in the spec (inline subgraphs included)."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, ModelSettings):
            found.add(value.provider)
        elif isinstance(value, BaseModel):
            for field in type(value).model_fields:
                walk(getattr(value, field))
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(spec)
    return found - {"scripted"}


def requirements(code: str, spec: GraphSpec) -> tuple[list[str], list[str]]:
    """(requirements.txt lines, modules that are neither the standard library nor known)."""
    reqs: list[str] = [LANGGRAPH_PIN]
    unknown: list[str] = []
    files = files_by_path(code)
    for module in imported_modules(code):
        if module in files:  # a program file of the spec's, named like another module
            unknown.append(module)
        elif module in PACKAGES:
            reqs.append(PACKAGES[module])
        elif module.startswith("langchain_"):  # a provider imported directly
            reqs.append(module.replace("_", "-"))
        elif module not in sys.stdlib_module_names:
            unknown.append(module)
    providers = _providers(spec)
    if providers:  # init_chat_model("provider:model") lives in langchain; the provider beside it
        reqs.append(PACKAGES["langchain"])
        reqs += [PROVIDER_PACKAGES[p] for p in providers if p in PROVIDER_PACKAGES]
    return list(dict.fromkeys(reqs)), unknown


def _refusal(path: Path, root: Path) -> str | None:
    """Why `path` is not copied into the project, or None for a regular file in `root` (or a
    link to one there, copied as the file). Folders that are links are never followed."""
    if path.is_symlink():
        target = Path(os.path.realpath(path))  # a loop resolves without raising
        if not target.is_relative_to(root):
            return "a link that leads out of the spec's folder"
        if target.is_dir():
            return "a link to a folder"
        if not target.is_file():
            return "a link that leads nowhere or in a loop"
    elif not path.is_file():
        return "not a regular file"
    return None


def _copy_file(src: Path, dst: Path, root: Path, skipped: list[str]) -> bool:
    """Copy `src` unless refused; a refused file is named in `skipped` and never read."""
    if (why := _refusal(src, root)) is not None:
        skipped.append(f"{src.relative_to(root).as_posix()} ({why})")
        return False
    shutil.copyfile(src, dst)
    shutil.copystat(src, dst)
    return True


def _copy_package(src: Path, dst: Path, root: Path, skipped: list[str]) -> None:
    """Copy a package folder entry by entry, each through `_copy_file` or, for a folder, here."""
    dst.mkdir(exist_ok=True)
    for entry in sorted(src.iterdir()):
        if entry.name == "__pycache__":
            continue
        if entry.is_dir() and not entry.is_symlink():
            _copy_package(entry, dst / entry.name, root, skipped)
        else:
            _copy_file(entry, dst / entry.name, root, skipped)


def _copy_local(
    modules: Iterable[str], base_dir: Path, out: Path
) -> tuple[list[str], list[str], list[str]]:
    """Copy each module found beside the spec into the project, and the modules beside it
    that a copied file imports (a program's sibling helpers): (copied, not found, skipped
    links). Only what lies inside the spec's folder is read: a project is committed and
    deployed, so a link to ~/.ssh must not carry the key into it."""
    root = Path(os.path.realpath(base_dir))
    copied, missing, skipped = [], [], []
    wanted = list(modules)
    queue = list(wanted)
    while queue:
        name = queue.pop(0)
        file, package = root / f"{name}.py", root / name
        if file.is_file() or file.is_symlink():
            if _copy_file(file, out / file.name, root, skipped):
                copied.append(name)
                queue += [m for m in _imports_of(out / file.name) if m not in {*copied, *queue}]
        elif package.is_symlink() and (why := _refusal(package, root)) is not None:
            skipped.append(f"{name} ({why})")  # a package folder that is a link: never followed
        elif (package / "__init__.py").is_file():
            _copy_package(package, out / name, root, skipped)
            copied.append(name)
        elif name in wanted:  # what a copied file imports may be installed: only ours count
            missing.append(name)
    return copied, missing, skipped


def _imports_of(copy: Path) -> list[str]:
    """The modules a copied file imports, read from the copy (what is in the project)."""
    try:
        return imported_modules(copy.read_text(encoding="utf-8"))
    except (SyntaxError, ValueError, UnicodeDecodeError):
        return []


class Project(NamedTuple):
    written: list[Path]
    """The project's own files (the copied modules are named in its README)."""
    skipped: list[str]
    """Links and special files beside the spec that were not copied, relative to its folder."""


def write_project(spec: GraphSpec, code: str, out: Path, *, base_dir: Path, name: str) -> Project:
    """Write the project for `spec` (whose langgraph export is `code`) into `out`. `name` (the
    spec file's stem) names the graph on the server."""
    out.mkdir(parents=True, exist_ok=True)
    gid = graph_id(name)
    reqs, unknown = requirements(code, spec)
    copied, missing, skipped = _copy_local(unknown, base_dir, out)
    module = own_module(copied)
    config = {
        "$schema": "https://langgra.ph/schema.json",
        "dependencies": ["."],
        "graphs": {gid: f"./{module}:graph"},
        "python_version": "3.11",  # the oldest Python this project supports, as pyproject says
    }
    files = {
        module: code,
        "langgraph.json": json.dumps(config, indent=2) + "\n",
        "requirements.txt": "".join(f"{r}\n" for r in reqs),
        "README.md": _readme(spec, gid, module, copied, missing, skipped),
    }
    written = []
    for filename, text in files.items():
        (out / filename).write_text(text, encoding="utf-8")
        written.append(out / filename)
    return Project(written, skipped)


def own_module(copied: list[str]) -> str:
    """The file name of the project's own module: `graph.py`, unless the spec's code brought a
    module of that name (a program's sibling `graph.py`, or a `graph/` package, copied), which
    it must not overwrite nor hide from the program importing it."""
    stem, count, name = Path(MODULE).stem, 1, MODULE
    while Path(name).stem in copied:
        name, count = f"{stem}_export{count if count > 1 else ''}.py", count + 1
    return name


def _readme(
    spec: GraphSpec,
    gid: str,
    module: str,
    copied: list[str],
    missing: list[str],
    skipped: list[str],
) -> str:
    title = spec.name or gid
    local = ""
    if copied:
        local += f"\nCopied from beside the spec, for the code it imports: {', '.join(copied)}.\n"
    if missing:
        local += (f"\nThe spec's code imports {', '.join(missing)}, which is not beside the spec: "
                  "add it to this folder or to requirements.txt before running.\n")  # fmt: skip
    if skipped:
        local += f"\nNot copied from beside the spec: {', '.join(skipped)}.\n"
    return f"""# {title}

Exported by Superstep Studio as a LangGraph server project: `{module}` is plain langgraph code
(its `graph` is the compiled graph, with no checkpointer: the server brings its own), and
`langgraph.json` serves it as the graph `{gid}`.
{local}
## Run it on this machine

```sh
pip install -r requirements.txt "langgraph-cli[inmem]"
langgraph dev            # http://127.0.0.1:2024, threads kept in memory (add --no-browser)
```

Then, from Python (`pip install langgraph-sdk`):

```python
from langgraph_sdk import get_sync_client

client = get_sync_client(url="http://127.0.0.1:2024")
thread = client.threads.create()
print(client.runs.wait(thread["thread_id"], "{gid}", input={{}}))
```

An interrupt leaves the thread waiting; answer it with
`client.runs.wait(thread_id, "{gid}", command={{"resume": VALUE}})`.

## Run it with Postgres and Redis

`langgraph up` builds an image of this folder and starts it with a Postgres database (threads,
checkpoints, the store, the run queue) and Redis (streaming from background runs), by Docker
Compose. It needs Docker and a `LANGSMITH_API_KEY` (or a `LANGGRAPH_CLOUD_LICENSE_KEY`) in the
environment or a `.env` file here:

```sh
langgraph up             # http://localhost:8123
```

To run on your own Postgres and Redis instead, build the image and pass their addresses:

```sh
langgraph build -t {gid.replace("_", "-")}
docker run -p 8123:8000 -e DATABASE_URI=postgres://... -e REDIS_URI=redis://... \\
    -e LANGSMITH_API_KEY=... {gid.replace("_", "-")}
```
"""


__all__ = [
    "Project",
    "graph_id",
    "imported_modules",
    "own_module",
    "requirements",
    "write_project",
]
