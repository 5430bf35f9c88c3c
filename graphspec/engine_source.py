"""Load a LangGraph program on the embedded engine: its source with `langgraph` (and
`langchain.agents`) imports pointed at `engine`, the engine's promise being that this is the only
change a program needs. The file on disk is never written (no bytecode cache either, so a later
plain import of the same file still gets langgraph)."""

from __future__ import annotations

import importlib.abc
import re
from pathlib import Path
from typing import Any

from graphspec.program_code import compile_user_code

_REWRITES = [
    (re.compile(r"^(\s*)(from|import) langgraph\b", re.M), r"\1\2 engine"),
    (re.compile(r"^(\s*)(from|import) langchain\.agents\b", re.M), r"\1\2 engine.agents"),
]


def engine_source(source: str) -> str:
    """`source` with its langgraph and langchain.agents imports pointed at the engine."""
    for pattern, replacement in _REWRITES:
        source = pattern.sub(replacement, source)
    return source


class EngineLoader(importlib.abc.Loader):
    """Runs a file's source through `engine_source`; `importlib.reload` reads the file again."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)

    def create_module(self, spec: Any) -> None:
        return None  # the default module object

    def exec_module(self, module: Any) -> None:
        from graphspec.engine_world import on_engine

        source = Path(self.path).read_text(encoding="utf-8")
        # the packages it imports that are built on langgraph (deepagents) load on the engine too
        with on_engine():
            code = compile_user_code(engine_source(source), self.path)
            exec(code, module.__dict__)  # noqa: S102


__all__ = ["EngineLoader", "engine_source"]
