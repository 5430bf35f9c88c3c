"""The bundled template gallery: specs with a name and description.

An installed copy reads them from package data (`graphspec/templates_data/`, which the build copies
from the repository's `templates/`); a source checkout or editable install reads `templates/`.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

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


def list_templates(directory: Path = TEMPLATES_DIR) -> list[Template]:
    out = []
    for path in sorted(directory.glob("*.json")):
        spec = read_spec(path)
        out.append(Template(path.stem, spec.name or path.stem, spec.description, path))
    return out


def resolve(name_or_path: str, directory: Path = TEMPLATES_DIR) -> Path:
    """A spec path as given, or the bundled template of that name when no such file exists."""
    path = Path(name_or_path)
    if path.exists() or path.suffix == ".json":
        return path
    bundled = directory / f"{name_or_path}.json"
    return bundled if bundled.exists() else path


__all__ = ["Template", "TEMPLATES_DIR", "list_templates", "resolve", "templates_dir"]
