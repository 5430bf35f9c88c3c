"""What a LangGraph server can make the studio wait for or hold, enforced on the HTTP client the
SDK uses (its event hooks), no Qt.

httpx's timeouts are per read: a server sending one byte a second never trips them. So each call
carries `Limits` (a context variable set on the thread making the call) and every chunk of a
reply is checked against them: a wall-clock deadline for the whole reply, a cap on its bytes, a
cap on one streamed line (one SSE field), and a stop flag for a streamed run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

import httpx

MB = 1 << 20


class RemoteError(Exception):
    """A server's answer the dock shows as it is."""


class RemoteTimeout(RemoteError):
    """The server did not send its whole reply before the call's deadline."""


class Stopped(RemoteError):
    """The user stopped the streamed run."""


@dataclass(frozen=True)
class Limits:
    seconds: float | None = None
    """The whole reply is due within this many seconds of `started` (None: no deadline)."""
    max_bytes: int | None = None
    max_line: int | None = None
    stop: threading.Event | None = None
    started: float = 0.0

    def check(self) -> None:
        if self.stop is not None and self.stop.is_set():
            raise Stopped("stopped")
        if self.seconds is not None and self.left() <= 0:
            raise timed_out(self.seconds)

    def left(self) -> float:
        assert self.seconds is not None
        return self.started + self.seconds - time.monotonic()


def timed_out(seconds: float) -> RemoteTimeout:
    return RemoteTimeout(f"the server did not answer within {seconds:g} s (timeout)")


CURRENT: ContextVar[Limits | None] = ContextVar("remote_limits", default=None)
"""The limits of the call the current thread is making (each call runs on its own thread)."""


def install(client: httpx.Client) -> None:
    """Check every request and reply of `client` against the calling thread's `CURRENT`."""
    client.event_hooks = {"request": [_clamp_timeouts], "response": [_limit_body]}


def _clamp_timeouts(request: httpx.Request) -> None:
    """No connect or read may wait past the deadline (a silent server fails at the deadline)."""
    limits = CURRENT.get()
    if limits is None or limits.seconds is None:
        return
    limits.check()
    left = limits.left()
    timeouts = request.extensions.get("timeout") or {}
    request.extensions["timeout"] = {
        key: left if value is None else min(value, left) for key, value in timeouts.items()
    } or dict.fromkeys(("connect", "read", "write", "pool"), left)


def _limit_body(response: httpx.Response) -> None:
    limits = CURRENT.get()
    if limits is not None:
        response.stream = _LimitedStream(response.stream, limits)


class _LimitedStream(httpx.SyncByteStream):
    def __init__(self, inner: httpx.SyncByteStream, limits: Limits) -> None:
        self._inner, self._limits = inner, limits

    def __iter__(self) -> Iterator[bytes]:
        limits, total, line = self._limits, 0, 0
        for chunk in self._inner:
            limits.check()
            total += len(chunk)
            if limits.max_bytes is not None and total > limits.max_bytes:
                raise RemoteError(f"the server's reply is over {limits.max_bytes / MB:g} MB")
            if limits.max_line is not None:
                line = _line_after(line, chunk, limits.max_line)
            yield chunk

    def close(self) -> None:
        self._inner.close()


def _line_after(line: int, chunk: bytes, limit: int) -> int:
    """The length of the open line after `chunk`, `line` bytes long before it; a RemoteError
    when a line passes `limit` (lines inside one chunk are shorter than the chunk)."""
    first = chunk.find(b"\n")
    if line + (len(chunk) if first < 0 else first) > limit:
        raise RemoteError(f"a streamed part from the server is over {limit / MB:g} MB")
    return line + len(chunk) if first < 0 else len(chunk) - chunk.rfind(b"\n") - 1
