# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/tool_error.py,
#   the ToolErrorMiddleware docstring's example, as released in langchain 1.5.2
#   (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: `model` and the `tools=[...]` the example leaves to the reader are a scripted model
#   (it calls the tool with a bad date, reads the error message, calls it again, answers) and
#   a local date parser raising ValueError on what it cannot read; ToolCallRequest, which the
#   example's annotation names, imported from langchain.agents.middleware.
from _offline import ScriptedChatModel, calls
from datetime import date
from langchain.agents.middleware import ToolCallRequest  # adapted: the annotation's import
from langchain_core.tools import tool

from langchain.agents import create_agent
from langchain.agents.middleware import ToolErrorMiddleware

model = ScriptedChatModel(  # adapted: the scripted model, in call order
    responses=[
        calls(("weekday", {"day": "2024-02-30"})),
        calls(("weekday", {"day": "2024-02-29"})),
        "The 29th of February 2024 was a Thursday.",
    ]
)


@tool
def weekday(day: str) -> str:  # adapted: the example's tools=[...]
    """The weekday of an ISO date (YYYY-MM-DD)."""
    return date.fromisoformat(day).strftime("%A")


def on_error(exc: Exception, request: ToolCallRequest) -> str | None:
    if isinstance(exc, ValueError):
        return f"`{request.tool_call['name']}` failed; fix the input and retry."
    return None  # propagate everything else


agent = create_agent(model, tools=[weekday], middleware=[ToolErrorMiddleware(on_error)])
