# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/
#   model_call_limit.py, the ModelCallLimitMiddleware docstring's example, as released in
#   langchain 1.5.2 (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the model "openai:gpt-5.5" replaced by a scripted model (it answers); the
#   example's demo call (`await agent.invoke(...)`) left to the manifest.
from _offline import ScriptedChatModel
from langchain.agents.middleware import ModelCallLimitMiddleware
from langchain.agents import create_agent

# Create middleware with limits
call_tracker = ModelCallLimitMiddleware(thread_limit=10, run_limit=5, exit_behavior="end")

agent = create_agent(
    ScriptedChatModel(responses=["Here is a plan for your task."]), middleware=[call_tracker]
)
