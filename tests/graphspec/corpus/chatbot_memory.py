# Follows: LangGraph tutorial "Build a basic chatbot" and "Add memory": a chatbot node over
# add_messages, with a checkpointer so the second turn sees the first
# (https://langchain-ai.github.io/langgraph/tutorials/get-started/3-add-memory).
from typing import Annotated

from _scripted import ScriptedModel
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict


class State(TypedDict):
    messages: Annotated[list, add_messages]


llm = ScriptedModel(
    responses=[AIMessage(content="Hi Will!"), AIMessage(content="Your name is Will.")]
)


def chatbot(state: State):
    return {"messages": [llm.invoke(state["messages"])]}


graph_builder = StateGraph(State)
graph_builder.add_node("chatbot", chatbot)
graph_builder.add_edge(START, "chatbot")
graph_builder.add_edge("chatbot", END)
graph = graph_builder.compile(checkpointer=InMemorySaver())

INPUTS = [
    {"messages": [{"role": "user", "content": "Hi there! My name is Will."}]},
    {"messages": [{"role": "user", "content": "Remember my name?"}]},
]
