# Source: langchain-ai/langgraph-cua-py, langgraph_cua/__init__.py, as released in langgraph-cua 0.0.1
#   (https://pypi.org/project/langgraph-cua/0.0.1/, its sdist).
# License: MIT, (c) LangChain, Inc. (../LICENSE)
# Adapted: nothing.
from langgraph_cua.graph import create_cua, graph
from langgraph_cua.types import CUAState

__all__ = ["create_cua", "graph", "CUAState"]
