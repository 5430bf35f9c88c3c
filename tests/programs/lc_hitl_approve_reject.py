# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/
#   human_in_the_loop.py, the HumanInTheLoopMiddleware docstring's batch example, as released
#   in langchain 1.5.2 (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: `model`, `send_email` and `delete_file`, which the example leaves to the reader, are
#   a scripted model (it calls both tools at once, then answers) and two tools returning text;
#   the example's demo runs (the request, then the approve/reject decisions) left to the
#   manifest.
from _offline import ScriptedChatModel, calls
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command


def send_email(to: str, body: str) -> str:
    """Send an email."""
    return f"Email sent to {to}."


def delete_file(path: str) -> str:
    """Delete a file."""
    return f"Deleted {path}."


model = ScriptedChatModel(
    responses=[
        calls(
            ("send_email", {"to": "alice@example.com", "body": "The report is ready."}),
            ("delete_file", {"path": "report.txt"}),
        ),
        "Emailed Alice; the report was kept.",
    ]
)

agent = create_agent(
    model,
    tools=[send_email, delete_file],
    middleware=[
        HumanInTheLoopMiddleware(interrupt_on={"send_email": True, "delete_file": True})
    ],
    checkpointer=InMemorySaver(),
)
