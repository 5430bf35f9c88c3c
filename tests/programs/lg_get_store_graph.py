# Source: langchain-ai/langgraph, libs/langgraph/langgraph/config.py, the get_store docstring's StateGraph example,
#   as released in langgraph 1.2.24 (https://pypi.org/project/langgraph/1.2.24/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the example's demo call (graph.invoke({"foo": 1})) left to the manifest.
from typing_extensions import TypedDict
from langgraph.graph import StateGraph, START
from langgraph.store.memory import InMemoryStore
from langgraph.config import get_store

store = InMemoryStore()
store.put(("values",), "foo", {"bar": 2})


class State(TypedDict):
    foo: int


def my_node(state: State):
    my_store = get_store()
    stored_value = my_store.get(("values",), "foo").value["bar"]
    return {"foo": stored_value + 1}


graph = (
    StateGraph(State)
    .add_node(my_node)
    .add_edge(START, "my_node")
    .compile(store=store)
)
