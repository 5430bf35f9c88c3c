"""Prebuilt agents and tools (langgraph.prebuilt): create_react_agent, ToolNode, tools_condition,
ValidationNode."""

from engine.prebuilt.chat_agent_executor import create_react_agent
from engine.prebuilt.tool_node import (
    InjectedState,
    InjectedStore,
    ToolNode,
    ToolRuntime,
    tools_condition,
)
from engine.prebuilt.tool_validator import ValidationNode

__all__ = [
    "InjectedState",
    "InjectedStore",
    "ToolNode",
    "ToolRuntime",
    "ValidationNode",
    "create_react_agent",
    "tools_condition",
]
