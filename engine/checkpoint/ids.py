"""Time-ordered ids (UUID version 6 layout): sorting ids as strings sorts them by creation."""

from __future__ import annotations

import os
import threading
import time

_lock = threading.Lock()
_last = 0
# 100-ns intervals between the Gregorian epoch (1582-10-15) and the Unix epoch
_GREGORIAN_OFFSET = 0x01B21DD213814000


def uuid6() -> str:
    """A new time-ordered id; strictly increasing within this process."""
    global _last
    with _lock:
        ts = time.time_ns() // 100 + _GREGORIAN_OFFSET
        if ts <= _last:
            ts = _last + 1
        _last = ts
    high = (ts >> 12) & 0xFFFFFFFFFFFF  # 48 most significant bits of the 60-bit time
    low = ts & 0x0FFF
    clock = int.from_bytes(os.urandom(2)) & 0x3FFF | 0x8000  # variant bits 10
    node = int.from_bytes(os.urandom(6))
    h = f"{high:012x}6{low:03x}{clock:04x}{node:012x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
