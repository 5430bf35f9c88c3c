"""The async driver's wake-up: set by a run's emit from any thread (a sync node in the executor,
a subgraph's task), awaited on the event loop, so streamed output reaches an `astream` caller
while the node producing it still runs."""

from __future__ import annotations

import asyncio
import threading


class LoopWake:
    """threading.Event's set/clear for the emitting side; `wait` for the loop's side."""

    __slots__ = ("_loop", "_thread", "_event")

    def __init__(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        self._event = asyncio.Event()

    def set(self) -> None:
        if threading.get_ident() == self._thread:
            self._event.set()
            return
        try:
            self._loop.call_soon_threadsafe(self._event.set)
        except RuntimeError:  # the loop closed (a run abandoned): nobody is waiting
            pass

    def clear(self) -> None:
        self._event.clear()

    async def wait(self) -> None:
        await self._event.wait()
