# Follows: LangGraph how-to "How to create a ReAct agent from scratch": own state with
# add_messages, a should_continue router and a ToolNode
# (https://langchain-ai.github.io/langgraph/how-tos/react-agent-from-scratch).
from collections.abc import Sequence
from typing import Annotated

from _scripted import ScriptedModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.tools import tool
from langgraph.graph import END, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode
from typing_extensions import TypedDict


class AgentState(TypedDict):
    messages: Annotated[Sequence[BaseMessage], add_messages]


@tool
def lookup_population(city: str) -> int:
    """Look up a city's population."""
    return {"paris": 2_100_000}.get(city.lower(), 0)


model = ScriptedModel(
    responses=[
        AIMessage(
            content="",
            tool_calls=[{"name": "lookup_population", "args": {"city": "Paris"}, "id": "call_p"}],
        ),
        AIMessage(content="Paris has about 2.1 million people."),
    ]
)


def call_model(state: AgentState):
    system = SystemMessage("You are a helpful assistant.")
    return {"messages": [model.invoke([system, *state["messages"]])]}


def should_continue(state: AgentState):
    last = state["messages"][-1]
    return "continue" if last.tool_calls else "end"


workflow = StateGraph(AgentState)
workflow.add_node("agent", call_model)
workflow.add_node("tools", ToolNode([lookup_population]))
workflow.set_entry_point("agent")
workflow.add_conditional_edges("agent", should_continue, {"continue": "tools", "end": END})
workflow.add_edge("tools", "agent")
graph = workflow.compile()

INPUT = {"messages": [("user", "How many people live in Paris?")]}
