# Follows: LangGraph docs, "Agents" quickstart — a prebuilt ReAct agent from a model, tools and a
# prompt (https://langchain-ai.github.io/langgraph/agents/agents).
import warnings

from _scripted import ScriptedModel
from langchain_core.messages import AIMessage
from langgraph.prebuilt import create_react_agent


def get_weather(city: str) -> str:
    """Get weather for a given city."""
    return f"It's always sunny in {city}!"


model = ScriptedModel(
    responses=[
        AIMessage(
            content="",
            tool_calls=[{"name": "get_weather", "args": {"city": "sf"}, "id": "call_sf"}],
        ),
        AIMessage(content="Sunny in sf."),
    ]
)

with warnings.catch_warnings():  # create_react_agent is deprecated in favour of create_agent
    warnings.simplefilter("ignore")
    agent = create_react_agent(model, [get_weather], prompt="You are a helpful assistant")

INPUT = {"messages": [{"role": "user", "content": "what is the weather in sf"}]}
