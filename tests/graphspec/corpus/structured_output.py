# Follows: LangChain docs, "Structured output" — create_agent with response_format=ToolStrategy
# (a pydantic schema), its own state_schema (an extra key the tools read) and a context_schema
# (https://docs.langchain.com/oss/python/langchain/structured-output).
from dataclasses import dataclass
from typing import NotRequired

from _scripted import ScriptedModel
from langchain.agents import AgentState, create_agent
from langchain.agents.structured_output import ToolStrategy
from langchain_core.messages import AIMessage
from pydantic import BaseModel


class ContactInfo(BaseModel):
    name: str
    email: str


class CrmState(AgentState):
    source: NotRequired[str]


@dataclass
class Caller:
    user_id: str = "anonymous"


def find_email(name: str) -> str:
    """Find a person's email."""
    return f"{name.lower()}@example.com"


model = ScriptedModel(
    responses=[
        AIMessage(
            content="", tool_calls=[{"name": "find_email", "args": {"name": "Ada"}, "id": "c1"}]
        ),
        AIMessage(
            content="",
            tool_calls=[
                {
                    "name": "ContactInfo",
                    "args": {"name": "Ada", "email": "ada@example.com"},
                    "id": "c2",
                }
            ],
        ),
    ]
)
agent = create_agent(
    model,
    tools=[find_email],
    response_format=ToolStrategy(ContactInfo),
    state_schema=CrmState,
    context_schema=Caller,
)

INPUT = {"messages": [{"role": "user", "content": "Ada's contact, please"}], "source": "web"}
