# Follows: LangGraph docs, "Build sequences, branches, and loops" — defer node execution: the
# join waits for branches of different lengths (https://docs.langchain.com/oss/python/langgraph/graph-api-control-flow).
import operator
from typing import Annotated

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    aggregate: Annotated[list, operator.add]


def a(state: State):
    return {"aggregate": ["A"]}


def b(state: State):
    return {"aggregate": ["B"]}


def b_2(state: State):
    return {"aggregate": ["B_2"]}


def c(state: State):
    return {"aggregate": ["C"]}


def d(state: State):
    return {"aggregate": [f"D saw {len(state['aggregate'])}"]}


builder = StateGraph(State)
builder.add_node(a)
builder.add_node(b)
builder.add_node(b_2)
builder.add_node(c)
builder.add_node(d, defer=True)
builder.add_edge(START, "a")
builder.add_edge("a", "b")
builder.add_edge("a", "c")
builder.add_edge("b", "b_2")
builder.add_edge("b_2", "d")
builder.add_edge("c", "d")
builder.add_edge("d", END)
graph = builder.compile()

INPUT = {"aggregate": []}
