# Follows: LangGraph docs, "Build sequences, branches, and loops" — create a sequence of steps
# (https://docs.langchain.com/oss/python/langgraph/graph-api-control-flow), using add_sequence.
from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    value_1: str
    value_2: int


def step_1(state: State):
    return {"value_1": "a"}


def step_2(state: State):
    return {"value_1": f"{state['value_1']} b"}


def step_3(state: State):
    return {"value_2": 10}


builder = StateGraph(State).add_sequence([step_1, step_2, step_3])
builder.add_edge(START, "step_1")
graph = builder.compile()

INPUT = {"value_1": "c"}
