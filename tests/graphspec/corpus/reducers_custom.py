# Follows: LangGraph concepts, "Graph API — reducers": each key can have its own reducer; here a
# custom one that keeps the largest value (https://langchain-ai.github.io/langgraph/concepts/low_level).
from typing import Annotated

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


def keep_max(left: int | None, right: int | None) -> int:
    return max(left or 0, right or 0)


def concat(left: list | None, right: list | None) -> list:
    return [*(left or []), *(right or [])]


class State(TypedDict):
    best: Annotated[int, keep_max]
    seen: Annotated[list, concat]


def score_a(state: State):
    return {"best": 3, "seen": ["a"]}


def score_b(state: State):
    return {"best": 9, "seen": ["b"]}


builder = StateGraph(State)
builder.add_node(score_a)
builder.add_node(score_b)
builder.add_edge(START, "score_a")
builder.add_edge(START, "score_b")
builder.add_edge("score_a", END)
builder.add_edge("score_b", END)
graph = builder.compile()

INPUT = {"best": 5}
