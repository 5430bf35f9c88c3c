# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/model_retry.py,
#   the ModelRetryMiddleware docstring's "Basic usage" example, as released in langchain 1.5.2
#   (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: `model` and `search_tool`, left to the reader, are a scripted model (its first call
#   fails with a timeout, the retry searches, then it answers) and a search returning fixed
#   text.
from _offline import ScriptedChatModel, calls
from langchain.agents import create_agent
from langchain.agents.middleware import ModelRetryMiddleware

model = ScriptedChatModel(
    responses=[
        TimeoutError("the provider timed out"),
        calls(("search_tool", {"query": "LangGraph"})),
        "LangGraph is a low-level orchestration framework.",
    ]
)


def search_tool(query: str) -> str:
    """Search the web."""
    return "LangGraph is a low-level orchestration framework for stateful agents."


agent = create_agent(model, tools=[search_tool], middleware=[ModelRetryMiddleware()])
