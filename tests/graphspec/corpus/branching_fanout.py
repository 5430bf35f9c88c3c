# Follows: LangGraph how-to "How to create branches for parallel node execution" — fan out from
# a to b and c, fan in to d (https://langchain-ai.github.io/langgraph/how-tos/branching).
import operator
from typing import Annotated, Any

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    aggregate: Annotated[list, operator.add]


def a(state: State) -> dict[str, Any]:
    return {"aggregate": ["I'm A"]}


def b(state: State):
    return {"aggregate": ["I'm B"]}


def c(state: State):
    return {"aggregate": ["I'm C"]}


def d(state: State):
    return {"aggregate": [f"I'm D after {len(state['aggregate'])}"]}


builder = StateGraph(State)
builder.add_node(a)
builder.add_node(b)
builder.add_node(c)
builder.add_node(d)
builder.add_edge(START, "a")
builder.add_edge("a", "b")
builder.add_edge("a", "c")
builder.add_edge("b", "d")
builder.add_edge("c", "d")
builder.add_edge("d", END)
graph = builder.compile()

INPUT = {"aggregate": []}
