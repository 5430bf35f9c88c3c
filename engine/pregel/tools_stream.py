"""stream_mode="tools": each tool call's start, partial output, end or error, as it happens.

A LangChain callback handler on the run's config sees every tool a node runs (ToolNode
invokes tools with the task's config). While a tool runs, a per-call writer sits in a
ContextVar, so `ToolRuntime.emit_output_delta` reaches this stream without any argument.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar, Token
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler

from engine._constants import TAG_NOSTREAM
from engine.errors import GraphBubbleUp
from engine.pregel.callbacks import add_handler
from engine.pregel.messages import graph_namespace

ToolCallWriter = Callable[[Any], None]
"""Emits `tool-output-delta` events for one running tool call."""

tool_call_writer: ContextVar[ToolCallWriter | None] = ContextVar(
    "superstep_tool_call_writer", default=None
)


def emit_output_delta(delta: Any) -> None:
    """Send `delta` for the running tool call; nothing when no run streams "tools"."""
    if (writer := tool_call_writer.get()) is not None:
        writer(delta)


class StreamToolCallHandler(BaseCallbackHandler):
    """Turns on_tool_start/end/error callbacks into `tools` stream parts keyed by tool_call_id."""

    run_inline = True  # events in the order the tool made them

    def __init__(
        self,
        emit: Callable[[tuple[str, ...], str, Any], None],
        subgraphs: bool,
        parent_ns: tuple[str, ...] = (),
    ) -> None:
        self.emit = emit
        self.subgraphs = subgraphs
        self.parent_ns = parent_ns
        self._calls: dict[UUID, tuple[tuple[str, ...], str, Token]] = {}

    def _namespace(self, metadata: dict | None, tags: list[str] | None) -> tuple[str, ...] | None:
        if not metadata or (tags and TAG_NOSTREAM in tags):
            return None
        ns = graph_namespace(metadata) if metadata.get("langgraph_checkpoint_ns") else ()
        if ns and not self.subgraphs and ns != self.parent_ns:
            return None
        return ns

    def on_tool_start(
        self,
        serialized: dict[str, Any],
        input_str: str,
        *,
        run_id: UUID,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        inputs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        ns = self._namespace(metadata, tags)
        if ns is None:
            return
        call_id = kwargs.get("tool_call_id") or str(run_id)

        def writer(delta: Any) -> None:
            self.emit(
                ns, "tools", {"event": "tool-output-delta", "tool_call_id": call_id, "delta": delta}
            )

        self._calls[run_id] = (ns, call_id, tool_call_writer.set(writer))
        payload = {
            "event": "tool-started",
            "tool_call_id": call_id,
            "tool_name": (serialized or {}).get("name") or kwargs.get("name") or "",
        }
        if inputs is not None:
            payload["input"] = inputs
        self.emit(ns, "tools", payload)

    def on_tool_end(self, output: Any, *, run_id: UUID, **kwargs: Any) -> None:
        if (call := self._finished(run_id)) is not None:
            ns, call_id = call
            self.emit(
                ns, "tools", {"event": "tool-finished", "tool_call_id": call_id, "output": output}
            )

    def on_tool_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        call = self._finished(run_id)
        # an interrupted tool is paused, not failed: it starts again on resume
        if call is not None and not isinstance(error, GraphBubbleUp):
            ns, call_id = call
            self.emit(
                ns, "tools", {"event": "tool-error", "tool_call_id": call_id, "message": str(error)}
            )

    def _finished(self, run_id: UUID) -> tuple[tuple[str, ...], str] | None:
        if (call := self._calls.pop(run_id, None)) is None:
            return None
        ns, call_id, token = call
        try:
            tool_call_writer.reset(token)
        except ValueError:  # ended in another context than it started (a worker thread)
            tool_call_writer.set(None)
        return ns, call_id


def attach_tools_handler(config: dict, emit: Any, subgraphs: bool, ns: tuple[str, ...]) -> None:
    add_handler(config, StreamToolCallHandler(emit, subgraphs, ns))


__all__ = ["StreamToolCallHandler", "attach_tools_handler", "emit_output_delta", "tool_call_writer"]
