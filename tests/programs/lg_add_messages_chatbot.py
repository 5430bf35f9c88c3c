# Source: langchain-ai/langgraph, libs/langgraph/langgraph/graph/message.py, the add_messages docstring's first example,
#   as released in langgraph 1.2.24 (https://pypi.org/project/langgraph/1.2.24/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the example uses add_messages without importing it: imported from langgraph.graph
#   (the snippet cannot run without it); its demo call (graph.invoke({})) left to the manifest.
from typing import Annotated
from typing_extensions import TypedDict
from langgraph.graph import StateGraph
from langgraph.graph import add_messages


class State(TypedDict):
    messages: Annotated[list, add_messages]


builder = StateGraph(State)
builder.add_node("chatbot", lambda state: {"messages": [("assistant", "Hello")]})
builder.set_entry_point("chatbot")
builder.set_finish_point("chatbot")
graph = builder.compile()
