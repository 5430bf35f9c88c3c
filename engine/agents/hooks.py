"""The middleware hook names, with no imports: the spec model reads them without loading the
agent layer (langchain_core's messages and the prebuilt tool node)."""

HOOKS = (
    "before_agent",
    "before_model",
    "wrap_model_call",
    "after_model",
    "wrap_tool_call",
    "after_agent",
)
"""Every hook AgentMiddleware defines, in the order one turn of the agent loop meets them."""
NODE_HOOKS = tuple(h for h in HOOKS if not h.startswith("wrap_"))
"""The hooks that become graph nodes (`<middleware name>.<hook>`); only these can jump."""

__all__ = ["HOOKS", "NODE_HOOKS"]
