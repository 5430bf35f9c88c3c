# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/types.py, the
#   dynamic_prompt docstring's examples (two prompts, then "Using with agent"), as released in
#   langchain 1.5.2 (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the imports the fragments take for granted added; `model`, left to the reader, is
#   a scripted model (it answers).
from _offline import ScriptedChatModel
from langchain.agents import create_agent
from langchain.agents.middleware import ModelRequest, dynamic_prompt

model = ScriptedChatModel(responses=["Hello! How can I help?"])


@dynamic_prompt
def my_prompt(request: ModelRequest) -> str:
    user_name = request.runtime.context.get("user_name", "User")
    return f"You are a helpful assistant helping {user_name}."


@dynamic_prompt
def context_aware_prompt(request: ModelRequest) -> str:
    msg_count = len(request.state["messages"])
    if msg_count > 10:
        return "You are in a long conversation. Be concise."
    return "You are a helpful assistant."


agent = create_agent(model, middleware=[my_prompt])
