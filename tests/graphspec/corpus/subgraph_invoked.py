# Follows: LangGraph how-to "How to use subgraphs" — invoke a graph from inside a node when the
# schemas differ, mapping keys in and out (https://langchain-ai.github.io/langgraph/how-tos/subgraph).
from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict


class SubgraphState(TypedDict):
    bar: str
    baz: str


def sub_node_1(state: SubgraphState):
    return {"baz": "baz"}


def sub_node_2(state: SubgraphState):
    return {"bar": state["bar"] + state["baz"]}


sub_builder = StateGraph(SubgraphState)
sub_builder.add_node(sub_node_1)
sub_builder.add_node(sub_node_2)
sub_builder.add_edge(START, "sub_node_1")
sub_builder.add_edge("sub_node_1", "sub_node_2")
subgraph = sub_builder.compile()


class ParentState(TypedDict):
    foo: str


def call_subgraph(state: ParentState):
    response = subgraph.invoke({"bar": state["foo"]})
    return {"foo": response["bar"]}


builder = StateGraph(ParentState)
builder.add_node("node_1", call_subgraph)
builder.add_edge(START, "node_1")
graph = builder.compile()

INPUT = {"foo": "foo"}
