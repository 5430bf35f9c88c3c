# Follows: LangGraph how-to "How to combine control flow and state updates with Command": the
# node's Command[Literal[...]] annotation says where it may go
# (https://langchain-ai.github.io/langgraph/how-tos/command).
from typing import Literal

from langgraph.graph import START, StateGraph
from langgraph.types import Command
from typing_extensions import TypedDict


class State(TypedDict):
    foo: str
    n: int


def node_a(state: State) -> Command[Literal["node_b", "node_c"]]:
    goto = "node_b" if state["n"] % 2 == 0 else "node_c"
    return Command(update={"foo": "a"}, goto=goto)


def node_b(state: State):
    return {"foo": state["foo"] + "b"}


def node_c(state: State):
    return {"foo": state["foo"] + "c"}


builder = StateGraph(State)
builder.add_edge(START, "node_a")
builder.add_node(node_a)
builder.add_node(node_b)
builder.add_node(node_c)
graph = builder.compile()

INPUT = {"foo": "", "n": 3}
