# Follows: LangGraph docs, "Build sequences, branches, and loops" — conditional branching with a
# path map from the router's labels to nodes
# (https://docs.langchain.com/oss/python/langgraph/graph-api-control-flow).
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    score: int
    verdict: str


def grade(state: State):
    return {}


def decide(state: State) -> str:
    return "high" if state["score"] > 50 else "low"


def celebrate(state: State):
    return {"verdict": "pass"}


def retry(state: State):
    return {"verdict": "fail"}


builder = StateGraph(State)
builder.add_node("grade", grade)
builder.add_node("celebrate", celebrate)
builder.add_node("retry", retry)
builder.add_edge(START, "grade")
builder.add_conditional_edges("grade", decide, {"high": "celebrate", "low": "retry"})
builder.add_edge("celebrate", END)
builder.add_edge("retry", END)
graph = builder.compile()

INPUT = {"score": 72}
