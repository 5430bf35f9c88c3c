# Follows: LangGraph tutorial "Reflection": generate, reflect, and loop a fixed number of rounds
# on the conversation (https://langchain-ai.github.io/langgraph/tutorials/reflection/reflection).
from typing import Annotated

from _scripted import ScriptedModel
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict


class State(TypedDict):
    messages: Annotated[list, add_messages]


writer = ScriptedModel(responses=[AIMessage("draft 1"), AIMessage("draft 2"), AIMessage("draft 3")])


def generation_node(state: State):
    return {"messages": [writer.invoke(state["messages"])]}


def reflection_node(state: State):
    last = state["messages"][-1]
    return {"messages": [HumanMessage(f"critique of {last.content}: add detail")]}


def should_continue(state: State):
    if len(state["messages"]) > 5:
        return END
    return "reflect"


builder = StateGraph(State)
builder.add_node("generate", generation_node)
builder.add_node("reflect", reflection_node)
builder.add_edge(START, "generate")
builder.add_conditional_edges("generate", should_continue, ["reflect", END])
builder.add_edge("reflect", "generate")
graph = builder.compile()

INPUT = {"messages": [HumanMessage("Write an essay on The Little Prince.")]}
