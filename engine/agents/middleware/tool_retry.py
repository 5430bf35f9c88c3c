"""ToolRetryMiddleware: retry failing tool calls (all tools or some) with exponential backoff."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from langchain_core.messages import ToolMessage

from engine.agents.middleware._retry import (
    OnFailure,
    RetryLoop,
    RetryOn,
    attempts_phrase,
    default_retry_on,
)
from engine.agents.middleware.types import AgentMiddleware
from engine.prebuilt.tool_node import ToolCallRequest


class ToolRetryMiddleware(AgentMiddleware):
    """Retries a tool up to max_retries times; then raises ("error") or answers with an error ToolMessage."""

    def __init__(
        self,
        *,
        max_retries: int = 2,
        tools: list | None = None,
        retry_on: RetryOn = default_retry_on,
        on_failure: OnFailure = "continue",
        backoff_factor: float = 2.0,
        initial_delay: float = 1.0,
        max_delay: float = 60.0,
        jitter: bool = True,
    ) -> None:
        super().__init__()
        renamed = {"raise": "error", "return_message": "continue"}
        if on_failure in renamed:
            warnings.warn(
                f"on_failure={on_failure!r} is deprecated and will be removed in a future version. "
                f"Use on_failure={renamed[on_failure]!r} instead.",
                DeprecationWarning,
                stacklevel=2,
            )
            on_failure = renamed[on_failure]
        self._loop = RetryLoop(
            max_retries=max_retries,
            retry_on=retry_on,
            on_failure=on_failure,
            backoff_factor=backoff_factor,
            initial_delay=initial_delay,
            max_delay=max_delay,
            jitter=jitter,
        )
        self._tool_filter = (
            None if tools is None else [t if isinstance(t, str) else t.name for t in tools]
        )
        self.tools = []
        self._loop.publish(self)

    def _give_up(
        self, request: ToolCallRequest, name: str
    ) -> Callable[[Exception, int], ToolMessage]:
        def give_up(exc: Exception, attempts: int) -> ToolMessage:
            default = f"Tool '{name}' failed after {attempts_phrase(attempts)} with {type(exc).__name__}: {exc}. Please try again."
            content = self._loop.failure_content(exc, default)
            return ToolMessage(
                content=content, tool_call_id=request.tool_call["id"], name=name, status="error"
            )

        return give_up

    def _name(self, request: ToolCallRequest) -> str:
        return request.tool.name if request.tool else request.tool_call["name"]

    def wrap_tool_call(self, request: ToolCallRequest, handler: Callable) -> Any:
        name = self._name(request)
        if self._tool_filter is not None and name not in self._tool_filter:
            return handler(request)
        return self._loop.run(lambda: handler(request), self._give_up(request, name))

    async def awrap_tool_call(self, request: ToolCallRequest, handler: Callable) -> Any:
        name = self._name(request)
        if self._tool_filter is not None and name not in self._tool_filter:
            return await handler(request)
        return await self._loop.arun(lambda: handler(request), self._give_up(request, name))


__all__ = ["ToolRetryMiddleware"]
