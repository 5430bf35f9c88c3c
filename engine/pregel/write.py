"""Node writers: turn a node's return value into channel writes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from engine._constants import TASKS
from engine.errors import InvalidUpdateError
from engine.types import Send

PASSTHROUGH = object()
"""Write the node's output itself."""
SKIP_WRITE = object()
"""A mapper returning this writes nothing."""


class ChannelWriteEntry(NamedTuple):
    """Write `value` (or the node output, mapped by `mapper`) to `channel`."""

    channel: str
    value: Any = PASSTHROUGH
    skip_none: bool = False
    mapper: Callable[[Any], Any] | None = None


class ChannelWriteTupleEntry(NamedTuple):
    """`mapper(output)` returns the (channel, value) pairs to write, or None."""

    mapper: Callable[[Any], Sequence[tuple[str, Any]] | None]
    value: Any = PASSTHROUGH
    static: Sequence[tuple[str, Any, str | None]] | None = None
    """Writes this entry may produce, for drawing the graph: (channel, value, label)."""


class ChannelWrite:
    """A writer made of entries; runs after the node's callable, in the node's task."""

    __slots__ = ("writes", "name")

    def __init__(self, writes: Sequence[ChannelWriteEntry | ChannelWriteTupleEntry | Send]):
        self.writes = list(writes)
        self.name = "ChannelWrite<" + ",".join(_entry_name(w) for w in self.writes) + ">"

    def get_writes(self, output: Any, task: Any = None) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = []
        for entry in self.writes:
            if isinstance(entry, ChannelWriteTupleEntry):  # first: every node's state update
                if pairs := entry.mapper(output if entry.value is PASSTHROUGH else entry.value):
                    out.extend(pairs)
                continue
            if isinstance(entry, Send):
                out.append((TASKS, entry))
                continue
            value = output if entry.value is PASSTHROUGH else entry.value
            if entry.mapper is not None:
                value = entry.mapper(value)
            if value is SKIP_WRITE or (entry.skip_none and value is None):
                continue
            out.append((entry.channel, value))
        for channel, value in out:
            if channel == TASKS and not isinstance(value, Send):
                raise InvalidUpdateError(f"Invalid packet type, expected Send, got {value}")
        return out

    def __repr__(self) -> str:
        return self.name


def _entry_name(entry: Any) -> str:
    if isinstance(entry, Send):
        return entry.node
    if isinstance(entry, ChannelWriteEntry):
        return entry.channel
    return "..."
