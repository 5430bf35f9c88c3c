"""A program file's module name, when its file name is no Python name.

`langgraph dev` loads a graph by path (`"./09_subgraph.py:main"`, `"./my-agent.py:graph"`), so
a program file need not be named as a module. Such a file is imported under its stem made a
name (`_09_subgraph`, `my_agent`), so the spec's import paths (`module:attr`, identifiers) can
name its functions and a later run, which loads `module_file` first, resolves them again. The
exported code imports the file by its own name, as `import_module("09_subgraph")` finds it,
and gives it the module name the import paths use (`alias_line`).
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path


def is_module_name(stem: str) -> bool:
    """Whether `stem` can be written as a module in `from stem import ...`."""
    return stem.isascii() and stem.isidentifier() and not keyword.iskeyword(stem)


def module_name(path: str | Path) -> str:
    """The module name the program file `path` is imported under: its stem, or the stem made a
    name (each other character `_`, a `_` before a leading digit or a keyword)."""
    stem = Path(path).stem
    if is_module_name(stem):
        return stem
    name = re.sub(r"\W", "_", stem, flags=re.ASCII) or "_"
    return name if is_module_name(name) else f"_{name}"


def file_modules(module_file: str | None) -> dict[str, str]:
    """{module name: the file's stem} for a spec's `module_file` whose stem is no module name."""
    if module_file is None or is_module_name(stem := Path(module_file).stem):
        return {}
    return {module_name(module_file): stem}


def alias_line(module: str, stem: str) -> str:
    """The exported line that imports the file `stem`.py (from sys.path, as `from M import`
    would) under the module name the spec's import paths use."""
    return f"sys.modules.setdefault({module!r}, import_module({stem!r}))"


__all__ = ["alias_line", "file_modules", "is_module_name", "module_name"]
