"""langgraph.utils.runnable: RunnableCallable at its legacy path (trustcall, langgraph-bigtool)."""

from engine._internal._runnable import RunnableCallable, RunnableLike

__all__ = ["RunnableCallable", "RunnableLike"]
