# Source: langchain-ai/langgraph-cua-py, langgraph_cua/nodes/__init__.py, as released in langgraph-cua 0.0.1
#   (https://pypi.org/project/langgraph-cua/0.0.1/, its sdist).
# License: MIT, (c) LangChain, Inc. (../../LICENSE)
# Adapted: nothing.
from langgraph_cua.nodes.call_model import call_model
from langgraph_cua.nodes.create_vm_instance import create_vm_instance
from langgraph_cua.nodes.take_computer_action import take_computer_action

__all__ = ["call_model", "create_vm_instance", "take_computer_action"]
