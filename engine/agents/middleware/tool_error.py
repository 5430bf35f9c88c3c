"""ToolErrorMiddleware: a tool's exception the user's handler chooses to surface becomes an
error ToolMessage for the model; anything else propagates (it never retries)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.messages import ToolMessage

from engine.agents.middleware.types import AgentMiddleware
from engine.errors import GraphBubbleUp
from engine.prebuilt.tool_node import ToolCallRequest
from engine.types import TracePolicy, omit_payload

OnError = Callable[[Exception, ToolCallRequest], Any]
"""`(exception, request) -> content | None`: content (text or content blocks) answers the call
as an error ToolMessage; None lets the exception propagate."""
AOnError = Callable[[Exception, ToolCallRequest], Awaitable[Any]]


class ToolErrorMiddleware(AgentMiddleware):
    """Opt-in error handling for tool execution (all tools, or those named in `tools`).

    Interrupts and parent commands always propagate and never reach the handler. The async
    path uses `aon_error`, else `on_error`; the sync path only `on_error` (with `aon_error`
    alone it raises RuntimeError there)."""

    trace_policy = TracePolicy(process_inputs=omit_payload)

    def __init__(
        self,
        on_error: OnError | None = None,
        *,
        aon_error: AOnError | None = None,
        tools: list | None = None,
    ) -> None:
        super().__init__()
        if on_error is None and aon_error is None:
            raise ValueError("ToolErrorMiddleware requires `on_error` and/or `aon_error`.")
        self.on_error = on_error
        self.aon_error = aon_error
        self._tool_filter = (
            None if tools is None else [t if isinstance(t, str) else t.name for t in tools]
        )
        self.tools = []

    def _name(self, request: ToolCallRequest) -> str:
        return request.tool.name if request.tool else request.tool_call["name"]

    def _handles(self, name: str) -> bool:
        return self._tool_filter is None or name in self._tool_filter

    @staticmethod
    def _error_message(content: Any, request: ToolCallRequest, name: str) -> ToolMessage:
        return ToolMessage(
            content=content, tool_call_id=request.tool_call["id"], name=name, status="error"
        )

    def wrap_tool_call(self, request: ToolCallRequest, handler: Callable) -> Any:
        name = self._name(request)
        if not self._handles(name):
            return handler(request)
        try:
            return handler(request)
        except GraphBubbleUp:
            raise
        except Exception as exc:
            if self.on_error is None:
                raise RuntimeError(
                    "ToolErrorMiddleware has no sync `on_error`; run async "
                    "(ainvoke/astream) or provide `on_error`."
                ) from exc
            content = self.on_error(exc, request)
            if content is None:
                raise
            return self._error_message(content, request, name)

    async def awrap_tool_call(self, request: ToolCallRequest, handler: Callable) -> Any:
        name = self._name(request)
        if not self._handles(name):
            return await handler(request)
        try:
            return await handler(request)
        except GraphBubbleUp:
            raise
        except Exception as exc:
            if self.aon_error is not None:
                content = await self.aon_error(exc, request)
            else:
                content = self.on_error(exc, request)
            if content is None:
                raise
            return self._error_message(content, request, name)


__all__ = ["ToolErrorMiddleware"]
