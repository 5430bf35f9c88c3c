# Source: langchain-ai/langgraph, libs/langgraph/langgraph/graph/state.py, the StateGraph.add_node docstring's example with
#   input_schema, as released in langgraph 1.2.24 (https://pypi.org/project/langgraph/1.2.24/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the example's demo call (graph.invoke({"x": 1})) left to the manifest.
from typing_extensions import TypedDict

from langchain_core.runnables import RunnableConfig
from langgraph.graph import START, StateGraph


class State(TypedDict):
    x: int


class NodeInput(TypedDict):
    x: int


def my_node(state: NodeInput, config: RunnableConfig) -> State:
    return {"x": state["x"] + 1}


builder = StateGraph(State)
builder.add_node(my_node, input_schema=NodeInput)  # node name will be 'my_node'
builder.add_edge(START, "my_node")
graph = builder.compile()
