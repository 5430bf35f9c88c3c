# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/factory.py, the
#   create_agent docstring's example, as released in langchain 1.5.2
#   (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the model "anthropic:claude-sonnet-4-5-20250929" replaced by a scripted model (it
#   calls check_weather, then answers); the example's demo stream left to the manifest.
from _offline import ScriptedChatModel, calls
from langchain.agents import create_agent


def check_weather(location: str) -> str:
    '''Return the weather forecast for the specified location.'''
    return f"It's always sunny in {location}"


graph = create_agent(
    model=ScriptedChatModel(
        responses=[calls(("check_weather", {"location": "sf"})), "It's always sunny in sf."]
    ),
    tools=[check_weather],
    system_prompt="You are a helpful assistant",
)
