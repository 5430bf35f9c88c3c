"""A msgpack array's header: a list stored as pieces (its items serialized in runs) is one
array again by joining the pieces' items under a new header, without re-serializing them."""

from __future__ import annotations

from typing import Any


def array_header(data: Any) -> tuple[int, int] | None:
    """(items, header length) of a msgpack array, or None if `data` is not one."""
    if not isinstance(data, bytes) or not data:
        return None
    first = data[0]
    if 0x90 <= first <= 0x9F:
        return first & 0x0F, 1
    if first == 0xDC:
        return int.from_bytes(data[1:3]), 3
    if first == 0xDD:
        return int.from_bytes(data[1:5]), 5
    return None


def pack_array_header(items: int) -> bytes:
    if items < 16:
        return bytes([0x90 | items])
    if items < 0x10000:
        return b"\xdc" + items.to_bytes(2)
    return b"\xdd" + items.to_bytes(4)
