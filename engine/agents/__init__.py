"""The agent layer: `create_agent` and its middleware, mirroring `langchain.agents`."""

from engine.agents.factory import create_agent
from engine.agents.middleware.types import AgentState

__all__ = ["AgentState", "create_agent"]
