# Follows: LangGraph docs, "Configure nodes" — node caching: a CachePolicy on an expensive node
# and an InMemoryCache given to compile (https://docs.langchain.com/oss/python/langgraph/graph-api-nodes).
from langgraph.cache.memory import InMemoryCache
from langgraph.graph import END, START, StateGraph
from langgraph.types import CachePolicy
from typing_extensions import TypedDict


class State(TypedDict):
    x: int
    result: int


def expensive_node(state: State):
    return {"result": state["x"] * 2}


builder = StateGraph(State)
builder.add_node("expensive_node", expensive_node, cache_policy=CachePolicy(ttl=120))
builder.add_edge(START, "expensive_node")
builder.add_edge("expensive_node", END)
graph = builder.compile(cache=InMemoryCache())

INPUT = {"x": 5}
