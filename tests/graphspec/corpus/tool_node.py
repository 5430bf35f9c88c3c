# Follows: LangGraph how-to "How to call tools using ToolNode": a model node with bound tools, a
# ToolNode and tools_condition (https://langchain-ai.github.io/langgraph/how-tos/tool-calling).
from _scripted import ScriptedModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition


@tool
def get_weather(location: str) -> str:
    """Call to get the current weather."""
    if location.lower() in ("sf", "san francisco"):
        return "It's 60 degrees and foggy."
    return "It's 90 degrees and sunny."


@tool
def get_coolest_cities() -> str:
    """Get a list of coolest cities."""
    return "nyc, sf"


tools = [get_weather, get_coolest_cities]
tool_node = ToolNode(tools)
model = ScriptedModel(
    responses=[
        AIMessage(
            content="",
            tool_calls=[{"name": "get_weather", "args": {"location": "sf"}, "id": "call_w1"}],
        ),
        AIMessage(content="It's foggy in SF."),
    ]
)
model_with_tools = model.bind_tools(tools)


def call_model(state: MessagesState):
    return {"messages": [model_with_tools.invoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("agent", call_model)
builder.add_node("tools", tool_node)
builder.add_edge(START, "agent")
builder.add_conditional_edges("agent", tools_condition, ["tools", END])
builder.add_edge("tools", "agent")
graph = builder.compile()

INPUT = {"messages": [("user", "what is the weather in sf?")]}
