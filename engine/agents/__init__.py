"""The agent layer: `create_agent` and its middleware, mirroring `langchain.agents`.

The names load on first use (PEP 562): `engine.agents.hooks` is read by the spec model on every
`superstep` command, and should not pull in langchain_core's messages and the tool node.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.agents.factory import create_agent
    from engine.agents.middleware.types import AgentState

_LAZY = {"create_agent": "engine.agents.factory", "AgentState": "engine.agents.middleware.types"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'engine.agents' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


__all__ = ["AgentState", "create_agent"]
