"""langgraph.graph's names. StateGraph loads with the package; the compiled graph (the Pregel
runtime, a langchain_core Runnable) and the messages helpers (langchain_core.messages) load on
first use (PEP 562), so building a graph does not pay for them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine._constants import END, START
from engine.graph.state import StateGraph

if TYPE_CHECKING:
    from engine.graph.compiled import CompiledStateGraph
    from engine.graph.message import MessagesState, add_messages

_LAZY = {
    "CompiledStateGraph": "engine.graph.compiled",
    "MessagesState": "engine.graph.message",
    "add_messages": "engine.graph.message",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'engine.graph' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


__all__ = ["END", "START", "StateGraph", "CompiledStateGraph", "MessagesState", "add_messages"]
