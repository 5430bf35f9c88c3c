# Source: langchain-ai/deepagents, libs/deepagents/deepagents/middleware/subagents.py, the
#   CompiledSubAgent docstring's create_agent + response_format example, as released in
#   deepagents 0.7.32 (https://pypi.org/project/deepagents/0.7.32/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the model "openai:gpt-5.5" replaced by a scripted model (it answers with Findings);
#   the line handing `researcher` to create_deep_agent(subagents=[...]), as the docstring
#   describes, added with a scripted main model (it calls the task tool, then answers).
from pydantic import BaseModel
from langchain.agents import create_agent

from _offline import ScriptedChatModel, calls
from deepagents import CompiledSubAgent, create_deep_agent


class Findings(BaseModel):
    summary: str
    confidence: float


researcher: CompiledSubAgent = {
    "name": "researcher",
    "description": "Researches a topic and returns findings.",
    "runnable": create_agent(
        ScriptedChatModel(
            responses=[
                calls(("Findings", {"summary": "Pregel runs supersteps.", "confidence": 0.9}))
            ]
        ),
        tools=[],  # your tools here
        response_format=Findings,
    ),
}

agent = create_deep_agent(
    model=ScriptedChatModel(
        responses=[
            calls(("task", {"description": "Research Pregel", "subagent_type": "researcher"})),
            "Pregel runs supersteps (confidence 0.9).",
        ]
    ),
    subagents=[researcher],
)
