"""A run's saves under the async API (ainvoke, astream), through the saver's async methods.

As langgraph's async loop does, each save is an asyncio task that starts once the one before it
has finished, so the saver receives them in order while the next superstep runs. The driver
awaits them all at a superstep's end with durability "sync", and when the run ends.

A saver that keeps BaseCheckpointSaver's async twins (which only call the sync method, in a
worker thread when it blocks on I/O) is saved the cheaper way with the same effect: inline when
it does not block, else on the background save thread, which batches its commits.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from engine.checkpoint.base import BaseCheckpointSaver
from engine.pregel.saves import background_saves

_INLINE, _THREAD, _TASK = "inline", "thread", "task"


class AsyncSaves:
    """The pending saves of one run, in order, on the event loop that runs it."""

    def __init__(self, saver: Any) -> None:
        self._loop = asyncio.get_running_loop()
        self._saver = saver
        self._pending: deque[Future | asyncio.Future] = deque()
        self._last_kind: str | None = None  # of the newest pending save
        self._kinds: dict[str, str] = {}

    def defers(self, method: str) -> bool:
        """Whether a save with `method` now would run later, not in the call."""
        return self._kind(method) != _INLINE or bool(self._pending)

    def submit(self, method: str, *args: Any) -> None:
        """Save with `method` (put, put_writes) or its async twin, after the saves before it."""
        kind = self._kind(method)
        if kind == _INLINE and not self._pending:  # nothing to wait for
            getattr(self._saver, method)(*args)
            return
        future: Future | asyncio.Future
        if kind == _THREAD and self._last_kind in (None, _THREAD):
            # the save thread runs one saver's jobs in the order they came
            future = background_saves().submit(self._saver, getattr(self._saver, method), *args)
        else:
            previous = self._pending[-1] if self._pending else None
            twin = getattr(self._saver, f"a{method}")
            future = self._loop.create_task(_after(previous, twin, args))
            kind = _TASK
        self._pending.append(future)
        self._last_kind = kind
        # forget the landed ones at the front; the newest stays, the next save may wait for it
        while len(self._pending) > 1 and _landed(self._pending[0]):
            self._pending.popleft()

    async def wait(self) -> None:
        """Wait for every save, then raise the first failure. Each save waits for the one before
        it (a task awaits it, the save thread runs them in turn), so all have finished when the
        newest has. Cancelling the wait leaves them running: the CancelledError carries the
        newest so a caller can await it before closing the saver's connection (as langgraph)."""
        pending, self._pending, self._last_kind = self._pending, deque(), None
        if not pending:
            return
        newest = _awaitable(pending[-1])
        try:
            await asyncio.wait([newest])
        except asyncio.CancelledError as cancelled:
            cancelled.args = (*cancelled.args, newest)
            raise
        if newest is not pending[-1] and not newest.cancelled():
            # the loop's copy of a thread save's outcome: its error is raised below, from the
            # save itself; unread, the copy would log 'Future exception was never retrieved'
            # whenever the error (whose traceback holds this frame, and so the copy) is freed
            newest.exception()
        errors = [error for future in pending if (error := future.exception()) is not None]
        if errors:
            raise errors[0]

    def _kind(self, method: str) -> str:
        kind = self._kinds.get(method)
        if kind is None:
            kind = self._kinds[method] = _kind_of(self._saver, method)
        return kind


def _kind_of(saver: Any, method: str) -> str:
    twin = f"a{method}"
    if getattr(type(saver), twin, None) is not getattr(BaseCheckpointSaver, twin):
        return _TASK  # the saver's own async method
    return _THREAD if saver.blocks_on_io else _INLINE


def _awaitable(future: Future | asyncio.Future) -> asyncio.Future:
    return asyncio.wrap_future(future) if isinstance(future, Future) else future


async def _after(previous: Any, method: Callable[..., Any], args: tuple) -> None:
    if previous is not None:
        # a failed save fails the ones after it: the saver must not get gaps
        await _awaitable(previous)
    await method(*args)


def _landed(future: Future | asyncio.Future) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


__all__ = ["AsyncSaves"]
