# Follows: LangGraph how-to "How to create branches for parallel node execution" — conditional
# branching: a router picks which nodes run in parallel
# (https://langchain-ai.github.io/langgraph/how-tos/branching).
import operator
from collections.abc import Sequence
from typing import Annotated

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    aggregate: Annotated[list, operator.add]
    which: str


def a(state: State):
    return {"aggregate": ["A"]}


def b(state: State):
    return {"aggregate": ["B"]}


def c(state: State):
    return {"aggregate": ["C"]}


def d(state: State):
    return {"aggregate": ["D"]}


def e(state: State):
    return {"aggregate": ["E"]}


def route_bc_or_cd(state: State) -> Sequence[str]:
    if state["which"] == "cd":
        return ["c", "d"]
    return ["b", "c"]


builder = StateGraph(State)
for fn in (a, b, c, d, e):
    builder.add_node(fn)
builder.add_edge(START, "a")
builder.add_conditional_edges("a", route_bc_or_cd, ["b", "c", "d"])
for name in ("b", "c", "d"):
    builder.add_edge(name, "e")
builder.add_edge("e", END)
graph = builder.compile()

INPUT = {"aggregate": [], "which": "cd"}
