"""Where a project's own packages import from, as `pip install -e .` of it would make them
importable: `langgraph dev` serves a project its user installed, and most projects (langgraph's
own templates among them) keep their package under `src/`, naming it in pyproject.toml.

Only pyproject.toml is read (data, nothing imported). The folders found are the roots a
package's import resolves from: setuptools' `package-dir`, `packages.find`'s `where`, poetry's
`from`, hatch's wheel `packages`; with none of them, a `src/` folder (setuptools' and uv's
default layout) where the packages are not named. A mapping that renames a package (`"a.b" =
"src/b"`) cannot be made by a folder on sys.path and is left out; so is a folder outside the
project.
"""

from __future__ import annotations

import tomllib
from pathlib import Path, PurePosixPath
from typing import Any

MAX_PYPROJECT_BYTES = 1_000_000


def package_roots(folder: Path) -> tuple[Path, ...]:
    """The import roots under `folder` its pyproject.toml (or its layout) installs packages
    from, other than `folder` itself; existing folders inside it only."""
    tool = _pyproject(folder).get("tool")
    tool = tool if isinstance(tool, dict) else {}
    named = [*_setuptools_roots(tool.get("setuptools")), *_poetry_roots(tool.get("poetry")),
             *_hatch_roots(tool.get("hatch"))]  # fmt: skip
    if not named and not _configured(tool) and (folder / "src").is_dir():
        named = ["src"]
    roots: list[Path] = []
    for name in named:
        root = (folder / name).resolve()
        inside = root.is_relative_to(folder.resolve()) and root != folder.resolve()
        if root.is_dir() and inside and root not in roots:
            roots.append(root)
    return tuple(roots)


def _pyproject(folder: Path) -> dict[str, Any]:
    file = folder / "pyproject.toml"
    try:
        if not file.is_file() or file.stat().st_size > MAX_PYPROJECT_BYTES:
            return {}
        return tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # unreadable: as if it named no package folder
        return {}


def _configured(tool: dict) -> bool:
    """Whether the packages are named explicitly (then no layout is guessed)."""
    setuptools, poetry = tool.get("setuptools"), tool.get("poetry")
    return (isinstance(setuptools, dict) and bool({"package-dir", "packages"} & set(setuptools))
            or isinstance(poetry, dict) and "packages" in poetry)  # fmt: skip


def _setuptools_roots(table: Any) -> list[str]:
    if not isinstance(table, dict):
        return []
    roots = []
    mapping = table.get("package-dir")
    for name, where in mapping.items() if isinstance(mapping, dict) else ():
        if not isinstance(where, str):
            continue
        if name == "":  # every package under `where`
            roots.append(where)
        elif "." not in name and PurePosixPath(where).name == name:
            roots.append(str(PurePosixPath(where).parent))
    find = table.get("packages")
    find = find.get("find") if isinstance(find, dict) else None
    where = find.get("where") if isinstance(find, dict) else None
    roots += [w for w in ([where] if isinstance(where, str) else where or []) if isinstance(w, str)]
    return roots


def _poetry_roots(table: Any) -> list[str]:
    packages = table.get("packages") if isinstance(table, dict) else None
    return [p["from"] for p in packages or () if isinstance(p, dict)
            and isinstance(p.get("from"), str)]  # fmt: skip


def _hatch_roots(table: Any) -> list[str]:
    wheel = table if isinstance(table, dict) else {}
    for key in ("build", "targets", "wheel"):
        wheel = wheel.get(key) if isinstance(wheel, dict) else None
    packages = wheel.get("packages") if isinstance(wheel, dict) else None
    return [str(PurePosixPath(p).parent) for p in packages or () if isinstance(p, str)]


__all__ = ["package_roots"]
