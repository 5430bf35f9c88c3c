# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/tool_retry.py,
#   the ToolRetryMiddleware docstring's "Basic usage with default settings (2 retries,
#   exponential backoff)" example, as released in langchain 1.5.2
#   (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: `model` and `search_tool`, left to the reader, are a scripted model (it searches,
#   then answers) and a local search whose first call fails with a ConnectionError, as a
#   flaky network would; the retry (after the default one-second delay) gets the results.
from _offline import ScriptedChatModel, calls
from langchain_core.tools import tool

from langchain.agents import create_agent
from langchain.agents.middleware import ToolRetryMiddleware

model = ScriptedChatModel(  # adapted: the scripted model, in call order
    responses=[
        calls(("search_tool", {"query": "langgraph retry policy"})),
        "Retries are configured with RetryPolicy on a node.",
    ]
)
failures = [ConnectionError("connection reset by peer")]  # adapted: the first call fails


@tool
def search_tool(query: str) -> str:  # adapted: a local search
    """Search the web."""
    if failures:
        raise failures.pop()
    return f"Results for {query}: add_node(..., retry_policy=RetryPolicy())."


agent = create_agent(model, tools=[search_tool], middleware=[ToolRetryMiddleware()])
