"""What the exported `compile_graph()` passes to compile besides breakpoints: the in-memory
checkpointer, store and cache the spec records (an imported program's), with their imports."""

from __future__ import annotations

from graphspec.model import GraphSpec

RUNTIME_IMPORTS = [
    "from langgraph.store.memory import InMemoryStore",
    "from langgraph.cache.memory import InMemoryCache",
    "from langgraph.checkpoint.memory import InMemorySaver",
]
"""The imports `compile_graph` may need; reserved in every export like the optional ones."""


def compile_parts(spec: GraphSpec, need: object) -> tuple[str, str]:
    """(lines defaulting the checkpointer, extra compile keywords); `need` adds an import."""
    default, extra = "", ""
    if spec.store == "memory":
        need(RUNTIME_IMPORTS[0])  # type: ignore[operator]
        extra += ", store=InMemoryStore()"
    if spec.cache == "memory":
        need(RUNTIME_IMPORTS[1])  # type: ignore[operator]
        extra += ", cache=InMemoryCache()"
    if spec.checkpointer == "memory":  # the caller's saver wins, as the studio passes its own
        need(RUNTIME_IMPORTS[2])  # type: ignore[operator]
        default = "    if checkpointer is None:\n        checkpointer = InMemorySaver()\n"
    return default, extra


__all__ = ["RUNTIME_IMPORTS", "compile_parts"]
