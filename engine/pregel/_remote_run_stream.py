"""RemoteGraph's v3 run streams: the local GraphRunStream surface (output, interrupts, the
values/messages/subgraphs/tool_calls projections, extensions, abort, raw events) over
langgraph_sdk's thread stream, whose run is started when the stream is entered."""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

from engine.types import Command

logger = logging.getLogger(__name__)

# the sdk decodes these itself; the plain ones are decoded here from each event's params.data
_TYPED = ("values", "messages", "tool_calls", "subgraphs")
_PLAIN = ("updates", "checkpoints", "tasks", "custom")


def wire_input(input: Any) -> Any:
    """The v3 start input: a resume answer goes as the raw value (the server wraps it)."""
    if not isinstance(input, Command):
        return input
    if input.goto or input.update:
        raise NotImplementedError(
            "RemoteGraph v3 streaming supports `Command(resume=...)` only; "
            "`goto` / `update` are not supported by the v3 `run.start` path."
        )
    return input.resume


class _Channel:
    """One plain wire channel as a projection: `for` on a sync stream, `async for` on async."""

    def __init__(self, sdk: Any, channel: str) -> None:
        self._sdk, self._channel = sdk, channel

    def __iter__(self) -> Iterator[Any]:
        from langgraph_sdk.stream.decoders import DataDecoder

        decoder = DataDecoder(self._channel)
        for event in self._sdk.subscribe([self._channel]):
            yield from decoder.feed(event)

    async def __aiter__(self) -> AsyncIterator[Any]:
        from langgraph_sdk.stream.decoders import DataDecoder

        decoder = DataDecoder(self._channel)
        async for event in self._sdk.subscribe([self._channel]):
            for item in decoder.feed(event):
                yield item


class _Extensions(Mapping[str, Any]):
    """name -> projection, as a local run's `extensions`; other names are custom channels."""

    _NATIVE = _TYPED + _PLAIN

    def __init__(self, sdk: Any) -> None:
        self._sdk = sdk

    def __getitem__(self, name: str) -> Any:
        if name in _TYPED:
            return getattr(self._sdk, name)
        if name in _PLAIN:
            return _Channel(self._sdk, name)
        return self._sdk.extensions[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._NATIVE)

    def __len__(self) -> int:
        return len(self._NATIVE)


class _Base:
    def __init__(self, client: Any, sdk_thread: Any, input: Any, config: Any, metadata: Any):
        self._client, self._sdk = client, sdk_thread
        self._start_kwargs = {"input": wire_input(input), "config": config, "metadata": metadata}
        self._run_id: str | None = None
        self._closed = False
        self._events: Any = None

    values = property(lambda self: self._sdk.values)
    messages = property(lambda self: self._sdk.messages)
    subgraphs = property(lambda self: self._sdk.subgraphs)
    tool_calls = property(lambda self: self._sdk.tool_calls)
    extensions = property(lambda self: _Extensions(self._sdk))

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"{type(self).__name__} already closed")


class _RemoteGraphRunStream(_Base):
    """Sync: `with rg.stream_events(input, version="v3") as run: ...`."""

    def __init__(self, *, sync_client, sdk_thread, input, config, metadata) -> None:
        super().__init__(sync_client, sdk_thread, input, config, metadata)

    def __enter__(self) -> _RemoteGraphRunStream:
        self._check_open()
        self._sdk.__enter__()
        try:
            self._run_id = self._sdk.run.start(**self._start_kwargs)["run_id"]
        except BaseException:
            self._sdk.__exit__(*sys.exc_info())
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self._closed:
            self._closed = True
            self._sdk.__exit__(*exc)

    # these read the sdk's current view; they do not wait for the run to end
    output = property(lambda self: self._sdk.output)
    interrupted = property(lambda self: self._sdk.interrupted)
    interrupts = property(lambda self: list(self._sdk.interrupts))

    def abort(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self._run_id is not None:
                self._client.runs.cancel(self._sdk.thread_id, self._run_id, wait=False)
        except Exception:
            logger.debug("abort: runs.cancel failed", exc_info=True)
        try:
            self._sdk.close()
        except Exception:
            logger.debug("abort: sdk.close failed", exc_info=True)

    def __iter__(self) -> Iterator[Any]:
        if self._events is None:
            self._events = iter(self._sdk.events)
        return self._events

    def interleave(self, *names: str) -> Iterator[tuple[str, Any]]:
        yield from self._sdk.interleave_projections(list(names))


class _AsyncRemoteGraphRunStream(_Base):
    """Async: `async with await rg.astream_events(input, version="v3") as run: ...`."""

    def __init__(self, *, client, sdk_thread, input, config, metadata) -> None:
        super().__init__(client, sdk_thread, input, config, metadata)

    async def __aenter__(self) -> _AsyncRemoteGraphRunStream:
        self._check_open()
        await self._sdk.__aenter__()
        try:
            self._run_id = (await self._sdk.run.start(**self._start_kwargs))["run_id"]
        except BaseException:
            await self._sdk.__aexit__(*sys.exc_info())
            raise
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if not self._closed:
            self._closed = True
            await self._sdk.__aexit__(*exc)

    async def output(self) -> Any:
        """The final state, once the remote run ends."""
        return await self._sdk.output

    async def interrupted(self) -> bool:
        return self._sdk.interrupted

    async def interrupts(self) -> list[Any]:
        return list(self._sdk.interrupts)

    async def abort(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self._run_id is not None:
                await self._client.runs.cancel(self._sdk.thread_id, self._run_id, wait=False)
        except Exception:
            logger.debug("abort: runs.cancel failed", exc_info=True)
        try:
            await self._sdk.close()
        except Exception:
            logger.debug("abort: sdk.close failed", exc_info=True)

    def __aiter__(self) -> AsyncIterator[Any]:
        if self._events is None:
            self._events = self._sdk.events.__aiter__()
        return self._events


# langgraph's private names for the same pieces
_translate_command_input = wire_input
_ChannelProjection = _Channel
_ProjectionRegistry = _Extensions
