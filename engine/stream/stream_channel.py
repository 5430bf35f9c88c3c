"""StreamChannel: a single-consumer queue the run's caller drains, pumping the graph on demand."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from engine.stream._mux import StreamMux

T = TypeVar("T")


class StreamChannel(Generic[T]):
    """Items pushed by a transformer, popped by the one subscriber (use `tee` for more).

    A named channel is wired by its mux so each push also lands in the main event log (as
    `<name>` for native transformers, `custom:<name>` otherwise). Items are buffered only once
    someone subscribed. When the buffer is empty the cursor calls the bound pump, which runs
    the graph until the next event, so memory stays bounded by the consumer's pace.
    """

    def __init__(self, name: str | None = None, *, maxlen: int | None = None) -> None:
        if maxlen is not None and maxlen <= 0:
            raise ValueError("StreamChannel maxlen must be a positive int or None")
        self.name = name
        self._maxlen = maxlen
        # (push stamp, item): stamps order items across channels for interleave()
        self._items: deque[tuple[int, T]] = deque()
        self._closed = False
        self._error: BaseException | None = None
        self._is_async: bool | None = None
        self._subscribed = False
        self._request_more: Callable[[], bool] | None = None
        self._arequest_more: Callable[[], Awaitable[bool]] | None = None
        self._wire_fn: Callable[[T], None] | None = None
        self._mux: StreamMux | None = None

    # -- wiring, done by the mux
    def _bind_mux(self, mux: StreamMux) -> None:
        self._mux = mux

    def _bind(self, *, is_async: bool) -> None:
        if self._is_async is not None:
            raise RuntimeError("StreamChannel is already bound")
        self._is_async = is_async

    def _wire(self, fn: Callable[[T], None]) -> None:
        self._wire_fn = fn

    # -- producer side
    def push(self, item: T) -> None:
        if self._subscribed:
            if self._closed:
                raise RuntimeError("Cannot push to a closed StreamChannel")
            self._items.append((self._mux._next_push_seq() if self._mux is not None else 0, item))
        # forwarding happens whether or not anyone reads this channel
        if self._wire_fn is not None:
            self._wire_fn(item)

    def close(self) -> None:
        self._closed = True

    def fail(self, err: BaseException) -> None:
        self._error = err
        self._closed = True

    # -- consumer side
    def _subscribe(self, want_async: bool) -> None:
        if self._is_async is None:
            raise TypeError(
                "StreamChannel has not been bound yet. Register the transformer with a StreamMux first."
            )
        if self._is_async and not want_async:
            raise TypeError("This StreamChannel is bound to async mode — use 'async for' instead.")
        if want_async and not self._is_async:
            raise TypeError("This StreamChannel is bound to sync mode — use 'for' instead.")
        if self._subscribed:
            fanout = ".atee(n)" if want_async else ".tee(n)"
            raise RuntimeError(f"StreamChannel already has a subscriber; use {fanout} for fan-out.")
        self._subscribed = True

    def _next_ready(self) -> tuple[bool, Any]:
        """(True, item) if one is buffered; (True, _END) when closed and empty; else (False, _)."""
        if self._items:
            return True, self._items.popleft()[1]
        if self._closed:
            if self._error is not None:
                raise self._error
            return True, _END
        return False, None

    def __iter__(self) -> Iterator[T]:
        self._subscribe(want_async=False)
        return self._cursor()

    def _cursor(self) -> Iterator[T]:
        while True:
            ready, item = self._next_ready()
            if ready:
                if item is _END:
                    return
                yield item
                continue
            # nothing buffered: run the graph one event further, or stop if it cannot run
            if self._request_more is None or (
                not self._request_more() and not self._items and not self._closed
            ):
                return

    def __aiter__(self) -> AsyncIterator[T]:
        self._subscribe(want_async=True)
        return self._acursor()

    async def _acursor(self) -> AsyncIterator[T]:
        while True:
            ready, item = self._next_ready()
            if ready:
                if item is _END:
                    return
                yield item
                continue
            if self._arequest_more is None or (
                not await self._arequest_more() and not self._items and not self._closed
            ):
                return

    # -- fan-out
    def tee(self, n: int = 2) -> tuple[Iterator[T], ...]:
        """`n` iterators over this channel, each seeing every item."""
        if n < 1:
            raise ValueError("tee() requires n >= 1")
        source = iter(self)
        queues: list[deque[T]] = [deque() for _ in range(n)]
        state = {"done": False}

        def branch(mine: deque[T]) -> Iterator[T]:
            while True:
                if mine:
                    yield mine.popleft()
                    continue
                if state["done"]:
                    return
                try:
                    item = next(source)
                except StopIteration:
                    state["done"] = True
                    return
                for q in queues:
                    q.append(item)

        return tuple(branch(q) for q in queues)

    def atee(self, n: int = 2) -> tuple[AsyncIterator[T], ...]:
        """Async `tee`: one branch at a time pulls from the source, under a lock."""
        if n < 1:
            raise ValueError("atee() requires n >= 1")
        source = self.__aiter__()
        queues: list[deque[T]] = [deque() for _ in range(n)]
        state: dict[str, Any] = {"done": False, "error": None}
        lock = asyncio.Lock()

        async def branch(mine: deque[T]) -> AsyncIterator[T]:
            while True:
                if mine:
                    yield mine.popleft()
                    continue
                if state["done"]:
                    if state["error"] is not None:
                        raise state["error"]
                    return
                async with lock:
                    # another branch may have pulled while we waited
                    if mine or state["done"]:
                        continue
                    try:
                        item = await source.__anext__()
                    except StopAsyncIteration:
                        state["done"] = True
                        continue
                    except Exception as exc:
                        state["done"], state["error"] = True, exc
                        continue
                    for q in queues:
                        q.append(item)

        return tuple(branch(q) for q in queues)


_END: Any = object()
