"""Agent middleware, mirroring `langchain.agents.middleware`."""

from engine.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ExtendedModelResponse,
    InputAgentState,
    ModelCallResult,
    ModelRequest,
    ModelResponse,
    OutputAgentState,
    ToolCallRequest,
    after_agent,
    after_model,
    before_agent,
    before_model,
    dynamic_prompt,
    hook_config,
    wrap_model_call,
    wrap_tool_call,
)
from engine.runtime import Runtime

__all__ = [
    "AgentMiddleware",
    "AgentState",
    "ExtendedModelResponse",
    "InputAgentState",
    "ModelCallResult",
    "ModelRequest",
    "ModelResponse",
    "OutputAgentState",
    "Runtime",
    "ToolCallRequest",
    "after_agent",
    "after_model",
    "before_agent",
    "before_model",
    "dynamic_prompt",
    "hook_config",
    "wrap_model_call",
    "wrap_tool_call",
]
