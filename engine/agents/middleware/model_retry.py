"""ModelRetryMiddleware: retry a failing model call with exponential backoff."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage

from engine.agents.middleware._retry import (
    OnFailure,
    RetryLoop,
    RetryOn,
    attempts_phrase,
    default_retry_on,
)
from engine.agents.middleware.types import AgentMiddleware, ModelRequest, ModelResponse


class ModelRetryMiddleware(AgentMiddleware):
    """Retries the model call up to max_retries times; then raises ("error") or answers with an AI note."""

    def __init__(
        self,
        *,
        max_retries: int = 2,
        retry_on: RetryOn = default_retry_on,
        on_failure: OnFailure = "continue",
        backoff_factor: float = 2.0,
        initial_delay: float = 1.0,
        max_delay: float = 60.0,
        jitter: bool = True,
    ) -> None:
        super().__init__()
        self._loop = RetryLoop(
            max_retries=max_retries,
            retry_on=retry_on,
            on_failure=on_failure,
            backoff_factor=backoff_factor,
            initial_delay=initial_delay,
            max_delay=max_delay,
            jitter=jitter,
        )
        self.tools = []
        self._loop.publish(self)

    def _give_up(self, exc: Exception, attempts: int) -> ModelResponse:
        default = (
            f"Model call failed after {attempts_phrase(attempts)} with {type(exc).__name__}: {exc}"
        )
        return ModelResponse(result=[AIMessage(content=self._loop.failure_content(exc, default))])

    def wrap_model_call(self, request: ModelRequest, handler: Callable) -> Any:
        return self._loop.run(lambda: handler(request), self._give_up)

    async def awrap_model_call(self, request: ModelRequest, handler: Callable) -> Any:
        return await self._loop.arun(lambda: handler(request), self._give_up)


__all__ = ["ModelRetryMiddleware"]
