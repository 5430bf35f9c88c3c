# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/types.py, the
#   hook_config docstring's example (a class-based AgentMiddleware), as released in langchain 1.5.2 (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the imports the fragment takes for granted added; `some_condition`, left to the
#   reader, ends the run once the conversation holds a message saying "stop"; `model` is a
#   scripted model (it answers); the agent line, which the docstring leaves out, is
#   create_agent(model, middleware=[MyMiddleware()]). The docstring's decorator alternative is
#   left out: as written (one parameter) it fails on langchain itself.
from typing import Any

from _offline import ScriptedChatModel
from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, AgentState, hook_config

model = ScriptedChatModel(responses=["Carrying on."])


def some_condition(state):
    return any("stop" in str(m.content) for m in state["messages"])


class MyMiddleware(AgentMiddleware):
    @hook_config(can_jump_to=["end", "model"])
    def before_model(self, state: AgentState) -> dict[str, Any] | None:
        if some_condition(state):
            return {"jump_to": "end"}
        return None


agent = create_agent(model, middleware=[MyMiddleware()])
