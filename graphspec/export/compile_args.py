"""What the exported `compile_graph()` passes to compile besides breakpoints: the in-memory
checkpointer, store and cache the spec records (an imported program's), with their imports."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphspec.model import CodeRef, GraphSpec

if TYPE_CHECKING:
    from graphspec.export.python_module import PythonModule

RUNTIME_IMPORTS = [
    "from langgraph.store.memory import InMemoryStore",
    "from langgraph.cache.memory import InMemoryCache",
    "from langgraph.checkpoint.memory import InMemorySaver",
]
"""The imports `compile_graph` may need; reserved in every export like the optional ones."""


def compile_parts(spec: GraphSpec, module: PythonModule) -> tuple[str, dict[str, str]]:
    """(lines defaulting the checkpointer, compile keyword -> its source); their imports go to
    `module`."""
    need = module.need
    default, extra = "", {}
    if spec.store_path is not None:  # the program's own store, with its data
        extra["store"] = module.code(CodeRef(import_path=spec.store_path), "store")
    elif spec.store == "memory":
        need(RUNTIME_IMPORTS[0])
        extra["store"] = "InMemoryStore()"
    if spec.cache == "memory":
        need(RUNTIME_IMPORTS[1])
        extra["cache"] = "InMemoryCache()"
    if spec.checkpointer == "memory":  # the caller's saver wins, as the studio passes its own
        need(RUNTIME_IMPORTS[2])
        default = "    if checkpointer is None:\n        checkpointer = InMemorySaver()\n"
    return default, extra


__all__ = ["RUNTIME_IMPORTS", "compile_parts"]
