from langgraph_supervisor.handoff import (
    create_forward_message_tool,
    create_handoff_tool,
)
from langgraph_supervisor.supervisor import create_supervisor

__all__ = ["create_supervisor", "create_handoff_tool", "create_forward_message_tool"]
