"""Prebuilt agents and tools (langgraph.prebuilt): create_react_agent, ToolNode, tools_condition."""

from engine.prebuilt.chat_agent_executor import create_react_agent
from engine.prebuilt.tool_node import (
    InjectedState,
    InjectedStore,
    ToolNode,
    ToolRuntime,
    tools_condition,
)

__all__ = [
    "InjectedState",
    "InjectedStore",
    "ToolNode",
    "ToolRuntime",
    "create_react_agent",
    "tools_condition",
]
