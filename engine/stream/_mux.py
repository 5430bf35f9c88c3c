"""StreamMux: routes protocol events through the transformer pipeline into the main log."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from engine.stream._types import ProtocolEvent, StreamTransformer, transformer_requires_async
from engine.stream.stream_channel import StreamChannel

TransformerFactory = Callable[["tuple[str, ...]"], StreamTransformer]
"""`factory(scope) -> StreamTransformer`; a transformer class is itself a factory."""


def _lanes(transformers: list[StreamTransformer]) -> list[StreamTransformer]:
    """`before_builtins` transformers first, each lane in the order given."""
    first = [t for t in transformers if getattr(t, "before_builtins", False)]
    return first + [t for t in transformers if not getattr(t, "before_builtins", False)]


class StreamMux:
    """Owns the main event log (`_events`) and the transformers' merged projections.

    Built from `factories` (re-run for each subgraph scope by `_make_child`) and/or pre-built
    `transformers` (this mux only). The root mux numbers the events entering its log with
    `seq`; child muxes share event objects with the root and leave them untouched.
    """

    def __init__(
        self,
        transformers: list[StreamTransformer] | None = None,
        *,
        is_async: bool = False,
        factories: list[TransformerFactory] | None = None,
        scope: tuple[str, ...] = (),
        _assign_seq: bool = True,
    ) -> None:
        self.is_async = is_async
        self.scope: tuple[str, ...] = scope
        self._assign_seq = _assign_seq
        self._events: StreamChannel[ProtocolEvent] = StreamChannel()
        self._events._bind(is_async=is_async)
        self._events._bind_mux(self)
        self._transformers: list[StreamTransformer] = []
        self._channels: list[StreamChannel[Any]] = []
        self._seq = 0
        self._push_seq = 0
        self.extensions: dict[str, Any] = {}
        self.native_keys: set[str] = set()
        self._projection_owners: dict[str, str] = {}
        self._transformer_by_key: dict[str, StreamTransformer] = {}
        self._factories: list[TransformerFactory] | None = (
            list(factories) if factories is not None else None
        )
        self._pump_fn: Callable[[], bool] | None = None
        self._apump_fn: Callable[[], Awaitable[bool]] | None = None
        if factories is not None:
            for transformer in _lanes([factory(scope) for factory in factories]):
                self._register(transformer)
        for transformer in _lanes(list(transformers or ())):
            self._register(transformer)

    def transformer_by_key(self, key: str) -> StreamTransformer | None:
        return self._transformer_by_key.get(key)

    def _next_push_seq(self) -> int:
        self._push_seq += 1
        return self._push_seq

    def _stamp(self, event: ProtocolEvent) -> None:
        if self._assign_seq:
            self._seq += 1
            event["seq"] = self._seq

    # ------------------------------------------------------------------ registration
    def _register(self, transformer: StreamTransformer) -> None:
        if transformer_requires_async(transformer) and not self.is_async:
            raise RuntimeError(
                f"{type(transformer).__name__} requires an async run — it overrides "
                "aprocess/afinalize/afail or sets requires_async=True. Use astream(), not stream()."
            )
        projection = transformer.init()
        if not isinstance(projection, dict):
            raise TypeError(
                f"StreamTransformer.init() must return a dict, got {type(projection).__name__}"
            )
        clashes = sorted(set(projection) & set(self.extensions))
        if clashes:
            owners = ", ".join(
                f"{key!r} (owned by {self._projection_owners[key]})" for key in clashes
            )
            raise ValueError(
                f"Transformer {type(transformer).__name__} returned projection keys that "
                f"conflict with already-registered keys: {owners}"
            )
        native = bool(getattr(transformer, "_native", False))
        self._transformers.append(transformer)
        for value in projection.values():
            if isinstance(value, StreamChannel):
                self._adopt_channel(value, native)
        self.extensions.update(projection)
        for key in projection:
            self._projection_owners[key] = type(transformer).__name__
            self._transformer_by_key[key] = transformer
        if native:
            self.native_keys.update(projection)
        transformer._on_register(self)

    def _adopt_channel(self, channel: StreamChannel[Any], native: bool) -> None:
        channel._bind(is_async=self.is_async)
        channel._bind_mux(self)
        self._channels.append(channel)
        if channel.name is not None:
            method = channel.name if native else f"custom:{channel.name}"
            channel._wire(lambda item, _method=method: self._forward(_method, item))

    def _forward(self, method: str, item: Any) -> None:
        """A named channel's push as a main-log event; it skips the transformers (no loops)."""
        event: ProtocolEvent = {
            "type": "event",
            "method": method,
            "params": {"namespace": [], "timestamp": int(time.time() * 1000), "data": item},
        }
        self._stamp(event)
        self._events.push(event)

    # ------------------------------------------------------------------ pumps and children
    def bind_pump(self, fn: Callable[[], bool]) -> None:
        """Let every cursor of this mux (log, projections, message streams) drive `fn`."""
        self._pump_fn = fn
        self._events._request_more = fn
        for channel in self._channels:
            channel._request_more = fn
        for transformer in self._transformers:
            if (bind := getattr(transformer, "_bind_pump", None)) is not None:
                bind(fn)

    def bind_apump(self, fn: Callable[[], Awaitable[bool]]) -> None:
        self._apump_fn = fn
        self._events._arequest_more = fn
        for channel in self._channels:
            channel._arequest_more = fn
        for transformer in self._transformers:
            if (bind := getattr(transformer, "_bind_apump", None)) is not None:
                bind(fn)

    def _make_child(self, scope: tuple[str, ...]) -> StreamMux:
        """A mux for a subgraph at `scope`: fresh transformers from the same factories."""
        if self._factories is None:
            raise RuntimeError(
                "StreamMux._make_child requires the mux to be constructed with `factories=`; "
                "pre-built transformers can't be cloned to a new scope."
            )
        child = StreamMux(
            factories=self._factories, is_async=self.is_async, scope=scope, _assign_seq=False
        )
        if self._pump_fn is not None:
            child.bind_pump(self._pump_fn)
        if self._apump_fn is not None:
            child.bind_apump(self._apump_fn)
        return child

    # ------------------------------------------------------------------ sync lane
    def push(self, event: ProtocolEvent) -> None:
        """Every transformer sees the event; it reaches the log unless one returned False."""
        keep = True
        for transformer in self._transformers:
            if not transformer.process(event):
                keep = False
        if keep:
            # stamped after the pipeline so events forwarded meanwhile come first
            self._stamp(event)
            self._events.push(event)

    def close(self) -> None:
        first_error: BaseException | None = None
        for transformer in self._transformers:
            try:
                transformer.finalize()
            except BaseException as exc:
                first_error = first_error or exc
        self._close_channels()
        if first_error is not None:
            raise first_error

    def fail(self, err: BaseException) -> None:
        for transformer in self._transformers:
            try:
                transformer.fail(err)
            except BaseException:
                pass
        self._fail_channels(err, overwrite_log=True)

    def _close_channels(self) -> None:
        for channel in self._channels:
            if not channel._closed:
                channel.close()
        self._events.close()

    def _fail_channels(self, err: BaseException, overwrite_log: bool = False) -> None:
        for channel in self._channels:
            if not channel._closed:
                channel.fail(err)
        # the sync lane records the error even on a log already closed (langgraph does too)
        if overwrite_log or not self._events._closed:
            self._events.fail(err)

    # ------------------------------------------------------------------ async lane
    async def apush(self, event: ProtocolEvent) -> None:
        keep = True
        for transformer in self._transformers:
            if not await transformer.aprocess(event):
                keep = False
        if keep:
            self._stamp(event)
            self._events.push(event)

    async def aclose(self) -> None:
        """Await scheduled work (its first error fails the close), then finalize and close."""
        pending = self._collect_scheduled_tasks()
        if pending:
            results = await asyncio.gather(*pending, return_exceptions=True)
            for result in results:
                if isinstance(result, BaseException) and not isinstance(
                    result, asyncio.CancelledError
                ):
                    raise result
        first_error: BaseException | None = None
        for transformer in self._transformers:
            try:
                await transformer.afinalize()
            except BaseException as exc:
                first_error = first_error or exc
        self._close_channels()
        if first_error is not None:
            raise first_error

    async def afail(self, err: BaseException) -> None:
        pending = self._collect_scheduled_tasks()
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
        for transformer in self._transformers:
            try:
                await transformer.afail(err)
            except BaseException:
                pass
        self._fail_channels(err)

    def _collect_scheduled_tasks(self) -> list[asyncio.Task[Any]]:
        return [
            task
            for transformer in self._transformers
            for task in getattr(transformer, "_stream_scheduled_tasks", ())
            if not task.done()
        ]
