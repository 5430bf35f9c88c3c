# Source: langchain-ai/langgraph, libs/prebuilt/langgraph/prebuilt/chat_agent_executor.py, the
#   create_react_agent docstring's example, as released in langgraph-prebuilt 1.1.3
#   (https://pypi.org/project/langgraph-prebuilt/1.1.3/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the model "anthropic:claude-3-7-sonnet-latest" replaced by a scripted model (it
#   calls check_weather, then answers); the example's demo stream left to the manifest.
from _offline import ScriptedChatModel, calls
from langgraph.prebuilt import create_react_agent

def check_weather(location: str) -> str:
    '''Return the weather forecast for the specified location.'''
    return f"It's always sunny in {location}"

model = ScriptedChatModel(
    responses=[calls(("check_weather", {"location": "sf"})), "It's always sunny in sf."]
)
graph = create_react_agent(
    model,
    tools=[check_weather],
    prompt="You are a helpful assistant",
)
