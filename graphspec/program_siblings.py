"""A program's own modules before another program's of the same name.

The programs a session opens are imported into one process. A second program's `from graph
import X` (its own graph.py beside it) would find the first program's `graph` in sys.modules and
fail, or run the other program's code. So before a program loads, the modules an earlier
program loaded from its folders are forgotten where the new program's folders hold a module of
the same name (sys.modules only: the earlier program keeps the module objects it imported).
Nothing installed (the standard library, site-packages) and nothing of this application is
ever forgotten.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

_program_folders: set[Path] = set()
"""The folders programs were loaded from, with their sibling imports."""


def make_way(folders: Iterable[str | Path]) -> None:
    """Forget the earlier programs' modules that `folders`' own modules of the same name would
    be shadowed by, then remember `folders` as a program's."""
    mine = [Path(f).resolve() for f in folders]
    protected = _protected()
    for name in {name for folder in mine for name in _module_names(folder)}:
        file = getattr(sys.modules.get(name), "__file__", None)
        if file is None:
            continue
        where = Path(file).resolve()
        if _inside(where, mine) or _inside(where, protected):
            continue
        if _inside(where, _program_folders):
            for key in [k for k in sys.modules if k == name or k.startswith(f"{name}.")]:
                del sys.modules[key]
    _program_folders.update(mine)


def _module_names(folder: Path) -> set[str]:
    """The top-level modules `folder` holds: its .py files and packages."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return set()
    names = {e.stem for e in entries if e.suffix == ".py" and e.stem.isidentifier()}
    names |= {e.name for e in entries if e.name.isidentifier() and (e / "__init__.py").is_file()}
    return names


def _protected() -> list[Path]:
    """Where installed code and this application's own code live."""
    roots = {Path(sys.prefix), Path(sys.base_prefix), Path(__file__).parent.parent}
    return [root.resolve() for root in roots]


def _inside(path: Path, folders: Iterable[Path]) -> bool:
    return any(path.is_relative_to(folder) for folder in folders)


__all__ = ["make_way"]
