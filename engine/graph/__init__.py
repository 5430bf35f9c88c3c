"""langgraph.graph's names. StateGraph loads with the package; the compiled graph (the Pregel
runtime, a langchain_core Runnable) and the messages helpers (langchain_core.messages) load on
first use (PEP 562), so building a graph does not pay for them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine._constants import END, START
from engine._lazy import lazy_names
from engine.graph.state import StateGraph

if TYPE_CHECKING:
    from engine.graph.compiled import CompiledStateGraph
    from engine.graph.message import MessageGraph, MessagesState, add_messages

_LAZY = {
    "CompiledStateGraph": "engine.graph.compiled",
    "MessagesState": "engine.graph.message",
    "MessageGraph": "engine.graph.message",
    "add_messages": "engine.graph.message",
}


__getattr__ = lazy_names(__name__, _LAZY, globals())


__all__ = [
    "END",
    "START",
    "StateGraph",
    "CompiledStateGraph",
    "MessagesState",
    "add_messages",
    "MessageGraph",
]
