"""`export(spec, fmt)`: the writer a format name picks, as the command line and the studio ask."""

from __future__ import annotations

import json
import os

from graphspec.errors import SpecError
from graphspec.export.json_schema import state_json_schema
from graphspec.export.langgraph_code import to_langgraph
from graphspec.export.mermaid import to_mermaid
from graphspec.model import GraphSpec


def export(spec: GraphSpec, fmt: str, base_dir: str | os.PathLike[str] | None = None) -> str:
    if fmt == "langgraph":
        return to_langgraph(spec, base_dir)
    if fmt == "mermaid":
        return to_mermaid(spec)
    if fmt == "json-schema":
        return json.dumps(state_json_schema(spec), indent=2, ensure_ascii=False) + "\n"
    raise SpecError(f"unknown export format {fmt!r}")


__all__ = ["export"]
