# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/
#   tool_call_limit.py, the ToolCallLimitMiddleware docstring's first example, as released in
#   langchain 1.5.2 (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the model "openai:gpt-5.5" replaced by a scripted model (it answers).
from _offline import ScriptedChatModel
from langchain.agents.middleware.tool_call_limit import ToolCallLimitMiddleware
from langchain.agents import create_agent

# Block exceeded tools but let other tools and model continue
limiter = ToolCallLimitMiddleware(
    thread_limit=20,
    run_limit=10,
    exit_behavior="continue",  # default
)

agent = create_agent(ScriptedChatModel(responses=["Done."]), middleware=[limiter])
