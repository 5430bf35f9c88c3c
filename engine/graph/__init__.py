from engine.constants import END, START
from engine.graph.message import MessagesState, add_messages
from engine.graph.state import CompiledStateGraph, StateGraph

__all__ = ["END", "START", "StateGraph", "CompiledStateGraph", "MessagesState", "add_messages"]
