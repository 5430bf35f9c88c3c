"""The objects `stream_events(version="v3")` returns: the caller's iteration runs the graph.

No thread or background task: each cursor that finds its buffer empty pulls one stream part
from the graph, turns it into a protocol event and pushes it through the mux.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NoReturn

from langchain_core._api import beta

from engine.stream._convert import convert_to_protocol_event
from engine.stream._mux import StreamMux
from engine.stream._types import ProtocolEvent

if TYPE_CHECKING:
    from engine.stream.transformers import SubgraphStatus

_BETA = "The v3 streaming protocol on Pregel is experimental."


class _RunState:
    """What both lanes track: the latest own-level values and the interrupts seen."""

    _mux: StreamMux

    def _setup(self, mux: StreamMux) -> None:
        self._mux = mux
        self.extensions: Mapping[str, Any] = MappingProxyType(mux.extensions)
        self._exhausted = False
        self._latest: dict[str, Any] | None = None
        self._interrupted = False
        self._interrupts: list[Any] = []
        self._scope_list: list[str] = list(mux.scope)
        for key in mux.native_keys:
            setattr(self, key, mux.extensions[key])

    def __getattr__(self, name: str) -> NoReturn:
        # only reached for names no native transformer installed; read __dict__ directly
        # because a half-built instance has no _mux yet
        mux = self.__dict__.get("_mux")
        known = ", ".join(sorted(mux.native_keys)) if mux is not None else ""
        raise AttributeError(
            f"{type(self).__name__!r} object has no attribute {name!r} (registered projections: {known or 'none'})"
        )

    def _observe_event(self, event: ProtocolEvent) -> None:
        if event["method"] != "values":
            return
        params = event["params"]
        if params["namespace"] != self._scope_list:
            return
        self._latest = params["data"]
        if interrupts := params.get("interrupts", ()):
            self._interrupted = True
            self._interrupts.extend(interrupts)

    def _raise_run_error(self) -> None:
        if (err := self._mux._events._error) is not None:
            raise err


@beta(message=_BETA)
class GraphRunStream(_RunState):
    """Sync run stream: iterate it (protocol events) or any projection (`run.values`, ...).

    Projections are single-consumer; `output`, `interrupted` and `interrupts` drive the run
    to its end. Use it as a context manager to stop the run early on exit.
    """

    def __init__(
        self, graph_iter: Iterator[Any] | None, mux: StreamMux, *, wire_pump: bool = True
    ) -> None:
        self._graph_iter = graph_iter
        self._setup(mux)
        if wire_pump:
            self._wire_request_more(mux)

    def _wire_request_more(self, mux: StreamMux) -> None:
        # through the mux, so subgraph mini-muxes made later inherit the same pump
        mux.bind_pump(self._pump_next)

    def _pump_next(self) -> bool:
        """Move the graph one stream part on; False once it ended (or failed)."""
        if self._exhausted or self._graph_iter is None:
            return False
        try:
            part = next(self._graph_iter)
        except StopIteration:
            self._mux.close()
            self._exhausted = True
            return False
        except Exception as exc:
            self._mux.fail(exc)
            self._exhausted = True
            return False
        try:
            event = convert_to_protocol_event(part)
            self._observe_event(event)
            self._mux.push(event)
        except Exception as exc:
            self._mux.fail(exc)
            self._exhausted = True
            return False
        return True

    def _drive(self) -> None:
        while self._pump_next():
            pass
        self._raise_run_error()

    def abort(self) -> None:
        """Stop the run: close the graph generator (cancelling running nodes), close the mux."""
        if self._exhausted:
            return
        self._exhausted = True
        graph_iter, self._graph_iter = self._graph_iter, None
        if (close := getattr(graph_iter, "close", None)) is not None:
            try:
                close()
            except Exception:
                pass
        try:
            self._mux.close()
        except Exception:
            pass

    def __enter__(self) -> GraphRunStream:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.abort()

    @property
    def output(self) -> dict[str, Any] | None:
        self._drive()
        return self._latest

    @property
    def interrupted(self) -> bool:
        self._drive()
        return self._interrupted

    @property
    def interrupts(self) -> list[Any]:
        self._drive()
        return self._interrupts

    def __iter__(self) -> Iterator[ProtocolEvent]:
        return iter(self._mux._events)

    def interleave(self, *names: str) -> Iterator[tuple[str, Any]]:
        """`(name, item)` from several projections, in the order their items were pushed."""
        from engine.stream._interleave import interleave

        return interleave(self, names)


@beta(message=_BETA)
class AsyncGraphRunStream(_RunState):
    """Async run stream; concurrent cursors share one pump (one pull at a time).

    `await run.output()` / `interrupted()` / `interrupts()` drive the run to its end;
    `async with` stops it early on exit.
    """

    def __init__(
        self, graph_aiter: AsyncIterator[Any] | None, mux: StreamMux, *, wire_pump: bool = True
    ) -> None:
        self._graph_aiter = graph_aiter
        self._setup(mux)
        self._pump_cond = asyncio.Condition()
        self._pumping = False
        self._anext_task: asyncio.Future[Any] | None = None
        self._aborting = False
        if wire_pump:
            self._wire_arequest_more(mux)

    def _wire_arequest_more(self, mux: StreamMux) -> None:
        mux.bind_apump(self._apump_next)

    async def _apump_next(self) -> bool:
        """Pull one part, or wait for the task already pulling: its push may feed our cursor."""
        async with self._pump_cond:
            if self._exhausted or self._graph_aiter is None:
                return False
            if self._pumping:
                await self._pump_cond.wait()
                return not self._exhausted
            self._pumping = True
        try:
            return await self._pull_one()
        finally:
            async with self._pump_cond:
                self._pumping = False
                self._pump_cond.notify_all()

    async def _pull_one(self) -> bool:
        assert self._graph_aiter is not None
        # a child task, so abort() can cancel a pull that is mid-flight inside a node
        self._anext_task = asyncio.ensure_future(self._graph_aiter.__anext__())
        try:
            part = await self._anext_task
        except asyncio.CancelledError:
            if self._aborting:
                self._exhausted = True
                return False
            self._anext_task.cancel()
            raise
        except StopAsyncIteration:
            self._exhausted = True
            # a finalize error reaches the caller as is (the run itself succeeded)
            await self._mux.aclose()
            return False
        except Exception as exc:
            self._exhausted = True
            await self._mux.afail(exc)
            return False
        finally:
            self._anext_task = None
        try:
            event = convert_to_protocol_event(part)
            self._observe_event(event)
            await self._mux.apush(event)
        except Exception as exc:
            self._exhausted = True
            await self._mux.afail(exc)
            return False
        return True

    async def abort(self) -> None:
        """Stop the run: cancel an in-flight pull, close the generator and the mux."""
        async with self._pump_cond:
            if self._exhausted:
                return
            self._exhausted = True
            self._aborting = True
            graph_aiter, self._graph_aiter = self._graph_aiter, None
            in_flight = self._anext_task
            self._pump_cond.notify_all()
        if in_flight is not None and not in_flight.done():
            in_flight.cancel()
            try:
                await in_flight
            except (asyncio.CancelledError, Exception):
                pass
        if (aclose := getattr(graph_aiter, "aclose", None)) is not None:
            try:
                await aclose()
            except Exception:
                pass
        try:
            await self._mux.aclose()
        except Exception:
            pass

    async def __aenter__(self) -> AsyncGraphRunStream:
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.abort()

    async def _adrive(self) -> None:
        while await self._apump_next():
            pass
        self._raise_run_error()

    # methods, not properties: forgetting `await` should be a type error, not a coroutine
    async def output(self) -> dict[str, Any] | None:
        await self._adrive()
        return self._latest

    async def interrupted(self) -> bool:
        await self._adrive()
        return self._interrupted

    async def interrupts(self) -> list[Any]:
        await self._adrive()
        return self._interrupts

    def __aiter__(self) -> AsyncIterator[ProtocolEvent]:
        return self._mux._events.__aiter__()


class _SubgraphHandle:
    """A discovered subgraph: metadata and a status the SubgraphTransformer updates in place.

    Its mini-mux is fed by the parent's transformer; its cursors drive the parent's pump
    (captured from the mini-mux, which inherited it), never the graph directly.
    """

    path: tuple[str, ...]
    graph_name: str | None
    trigger_call_id: str | None
    status: SubgraphStatus
    error: str | None
    _seen_terminal: bool

    def __init__(
        self,
        mux: StreamMux,
        *,
        path: tuple[str, ...],
        graph_name: str | None = None,
        trigger_call_id: str | None = None,
    ) -> None:
        self._parent_pump_fn: Callable[[], bool] | None = mux._pump_fn
        self._parent_apump_fn: Callable[[], Awaitable[bool]] | None = mux._apump_fn
        super().__init__(None, mux, wire_pump=False)  # type: ignore[call-arg]
        self.path = path
        self.graph_name = graph_name
        self.trigger_call_id = trigger_call_id
        self.status = "started"
        self.error = None
        self._seen_terminal = False

    def _stopped(self) -> bool:
        return self._exhausted or self._seen_terminal or self._mux._events._closed  # type: ignore[attr-defined]


class SubgraphRunStream(_SubgraphHandle, GraphRunStream):
    """Sync handle of a subgraph run (from `run.subgraphs`)."""

    def _pump_next(self) -> bool:
        if self._stopped() or self._parent_pump_fn is None:
            return False
        return self._parent_pump_fn()


class AsyncSubgraphRunStream(_SubgraphHandle, AsyncGraphRunStream):
    """Async handle of a subgraph run (from `run.subgraphs`)."""

    async def _apump_next(self) -> bool:
        if self._stopped() or self._parent_apump_fn is None:
            return False
        return await self._parent_apump_fn()


__all__ = ["AsyncGraphRunStream", "AsyncSubgraphRunStream", "GraphRunStream", "SubgraphRunStream"]
