"""The bundled template gallery: specs with a name and description.

An installed copy reads them from package data (`graphspec/templates_data/`, which the build copies
from the repository's `templates/`); a source checkout or editable install reads `templates/`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from graphspec.errors import SpecError
from graphspec.io import read_spec

SOURCE_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
"""The folder users see and edit in the repository."""


def templates_dir() -> Path:
    """Where the bundled templates are: the installed package data, else the source tree's."""
    bundled = resources.files("graphspec") / "templates_data"
    if isinstance(bundled, Path) and bundled.is_dir():
        return bundled
    return SOURCE_TEMPLATES


TEMPLATES_DIR = templates_dir()


@dataclass(frozen=True)
class Template:
    name: str
    """The file stem: what `superstep run NAME` accepts."""
    title: str
    description: str
    path: Path


def _bare_name(text: str) -> bool:
    """No folder and no extension: how `superstep run NAME` names a bundled template."""
    seps = {"/", os.sep, os.altsep} - {None}
    return bool(text) and not any(sep in text for sep in seps) and not Path(text).suffix


def list_templates(directory: Path = TEMPLATES_DIR) -> list[Template]:
    """The specs in `directory` a bare name can run. Anything else there (a run's
    `NAME.checkpoints.sqlite.threads.json`, a broken file) is passed over: listing never fails."""
    out = []
    for path in sorted(directory.glob("*.json")):
        if not _bare_name(path.stem):
            continue
        try:
            spec = read_spec(path)
        except (SpecError, OSError):
            continue
        out.append(Template(path.stem, spec.name or path.stem, spec.description, path))
    return out


def is_bundled(path: Path | str) -> bool:
    """Whether `path` is a file of the bundled templates folder (the installed one or the source
    tree's), which the studio only reads: it opens them as untitled copies and saves elsewhere."""
    folder = Path(path).resolve().parent
    return any(folder == d.resolve() for d in {TEMPLATES_DIR, SOURCE_TEMPLATES})


def resolve(name_or_path: str, directory: Path = TEMPLATES_DIR) -> Path:
    """The bundled template a bare name (`react_agent`) names; anything else, or a bare name no
    template has, is a path as given (`./react_agent`, `react_agent.json`). A file in the
    current folder never silently replaces a template (`shadowed_file` names it)."""
    if _bare_name(name_or_path):
        bundled = directory / f"{name_or_path}.json"
        if bundled.is_file():
            return bundled
    return Path(name_or_path)


def shadowed_file(name_or_path: str, directory: Path = TEMPLATES_DIR) -> Path | None:
    """The file of that bare name in the current folder, when the template was taken over it."""
    path = Path(name_or_path)
    return path if resolve(name_or_path, directory) != path and path.exists() else None


__all__ = [
    "Template",
    "TEMPLATES_DIR",
    "is_bundled",
    "list_templates",
    "resolve",
    "shadowed_file",
    "templates_dir",
]
