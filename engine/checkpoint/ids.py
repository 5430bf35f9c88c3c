"""Time-ordered ids (UUID version 6 layout): sorting ids as strings sorts them by creation; and
the checkpoints' timestamps."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

_lock = threading.Lock()
_acquire, _release = _lock.acquire, _lock.release
_last = 0
_high: tuple[int, str] = (-1, "")  # the last time prefix of an id, and its text
_second: tuple[int, str] = (-1, "")  # the last whole second formatted, and its text
# 100-ns intervals between the Gregorian epoch (1582-10-15) and the Unix epoch
_GREGORIAN_OFFSET = 0x01B21DD213814000


def uuid6(clock_seq: int | None = None, *, rng: Any = random) -> str:
    """A new time-ordered id; strictly increasing within this process.

    The clock sequence (unless given: a checkpoint's is its step, as langgraph's) and the node
    are random, drawn from `rng` exactly as langgraph's uuid6 draws them from the global
    `random`: getrandbits(14), then getrandbits(48). A program that seeds `random` and draws
    from it in its nodes then takes the same values on the engine as on langgraph. (`random` is
    reseeded in a forked child, so ids made in the same 100 ns by two processes still differ.)
    """
    global _last, _high
    ts = time.time_ns() // 100 + _GREGORIAN_OFFSET
    _acquire()  # (not `with _lock`: a third cheaper, once per checkpoint; nothing here raises)
    if ts <= _last:
        ts = _last + 1
    _last = ts
    _release()
    # the 48 most significant bits of the 60-bit time change every 410 us: their text is kept
    known = _high
    if known[0] != ts >> 12:
        high = ts >> 12 & 0xFFFFFFFFFFFF
        known = _high = (ts >> 12, f"{high >> 16:08x}-{high & 0xFFFF:04x}-6")
    if clock_seq is None:
        clock_seq = rng.getrandbits(14)
    node = rng.getrandbits(48)
    # variant bits 10, then the 14-bit clock sequence (%-formatting: a third cheaper than an
    # f-string with three format specs, once per checkpoint)
    text = "%s%03x-%04x-%012x"  # noqa: UP031
    return text % (known[1], ts & 0xFFF, clock_seq & 0x3FFF | 0x8000, node)


def utc_now_iso() -> str:
    """Now in UTC as `datetime.now(UTC).isoformat()` writes it (microseconds left out when
    zero), a third of its cost: one per checkpoint, and the second's text is kept."""
    global _second
    seconds, micros = divmod(time.time_ns() // 1000, 1_000_000)
    known = _second
    if known[0] != seconds:
        known = _second = (seconds, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)))
    text = known[1]
    return f"{text}.{micros:06d}+00:00" if micros else f"{text}+00:00"
