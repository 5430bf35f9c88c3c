"""The bundled template gallery: `templates/*.json`, each a spec with a name and description."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from spec.io import read_spec

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"


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


__all__ = ["Template", "TEMPLATES_DIR", "list_templates", "resolve"]
