"""Small builders for spec documents in tests."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from graphspec.export import to_langgraph
from graphspec.io import read_spec, spec_from_dict
from graphspec.model import GraphSpec

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
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


def load_exported(spec: GraphSpec, tmp_path: Path, name: str) -> ModuleType:
    """The spec exported to LangGraph code and imported as a fresh module."""
    path = tmp_path / f"exported_{name}.py"
    path.write_text(to_langgraph(spec), encoding="utf-8")
    module_name = f"superstep_exported_{name}_{id(tmp_path)}"
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module
    module_spec.loader.exec_module(module)
    return module


def fresh_process(code: str) -> str:
    """The last line `python -c CODE` prints, in a new process with this checkout first on the
    path (what a module loads at import shows only in a process that had not loaded it)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]
