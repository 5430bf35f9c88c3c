from langgraph_swarm.handoff import create_handoff_tool
from langgraph_swarm.swarm import SwarmState, add_active_agent_router, create_swarm

__all__ = [
    "SwarmState",
    "add_active_agent_router",
    "create_handoff_tool",
    "create_swarm",
]
