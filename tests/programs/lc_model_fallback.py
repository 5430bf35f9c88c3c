# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/
#   model_fallback.py, the ModelFallbackMiddleware docstring's example, as released in
#   langchain 1.5.2 (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the three model strings are scripted models: the primary "openai:gpt-5.5" fails (a
#   rate-limit error), the first fallback fails too, "anthropic:claude-sonnet-4-5-20250929"
#   answers; HumanMessage, which the example uses, imported; its demo call
#   (`await agent.invoke(...)`) left to the manifest.
from _offline import ScriptedChatModel
from langchain.agents.middleware import ModelFallbackMiddleware
from langchain.agents import create_agent
from langchain_core.messages import HumanMessage

fallback = ModelFallbackMiddleware(
    ScriptedChatModel(responses=[RuntimeError("429: rate limited")]),  # Try first on error
    ScriptedChatModel(responses=["Hello from the fallback model."]),  # Then this
)

agent = create_agent(
    model=ScriptedChatModel(responses=[RuntimeError("503: overloaded")]),  # Primary model
    middleware=[fallback],
)
