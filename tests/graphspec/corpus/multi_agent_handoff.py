# Follows: LangGraph how-to "How to implement handoffs between agents": agents hand control to
# each other with Command(goto=...) (https://langchain-ai.github.io/langgraph/how-tos/agent-handoffs).
# The agents' LLM decisions are replaced by fixed rules.
from typing import Literal

from langchain_core.messages import AIMessage
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.types import Command


def travel_advisor(state: MessagesState) -> Command[Literal["hotel_advisor", "__end__"]]:
    if len(state["messages"]) < 3:
        reply = AIMessage("Visit Aruba. Let me ask about hotels.", name="travel_advisor")
        return Command(goto="hotel_advisor", update={"messages": [reply]})
    return Command(
        goto="__end__", update={"messages": [AIMessage("Enjoy!", name="travel_advisor")]}
    )


def hotel_advisor(state: MessagesState) -> Command[Literal["travel_advisor"]]:
    reply = AIMessage("Try the Ritz-Carlton.", name="hotel_advisor")
    return Command(goto="travel_advisor", update={"messages": [reply]})


builder = StateGraph(MessagesState)
builder.add_node("travel_advisor", travel_advisor)
builder.add_node("hotel_advisor", hotel_advisor)
builder.add_edge(START, "travel_advisor")
graph = builder.compile()

INPUT = {"messages": [("user", "i wanna go somewhere warm in the caribbean")]}
