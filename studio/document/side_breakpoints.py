"""Where a graph from code keeps its breakpoints: its program is never written, so they live in
the studio's folder (`breakpoints/`), one small JSON file per program file and graph name,
written on each change and read when the program is opened (or reloaded) again. A graph handed
over live (`debug(graph)`) has no file: its breakpoints last as long as the window.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from pydantic import ValidationError

from graphspec.breakpoints import ANY_NODE, kept, listed
from graphspec.model import Breakpoints, GraphSpec
from studio.document.graph_document import FromCode
from studio.i18n import translate
from studio.paths import studio_home


def side_path(code: FromCode) -> Path | None:
    if code.source is None:
        return None
    key = hashlib.sha256(f"{Path(code.source).resolve()}:{code.name}".encode()).hexdigest()[:20]
    return studio_home() / "breakpoints" / f"{key}.json"


def restored(code: FromCode, drawing: GraphSpec) -> GraphSpec:
    """The drawing with the breakpoints kept for its program (those on nodes it still has)."""
    path = side_path(code)
    if path is None or not path.is_file():
        return drawing
    try:
        found = Breakpoints.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, ValidationError):  # unreadable or hand-edited: start without
        return drawing
    names = {n.id for n in drawing.nodes} | {ANY_NODE}
    points = [p for p in listed(found) if p.node in names]
    return drawing.model_copy(update={"breakpoints": kept(points)})


def keep(code: FromCode, breakpoints: Breakpoints) -> str | None:
    """Write them for the next opening; None, or why they could not be kept."""
    path = side_path(code)
    if path is None:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(breakpoints.model_dump(mode="json", exclude_defaults=True), indent=2)
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        return translate(
            "document.side_breakpoints", "Cannot keep the breakpoints of {where} in {path}: {exc}"
        ).format(where=code.where, path=path, exc=exc)
    return None
