# Follows: LangGraph how-to "How to run a graph asynchronously": async def nodes, awaited with
# ainvoke (https://langchain-ai.github.io/langgraph/how-tos/async).
import asyncio
import operator
from typing import Annotated

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    queries: list
    results: Annotated[list, operator.add]


async def fetch(state: State):
    await asyncio.sleep(0)
    return {"results": [q[::-1] for q in state["queries"]]}


async def summarize(state: State):
    return {"results": [f"{len(state['results'])} results"]}


builder = StateGraph(State)
builder.add_node("fetch", fetch)
builder.add_node("summarize", summarize)
builder.add_edge(START, "fetch")
builder.add_edge("fetch", "summarize")
builder.add_edge("summarize", END)
graph = builder.compile()

INPUT = {"queries": ["abc", "xyz"]}
ASYNC = True
