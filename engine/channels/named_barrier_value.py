"""NamedBarrierValue: the join channel of an edge with several sources."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from engine._constants import MISSING
from engine.channels.base import SameTypeChannel, Value
from engine.errors import EmptyChannelError, InvalidUpdateError


def _saved_seen(saved: Any) -> Any:
    """The names a checkpoint says have written: a copy of its set. Anything else is kept as
    saved, as langgraph keeps it: a join that became a deferred node's (or stopped being one)
    since the thread was saved reads the other kind's value, never fills and never fires, and
    a value of the wrong shape fails to unpack with Python's own message."""
    return set(saved) if isinstance(saved, (set, frozenset)) else saved


class NamedBarrierValue(SameTypeChannel[Value, Value, set[Value]]):
    """Available once every name in `names` has written; reading it (consume) resets it."""

    __slots__ = ("names", "seen")

    def __init__(self, typ: Any, names: set[Any]) -> None:
        super().__init__(typ)
        self.names = set(names)
        self.seen: set[Any] = set()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NamedBarrierValue) and other.names == self.names

    def checkpoint(self) -> Any:
        return set(self.seen)

    def from_checkpoint(self, checkpoint: Any) -> Self:
        new = self.__class__(self.typ, self.names)
        new.key = self.key
        if checkpoint is not MISSING:
            new.seen = _saved_seen(checkpoint)
        return new

    def update(self, values: Sequence[Any]) -> bool:
        updated = False
        for value in values:
            if value not in self.names:
                raise InvalidUpdateError(f"At key '{self.key}': Value {value} not in {self.names}")
            if value not in self.seen:
                self.seen.add(value)
                updated = True
        return updated

    def get(self) -> Value:
        if self.seen != self.names:
            raise EmptyChannelError()
        return None  # type: ignore[return-value]

    def is_available(self) -> bool:
        return self.seen == self.names

    def consume(self) -> bool:
        if self.seen == self.names:
            self.seen = set()
            return True
        return False


class NamedBarrierValueAfterFinish(NamedBarrierValue):
    """A join that also waits for the run to be about to finish (joins into deferred nodes)."""

    __slots__ = ("finished",)

    def __init__(self, typ: Any, names: set[Any]) -> None:
        super().__init__(typ, names)
        self.finished = False

    def checkpoint(self) -> Any:
        return (set(self.seen), self.finished)

    def from_checkpoint(self, checkpoint: Any) -> Self:
        new = self.__class__(self.typ, self.names)
        new.key = self.key
        if checkpoint is not MISSING:
            seen, new.finished = checkpoint
            new.seen = _saved_seen(seen)
        return new

    def get(self) -> Value:
        if not self.finished or self.seen != self.names:
            raise EmptyChannelError()
        return None  # type: ignore[return-value]

    def is_available(self) -> bool:
        return self.finished and self.seen == self.names

    def consume(self) -> bool:
        if self.finished and self.seen == self.names:
            self.finished = False
            self.seen = set()
            return True
        return False

    def finish(self) -> bool:
        if not self.finished and self.seen == self.names:
            self.finished = True
            return True
        return False
