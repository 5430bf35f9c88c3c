"""The agent layer: `create_agent` and its middleware, mirroring `langchain.agents`.

The names load on first use (PEP 562): `engine.agents.hooks` is read by the spec model on every
`superstep` command, and should not pull in langchain_core's messages and the tool node.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine._lazy import lazy_names

if TYPE_CHECKING:
    from engine.agents.factory import create_agent
    from engine.agents.middleware.types import AgentState

_LAZY = {"create_agent": "engine.agents.factory", "AgentState": "engine.agents.middleware.types"}


__getattr__ = lazy_names(__name__, _LAZY, globals())


__all__ = ["AgentState", "create_agent"]
