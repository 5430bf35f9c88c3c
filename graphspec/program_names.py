"""A program file's module name, when its file name is no Python name.

`langgraph dev` loads a graph by path (`"./09_subgraph.py:main"`, `"./my-agent.py:graph"`), so
a program file need not be named as a module. Such a file is imported under its stem made a
name (`_09_subgraph`, `my_agent`; a Chinese name stays: `10.graph-Edge-条件边.py` is
`_10_graph_Edge_条件边`), so the spec's import paths (`module:attr`, identifiers) can name its
functions and a later run, which loads `module_file` first, resolves them again. The exported
code imports the file by its own name, as `import_module("09_subgraph")` finds it (by path when
a dot in the name would be read as a package's), and gives it the module name the import paths
use (`alias_line`).

A program file named as another module (`json.py`, `random.py`, `queue.py` beside the program,
or a second `graph.py` from another folder) must not replace that module in sys.modules: the
standard library's `random` would become the program, in the studio's process and in the
program itself (its own `import random`). It takes a name no other module holds (`random_program`),
and the export loads it by path, from beside the exported module, under that name.
"""

from __future__ import annotations

import keyword
import re
import sys
import unicodedata
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any


def is_module_name(stem: str) -> bool:
    """Whether `stem` can be written as a module in `from stem import ...`: an identifier (a
    Chinese one too: `条件边`) of letters no normal form changes (`_kept`)."""
    return stem.isidentifier() and not keyword.iskeyword(stem) and all(map(_kept, stem))


def _kept(char: str) -> bool:
    """Whether a module name keeps `char`: a letter, digit or `_` that Python's NFKC reading of
    identifiers keeps (`ｆ` is read `f`, so `from ｆ import` would look for another module) and
    a file system's NFD names keep (macOS writes `é` as `e` and an accent, Hangul as jamo, and
    the import system would not find the file by the name)."""
    return ("_" + char).isidentifier() and unicodedata.normalize(
        "NFKC", char
    ) == char == unicodedata.normalize("NFD", char)


def module_name(path: str | Path, folder: str | Path | None = None) -> str:
    """The module name the program file `path` (relative to `folder`, else to the working
    directory) is imported under: its stem, or the stem made a name (each other character `_`,
    a `_` before a leading digit or a keyword); `_program` added while another module holds it."""
    file = (Path(folder or ".") / path).resolve()
    base = _as_name(file.stem)
    name, count = base, 1
    while _taken(name, file):
        name, count = f"{base}_program{count if count > 1 else ''}", count + 1
    return name


def _as_name(stem: str) -> str:
    if is_module_name(stem):
        return stem
    name = "".join(c if _kept(c) else "_" for c in stem) or "_"
    return name if is_module_name(name) else f"_{name}"


def _taken(name: str, file: Path) -> bool:
    """Whether `name` is another module's than the program file `file`: one loaded from
    elsewhere (or built in), or one an import finds on sys.path outside the program's folder."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        return getattr(loaded, "__file__", None) != str(file)
    if name in sys.builtin_module_names:
        return True
    paths = [p for p in sys.path if Path(p or ".").resolve() != file.parent]
    found = PathFinder.find_spec(name, paths)
    # a folder without __init__.py (a namespace package, no loader: `agent/` around agent.py)
    # never hides a module of its name: the import system takes the module
    return found is not None and found.loader is not None


def spec_module_name(spec: Any, folder: str | Path | None = None) -> str | None:
    """The module name the import paths of `spec` (made from the program its `module_file`
    names, relative to `folder`) give the program: the one with `_program` they use, as
    `module_name` chose it where the spec was made (in another process another module may have
    held the name), else the one `module_name` gives now; None without a module_file."""
    if spec.module_file is None:
        return None
    file = (Path(folder or ".") / spec.module_file).resolve()
    base = _as_name(file.stem)
    used = set(re.findall(rf"\b{re.escape(base)}_program\d*\b", spec.model_dump_json()))
    if len(used) == 1 and not _taken(name := used.pop(), file):
        return name
    return module_name(file)


def file_modules(spec: Any, folder: str | Path | None = None) -> dict[str, str]:
    """{module name: the file's stem} for a spec's `module_file` (relative to `folder`) imported
    under another name than its stem (no module name, or another module's)."""
    name = spec_module_name(spec, folder)
    stem = Path(spec.module_file).stem if spec.module_file is not None else None
    return {} if name is None or name == stem else {name: stem}


def alias_line(module: str, stem: str) -> str:
    """The exported line(s) that import the file `stem`.py under the module name the spec's
    import paths use: by its own name from sys.path, as `from M import` would find it; by path,
    from beside the exported module, when its name is another module's."""
    if not is_module_name(stem) and "." not in stem:
        return (f"sys.modules.setdefault({module!r}, import_module({stem!r}))"
                f"  # {stem}.py: its file name is no module name")  # fmt: skip
    # a dot in `11.graph-Edge.py` would be read as a package's: such a file is loaded by path too
    why = "a dot in its name" if "." in stem else f"{stem} is another module's name"
    at = f"Path(__file__).with_name({f'{stem}.py'!r})"
    return (f"# {stem}.py: {why}, so it is imported by path\n"
            f"sys.modules[{module!r}] = module_from_spec(spec_from_file_location({module!r}, {at}))\n"
            f"sys.modules[{module!r}].__spec__.loader.exec_module(sys.modules[{module!r}])")  # fmt: skip


__all__ = ["alias_line", "file_modules", "is_module_name", "module_name", "spec_module_name"]
