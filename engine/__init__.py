"""Superstep engine: a Pregel/superstep runtime with LangGraph's semantics and public API.

Module paths mirror langgraph's (`engine.graph`, `engine.types`, `engine.channels`, ...), so code
written against langgraph runs after replacing the import prefix. No Qt is imported here.
"""
