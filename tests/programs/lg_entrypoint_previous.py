# Source: langchain-ai/langgraph, libs/langgraph/langgraph/func/__init__.py, the entrypoint docstring's "previous" example,
#   as released in langgraph 1.2.24 (https://pypi.org/project/langgraph/1.2.24/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the example imports MemorySaver but uses InMemorySaver: InMemorySaver imported too
#   (the snippet cannot run without it); its demo call left to the manifest.
from typing import Optional

from langgraph.checkpoint.memory import MemorySaver
from langgraph.checkpoint.memory import InMemorySaver

from langgraph.func import entrypoint


@entrypoint(checkpointer=InMemorySaver())
def my_workflow(input_data: str, previous: Optional[str] = None) -> str:
    return "world"
