# Follows: LangChain docs, "Agents" — create_agent with a model, tools and a system prompt
# (https://docs.langchain.com/oss/python/langchain/agents).
from _scripted import ScriptedModel
from langchain.agents import create_agent
from langchain_core.messages import AIMessage


def search(query: str) -> str:
    """Search for information."""
    return f"Results for: {query}"


def get_weather(location: str) -> str:
    """Get weather information for a location."""
    return f"Weather in {location}: Sunny, 72F"


model = ScriptedModel(
    responses=[
        AIMessage(
            content="",
            tool_calls=[{"name": "search", "args": {"query": "langgraph"}, "id": "call_s"}],
        ),
        AIMessage(
            content="",
            tool_calls=[{"name": "get_weather", "args": {"location": "Oslo"}, "id": "call_g"}],
        ),
        AIMessage(content="Done."),
    ]
)
agent = create_agent(
    model, tools=[search, get_weather], system_prompt="You are a helpful assistant."
)

INPUT = {"messages": [{"role": "user", "content": "search langgraph, then the Oslo weather"}]}
