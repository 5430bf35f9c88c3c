# Follows: LangGraph how-to "How to pass private state between nodes": node_1 writes a key that
# only node_2 reads; it is in neither the input nor the output
# (https://langchain-ai.github.io/langgraph/how-tos/pass_private_state).
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class OverallState(TypedDict):
    a: str


class Node1Output(TypedDict):
    private_data: str


def node_1(state: OverallState) -> Node1Output:
    return {"private_data": "set by node_1"}


class Node2Input(TypedDict):
    private_data: str


def node_2(state: Node2Input) -> OverallState:
    return {"a": f"node_2 read: {state['private_data']}"}


def node_3(state: OverallState) -> OverallState:
    return {"a": state["a"] + " (node_3)"}


builder = StateGraph(OverallState)
builder.add_node(node_1)
builder.add_node(node_2)
builder.add_node(node_3)
builder.add_edge(START, "node_1")
builder.add_edge("node_1", "node_2")
builder.add_edge("node_2", "node_3")
builder.add_edge("node_3", END)
graph = builder.compile()

INPUT = {"a": "set at start"}
