# Source: langchain-ai/langgraph, libs/langgraph/langgraph/checkpoint/memory/__init__.py, the InMemorySaver docstring's
#   example, as released in langgraph 1.2.24 (https://pypi.org/project/langgraph/1.2.24/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the example's demo run (asyncio.run(graph.ainvoke(1, ...))) left to the manifest.
import asyncio

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import StateGraph

builder = StateGraph(int)
builder.add_node("add_one", lambda x: x + 1)
builder.set_entry_point("add_one")
builder.set_finish_point("add_one")

memory = InMemorySaver()
graph = builder.compile(checkpointer=memory)
