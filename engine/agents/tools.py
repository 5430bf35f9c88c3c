"""Tool helpers re-exported as in `langchain.tools`."""

from langchain_core.tools import BaseTool, InjectedToolArg, InjectedToolCallId, ToolException, tool

from engine.prebuilt.tool_node import InjectedState, InjectedStore, ToolNode, ToolRuntime

__all__ = [
    "BaseTool",
    "InjectedState",
    "InjectedStore",
    "InjectedToolArg",
    "InjectedToolCallId",
    "ToolException",
    "ToolNode",
    "ToolRuntime",
    "tool",
]
