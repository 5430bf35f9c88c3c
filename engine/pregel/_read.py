"""langgraph's path for the node class (`langgraph.pregel._read`), which third-party code
(langgraph-grpc-common) imports PregelNode from."""

from engine.pregel.read import PregelNode

__all__ = ["PregelNode"]
