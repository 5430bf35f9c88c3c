# Follows: LangGraph how-to "How to add node retry policies": a flaky call retried on ValueError
# (https://langchain-ai.github.io/langgraph/how-tos/node-retries). The flaky database call is a
# counter that fails every first attempt of a run.
from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy
from typing_extensions import TypedDict

CALLS = [0]


class State(TypedDict):
    query: str
    rows: list


def query_database(state: State):
    CALLS[0] += 1
    if CALLS[0] % 2 == 1:
        raise ValueError("connection reset")
    return {"rows": [state["query"].upper()]}


builder = StateGraph(State)
builder.add_node(
    "query_database",
    query_database,
    retry_policy=RetryPolicy(retry_on=ValueError, initial_interval=0.01, jitter=False),
)
builder.add_edge(START, "query_database")
builder.add_edge("query_database", END)
graph = builder.compile()

INPUT = {"query": "select 1"}
