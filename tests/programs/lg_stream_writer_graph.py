# Source: langchain-ai/langgraph, libs/langgraph/langgraph/config.py, the get_stream_writer docstring's StateGraph example,
#   as released in langgraph 1.2.24 (https://pypi.org/project/langgraph/1.2.24/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the example compiles with a `store` it never defines: an InMemoryStore is made for
#   it; its demo loop (graph.stream({"foo": 1}, stream_mode="custom")) left to the manifest,
#   which streams the same way.
from typing_extensions import TypedDict
from langgraph.graph import StateGraph, START
from langgraph.config import get_stream_writer
from langgraph.store.memory import InMemoryStore  # adapted: the store the example compiles with

store = InMemoryStore()  # adapted: undefined in the example


class State(TypedDict):
    foo: int


def my_node(state: State):
    my_stream_writer = get_stream_writer()
    my_stream_writer({"custom_data": "Hello!"})
    return {"foo": state["foo"] + 1}


graph = (
    StateGraph(State)
    .add_node(my_node)
    .add_edge(START, "my_node")
    .compile(store=store)
)
