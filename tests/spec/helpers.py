"""Small builders for spec documents in tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spec.io import read_spec, spec_from_dict
from spec.model import GraphSpec

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
TEMPLATE_NAMES = sorted(p.stem for p in TEMPLATES.glob("*.json"))


def template(name: str) -> GraphSpec:
    return read_spec(TEMPLATES / f"{name}.json")


def setter(node_id: str, **values: str) -> dict[str, Any]:
    return {"id": node_id, "kind": "set_state", "values": values}


def graph(**doc: Any) -> GraphSpec:
    return spec_from_dict(doc)


def write_spec(directory: Path, name: str = "spec.json", **doc: Any) -> Path:
    """A spec document written as given (not validated), with the current version."""
    path = directory / name
    path.write_text(json.dumps({"version": 2, **doc}), encoding="utf-8")
    return path
