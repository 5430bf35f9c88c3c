"""The local Python files a program runs: its own file and, found statically with `ast` (nothing
is imported), every .py file under its folder that it imports, directly or through another.

A spec made from a program (`module_file`) runs that file with its folder on sys.path, so
`import helper`, `from pkg.mod import f` and `from . import sibling` reach files beside it; trust
hashes them all (`graphspec.trust`), so a change to any of them asks again. Imports built at run
time (`importlib.import_module(name)`) cannot be seen here.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any

from graphspec.model import portable_path

MAX_FILES = 500
"""The most files followed: bounds the work a hostile folder tree can cause."""


def _candidates(folder: Path, dotted: str) -> list[Path]:
    """The files importing `dotted` from `folder` runs: each package's __init__ and the module."""
    found: list[Path] = []
    here = folder
    for part in dotted.split(".") if dotted else []:
        here = here / part
        found += [here / "__init__.py", here.with_suffix(".py")]
    return found


def _imports(path: Path, root: Path) -> list[Path]:
    """The files under `root` that the module at `path` may import."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (OSError, SyntaxError, ValueError, RecursionError):  # its own bytes are hashed still
        return []
    found: list[Path] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found += _candidates(root, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the importing file's package folder, up level - 1
                base = path.parent
                for _ in range(node.level - 1):
                    base = base.parent
            else:
                base = root
            module = node.module or ""
            found += _candidates(base, module)
            package = base.joinpath(*module.split(".")) if module else base
            found += [package / f"{alias.name}.py" for alias in node.names]  # submodules
            found += [package / alias.name / "__init__.py" for alias in node.names]
    return found


def local_files(module_file: Path) -> list[Path]:
    """`module_file` and the .py files under its folder it imports, each once, resolved."""
    start = module_file.resolve()
    root = start.parent
    seen: dict[Path, None] = {start: None}
    queue = [start]
    while queue and len(seen) < MAX_FILES:
        for candidate in _imports(queue.pop(0), root):
            if not candidate.is_relative_to(root) or not candidate.is_file():
                continue
            path = candidate.resolve()  # a link out of the folder: the file it runs is hashed
            if path in seen:
                continue
            seen[path] = None
            queue.append(path)
    return list(seen)


def naming_program(spec: Any, program: Path | None, folder: Path) -> Any:
    """`spec`, made from the program file `program`, naming it in `module_file` relative to
    `folder` (where the spec is written), so a later run loads it before resolving the import
    paths; `spec` itself when it names one already or was made from none."""
    if program is None or spec.module_file is not None:
        return spec
    try:
        where = os.path.relpath(program.resolve(), folder.resolve())
    except ValueError:  # another drive (Windows): no relative path leads there
        where = str(program.resolve())
    return spec.model_copy(update={"module_file": portable_path(where)})


__all__ = ["local_files", "naming_program"]
