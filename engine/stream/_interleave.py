"""GraphRunStream.interleave: several projections merged in push order (by push stamp)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from engine.stream.stream_channel import StreamChannel


def _claim(run: Any, names: Sequence[str]) -> dict[str, StreamChannel[Any]]:
    claimed: dict[str, StreamChannel[Any]] = {}
    try:
        for name in names:
            channel = run.extensions[name]
            if not isinstance(channel, StreamChannel):
                raise TypeError(
                    f"interleave() requires StreamChannel projections, got {type(channel).__name__} for {name!r}"
                )
            if channel._is_async is None:
                raise TypeError(
                    f"StreamChannel {name!r} has not been bound yet. Register the transformer with a StreamMux first."
                )
            if channel._is_async:
                raise TypeError(
                    f"StreamChannel {name!r} is bound to async mode — sync interleave() cannot consume async channels."
                )
            if channel._subscribed:
                raise RuntimeError(
                    f"StreamChannel {name!r} already has a subscriber; use .tee(n) for fan-out."
                )
            channel._subscribed = True
            claimed[name] = channel
    except BaseException:
        _release(claimed)
        raise
    return claimed


def _release(channels: dict[str, StreamChannel[Any]]) -> None:
    for channel in channels.values():
        channel._subscribed = False


def _finished(channel: StreamChannel[Any]) -> bool:
    if channel._closed and not channel._items:
        if channel._error is not None:
            raise channel._error
        return True
    return False


def interleave(run: Any, names: Sequence[str]) -> Iterator[tuple[str, Any]]:
    channels = _claim(run, names)
    try:
        live = dict(channels)
        while live:
            for name in [n for n, ch in live.items() if _finished(ch)]:
                del live[name]
            ready = [(ch._items[0][0], name) for name, ch in live.items() if ch._items]
            if ready:
                _stamp, name = min(ready)
                yield name, live[name]._items.popleft()[1]
                continue
            pump = run._mux._pump_fn
            if pump is not None and pump():
                continue
            # the graph cannot move: drop what closed meanwhile, stop if nothing did
            before = len(live)
            for name in [n for n, ch in live.items() if not ch._items and _finished(ch)]:
                del live[name]
            if len(live) == before:
                return
    finally:
        _release(channels)
