"""Agent middleware, mirroring `langchain.agents.middleware`."""

from engine.agents.middleware.auto_mode import AutoModeMiddleware
from engine.agents.middleware.context_editing import ClearToolUsesEdit, ContextEditingMiddleware
from engine.agents.middleware.file_search import FilesystemFileSearchMiddleware
from engine.agents.middleware.human_in_the_loop import HumanInTheLoopMiddleware, InterruptOnConfig
from engine.agents.middleware.model_call_limit import ModelCallLimitMiddleware
from engine.agents.middleware.model_fallback import ModelFallbackMiddleware
from engine.agents.middleware.model_refusal import ModelRefusalMiddleware
from engine.agents.middleware.model_retry import ModelRetryMiddleware
from engine.agents.middleware.model_router import ModelChoice, ModelRouterMiddleware
from engine.agents.middleware.pii import PIIDetectionError, PIIMatch, PIIMiddleware
from engine.agents.middleware.provider_tool_search import ProviderToolSearchMiddleware
from engine.agents.middleware.shell_tool import (
    CodexSandboxExecutionPolicy,
    DockerExecutionPolicy,
    HostExecutionPolicy,
    RedactionRule,
    ShellToolMiddleware,
)
from engine.agents.middleware.summarization import SummarizationMiddleware, TriggerClause
from engine.agents.middleware.todo import TodoListMiddleware
from engine.agents.middleware.tool_call_limit import ToolCallLimitMiddleware
from engine.agents.middleware.tool_emulator import LLMToolEmulator
from engine.agents.middleware.tool_error import ToolErrorMiddleware
from engine.agents.middleware.tool_retry import ToolRetryMiddleware
from engine.agents.middleware.tool_selection import LLMToolSelectorMiddleware
from engine.agents.middleware.trace_policy import configure_trace_policy
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
    TracePolicy,
    after_agent,
    after_model,
    before_agent,
    before_model,
    dynamic_prompt,
    hook_config,
    omit_payload,
    wrap_model_call,
    wrap_tool_call,
)
from engine.runtime import Runtime

__all__ = [
    "AgentMiddleware",
    "AgentState",
    "AutoModeMiddleware",
    "ClearToolUsesEdit",
    "CodexSandboxExecutionPolicy",
    "ContextEditingMiddleware",
    "DockerExecutionPolicy",
    "ExtendedModelResponse",
    "FilesystemFileSearchMiddleware",
    "HostExecutionPolicy",
    "HumanInTheLoopMiddleware",
    "InputAgentState",
    "InterruptOnConfig",
    "LLMToolEmulator",
    "LLMToolSelectorMiddleware",
    "ModelCallLimitMiddleware",
    "ModelCallResult",
    "ModelChoice",
    "ModelFallbackMiddleware",
    "ModelRefusalMiddleware",
    "ModelRequest",
    "ModelResponse",
    "ModelRetryMiddleware",
    "ModelRouterMiddleware",
    "OutputAgentState",
    "PIIDetectionError",
    "PIIMatch",
    "PIIMiddleware",
    "ProviderToolSearchMiddleware",
    "RedactionRule",
    "Runtime",
    "ShellToolMiddleware",
    "SummarizationMiddleware",
    "TodoListMiddleware",
    "ToolCallLimitMiddleware",
    "ToolCallRequest",
    "ToolErrorMiddleware",
    "ToolRetryMiddleware",
    "TracePolicy",
    "TriggerClause",
    "after_agent",
    "after_model",
    "before_agent",
    "before_model",
    "configure_trace_policy",
    "dynamic_prompt",
    "hook_config",
    "omit_payload",
    "wrap_model_call",
    "wrap_tool_call",
]
