# Source: DoNotChoke/Learning-Langchain, src/ch7/c-subgraph-function.py at commit
#   bac9ed19f9d52f434a548b7b539fc7fb1f07b030
#   (https://github.com/DoNotChoke/Learning-Langchain/blob/bac9ed19f9d52f434a548b7b539fc7fb1f07b030/src/ch7/c-subgraph-function.py),
#   a learner's subgraph with a state of its own (no key shared with the parent), invoked from
#   inside a parent node that maps the state in and out.
# License: none found (no license file among the repository's indexed files).
# Adapted: the demo invoke and the print of its result dropped (the manifest makes the call).
from typing import TypedDict
from langgraph.graph import StateGraph, START

class State(TypedDict):
    foo: str

class SubgraphState(TypedDict):
    bar: str
    baz: str

def subgraph_node(state: SubgraphState):
    return {"bar": state["bar"] + "baz"}

subgraph_builder = StateGraph(SubgraphState)
subgraph_builder.add_node("subgraph_node", subgraph_node)
subgraph_builder.add_edge(START, "subgraph_node")

subgraph = subgraph_builder.compile()

def node(state: State):
    response = subgraph.invoke({"bar": state["foo"]})
    return {"foo": response["bar"]}

builder = StateGraph(State)
builder.add_node("node", node)
builder.add_edge(START, "node")

graph = builder.compile()
