# Follows: LangGraph docs, "Build sequences, branches, and loops" — create and control loops: a
# conditional edge ends the loop once the list is long enough
# (https://docs.langchain.com/oss/python/langgraph/graph-api-control-flow).
import operator
from typing import Annotated, Literal

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    aggregate: Annotated[list, operator.add]


def a(state: State):
    return {"aggregate": ["A"]}


def b(state: State):
    return {"aggregate": ["B"]}


def route(state: State) -> Literal["b", "__end__"]:
    if len(state["aggregate"]) < 7:
        return "b"
    return END


builder = StateGraph(State)
builder.add_node(a)
builder.add_node(b)
builder.add_edge(START, "a")
builder.add_conditional_edges("a", route)
builder.add_edge("b", "a")
graph = builder.compile()

INPUT = {"aggregate": []}
