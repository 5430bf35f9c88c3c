"""SuperstepStepper: a run advanced one superstep per call, recording the structured trace."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any

from engine.pregel import trace
from engine.pregel.loop import PregelLoop
from engine.pregel.run_setup import STEP_DONE

if TYPE_CHECKING:
    from engine.pregel.main import Pregel


class SuperstepStepper:
    """Drives a run one superstep at a time; between steps the caller reads `events` and `chunks`.

    Works with or without a checkpointer: the run's state lives in a suspended generator.
    """

    def __init__(
        self,
        graph: Pregel,
        input: Any,
        config: dict | None,
        *,
        context: Any,
        stream_mode: Any,
        durability: str | None = None,
        asynchronous: bool = False,
    ):
        self.events: list[trace.TraceEvent] = []
        self.chunks: list[Any] = []
        self.done = False
        self._run = graph._prepare(
            input,
            config,
            context=context,
            stream_mode=list(stream_mode),
            output_keys=None,
            interrupt_before=None,
            interrupt_after=None,
            subgraphs=True,
            version="v2",
            observer=self.events.append,
            durability=durability,
            # a step's chunks are read when it ends: no thread per task to stream them sooner
            eager=False,
            asynchronous=asynchronous,
        )
        self._agen: AsyncGenerator[Any, None] | None = None
        if asynchronous:  # the async API on an event loop of the stepper's own, one item a call
            self._event_loop = asyncio.new_event_loop()
            self._agen = graph._arun(self._run, mark_steps=True)
            self._gen = _sync_items(self._event_loop, self._agen)
        else:
            self._gen = graph._run(self._run, mark_steps=True)

    @property
    def loop(self) -> PregelLoop:
        return self._run.loop

    def step(self) -> list[trace.TraceEvent]:
        """Run the next superstep; return the trace events it produced."""
        start = len(self.events)
        if self.done:
            return []
        try:
            for item in self._gen:
                if item is STEP_DONE:
                    return self.events[start:]
                self.chunks.append(item)
        except BaseException:
            self._close_loop()
            raise
        self.done = True
        self._close_loop()
        return self.events[start:]

    def close(self) -> None:
        """End a run left unfinished, as a caller that stops reading a stream ends it: the run
        finishes there (its saves land) on its own event loop, not when the garbage collector
        finalizes it on a thread with no loop. Idempotent."""
        if self.done:
            return
        self.done = True
        try:
            if self._agen is not None and not self._event_loop.is_closed():
                self._event_loop.run_until_complete(self._agen.aclose())
            else:
                self._gen.close()
        finally:
            self._close_loop()

    def _close_loop(self) -> None:
        loop = getattr(self, "_event_loop", None)
        if loop is not None and not loop.is_closed():
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    def run_to_end(self) -> list[trace.TraceEvent]:
        while not self.done:
            self.step()
        return self.events

    @property
    def output(self) -> Any:
        return self._run.loop.output


def _sync_items(loop: asyncio.AbstractEventLoop, items: AsyncIterator[Any]) -> Iterator[Any]:
    """An async generator's items, each awaited on `loop` in the caller's thread."""
    while True:
        try:
            yield loop.run_until_complete(items.__anext__())
        except StopAsyncIteration:
            return


def needs_async(graph: Any) -> bool:
    """Whether a node of `graph` (or of a graph it runs) has no synchronous function, or says
    its synchronous one cannot run (`sync_unavailable`: an agent's async-only middleware)."""
    from engine.pregel.main import Pregel

    seen: set[int] = set()

    def only_async(runnable: Any) -> bool:
        if id(runnable) in seen:
            return False
        seen.add(id(runnable))
        if isinstance(runnable, Pregel):
            return any(only_async(node.bound) for node in runnable.nodes.values())
        if getattr(runnable, "is_async", False) or getattr(runnable, "sync_unavailable", False):
            return True
        if hasattr(runnable, "afunc") and getattr(runnable, "func", None) is None:
            return runnable.afunc is not None
        return any(only_async(step) for step in getattr(runnable, "steps", None) or ())

    return only_async(graph)
