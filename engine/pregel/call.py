"""Functional-API calls: a `@task` called inside a running task becomes a task of the same step.

The calling task gets a future at once; the loop plans the call (a PUSH task with a
deterministic id, so a rerun after an interrupt finds its saved result) and the runner runs
it beside the caller. The future is both blocking (`.result()`) and awaitable; an async
caller whose call runs on its own event loop gets an asyncio future, as with langgraph.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from engine._constants import CONF, CONFIG_KEY_CALL


@dataclass(frozen=True, slots=True)
class Call:
    """What a `@task` call asks for: the function, its arguments and its policies."""

    func: Callable[..., Any]
    name: str
    args: tuple
    kwargs: dict
    retry_policy: Sequence[Any] = ()
    cache_policy: Any = None
    timeout: Any = None

    @property
    def input(self) -> tuple[tuple, dict]:
        """A call task's input, as langgraph shows it in the tasks stream: (args, kwargs)."""
        return (self.args, self.kwargs)


class SyncAsyncFuture(concurrent.futures.Future):
    """A concurrent future that can also be awaited from async code."""

    def __await__(self) -> Generator[Any, None, Any]:
        return asyncio.wrap_future(self).__await__()


CallFuture = SyncAsyncFuture | asyncio.Future
"""What a `@task` call returns to its caller."""


def done_future(value: Any = None, error: BaseException | None = None) -> SyncAsyncFuture:
    future = SyncAsyncFuture()
    if error is None:
        future.set_result(value)
    else:
        future.set_exception(error)
    return future


def call(call: Call) -> SyncAsyncFuture:
    """Schedule `call` in the run of the task that makes it (langgraph raises outside a run)."""
    from engine.config import get_config

    config = get_config()
    schedule = config[CONF].get(CONFIG_KEY_CALL)
    if schedule is None:
        raise RuntimeError("Called a task outside of an entrypoint or graph run.")
    return schedule(config, call)


__all__ = ["Call", "CallFuture", "SyncAsyncFuture", "call", "done_future"]
