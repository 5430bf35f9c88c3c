"""Retry loop shared by ModelRetryMiddleware and ToolRetryMiddleware: exponential backoff with jitter."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from langchain_core.exceptions import ModelError

from engine.errors import GraphBubbleUp

RetryOn = tuple[type[Exception], ...] | Callable[[Exception], bool]
OnFailure = Literal["error", "continue"] | Callable[[Exception], str]


def validate_retry_params(
    max_retries: int, initial_delay: float, max_delay: float, backoff_factor: float
) -> None:
    for label, value in (
        ("max_retries", max_retries),
        ("initial_delay", initial_delay),
        ("max_delay", max_delay),
        ("backoff_factor", backoff_factor),
    ):
        if value < 0:
            raise ValueError(f"{label} must be >= 0")


def default_retry_on(exc: BaseException) -> bool:
    """Retry any Exception, except model errors that say they are not retryable."""
    if not isinstance(exc, Exception):
        return False
    return exc.is_retryable if isinstance(exc, ModelError) else True


def should_retry_exception(exc: Exception, retry_on: RetryOn) -> bool:
    return retry_on(exc) if callable(retry_on) else isinstance(exc, retry_on)


def calculate_delay(
    retry_number: int,
    *,
    backoff_factor: float,
    initial_delay: float,
    max_delay: float,
    jitter: bool,
) -> float:
    delay = initial_delay if backoff_factor == 0.0 else initial_delay * backoff_factor**retry_number
    delay = min(delay, max_delay)
    if jitter and delay > 0:
        delay = max(0, delay + random.uniform(-delay * 0.25, delay * 0.25))
    return delay


class RetryLoop:
    """The retry settings of one middleware; `run`/`arun` call until success, give-up or a non-retryable error."""

    def __init__(
        self,
        *,
        max_retries: int,
        retry_on: RetryOn,
        on_failure: OnFailure,
        backoff_factor: float,
        initial_delay: float,
        max_delay: float,
        jitter: bool,
    ) -> None:
        validate_retry_params(max_retries, initial_delay, max_delay, backoff_factor)
        self.max_retries = max_retries
        self.retry_on = retry_on
        self.on_failure = on_failure
        self.backoff_factor = backoff_factor
        self.initial_delay = initial_delay
        self.max_delay = max_delay
        self.jitter = jitter

    SETTINGS = (
        "max_retries",
        "retry_on",
        "on_failure",
        "backoff_factor",
        "initial_delay",
        "max_delay",
        "jitter",
    )

    def publish(self, middleware: Any) -> None:
        """Expose the settings as attributes of the middleware, as LangChain's classes do."""
        for name in self.SETTINGS:
            setattr(middleware, name, getattr(self, name))

    def _delay(self, exc: Exception, attempt: int) -> float | None:
        """Seconds to wait before the next attempt, or None when attempts are used up."""
        if isinstance(exc, GraphBubbleUp) or not should_retry_exception(exc, self.retry_on):
            raise exc
        if attempt >= self.max_retries:
            return None
        return calculate_delay(
            attempt,
            backoff_factor=self.backoff_factor,
            initial_delay=self.initial_delay,
            max_delay=self.max_delay,
            jitter=self.jitter,
        )

    def failure_content(self, exc: Exception, default: str) -> str:
        """After the last attempt: re-raise (on_failure="error") or the content of the failure message."""
        if self.on_failure == "error":
            raise exc
        return self.on_failure(exc) if callable(self.on_failure) else default

    def run(self, call: Callable[[], Any], on_give_up: Callable[[Exception, int], Any]) -> Any:
        for attempt in range(self.max_retries + 1):
            try:
                return call()
            except Exception as exc:
                delay = self._delay(exc, attempt)
                if delay is None:
                    return on_give_up(exc, attempt + 1)
                if delay > 0:
                    time.sleep(delay)
        raise RuntimeError("Unexpected: retry loop completed without returning")

    async def arun(
        self, call: Callable[[], Awaitable[Any]], on_give_up: Callable[[Exception, int], Any]
    ) -> Any:
        for attempt in range(self.max_retries + 1):
            try:
                return await call()
            except Exception as exc:
                delay = self._delay(exc, attempt)
                if delay is None:
                    return on_give_up(exc, attempt + 1)
                if delay > 0:
                    await asyncio.sleep(delay)
        raise RuntimeError("Unexpected: retry loop completed without returning")


def attempts_phrase(n: int) -> str:
    return f"{n} {'attempt' if n == 1 else 'attempts'}"
