"""BaseChannel: a versioned slot of state whose class is its merge rule."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Generic, Self, TypeVar

from engine._constants import MISSING
from engine.errors import EmptyChannelError

Value = TypeVar("Value")
Update = TypeVar("Update")
Checkpoint = TypeVar("Checkpoint")  # what checkpoint() stores, the third parameter as in langgraph


class BaseChannel(Generic[Value, Update, Checkpoint], ABC):
    """A named mailbox: `update()` merges one superstep's writes, `get()` reads the value.

    The loop bumps a channel's version whenever `update`, `consume` or `finish` returns True;
    nodes wake when a trigger channel's version is newer than the one they last saw.
    """

    __slots__ = ("key", "typ")

    def __init__(self, typ: Any, key: str = "") -> None:
        self.typ = typ
        self.key = key

    # abstract, as in langgraph: a program's own channel class must say what it holds and takes
    @property
    @abstractmethod
    def ValueType(self) -> Any:
        """The type of the value `get()` returns."""

    @property
    @abstractmethod
    def UpdateType(self) -> Any:
        """The type of one write `update()` receives."""

    # -- persistence: a checkpoint stores `checkpoint()`, a restore calls `from_checkpoint()`
    def checkpoint(self) -> Any:
        """The value to save, or MISSING when the channel is empty."""
        try:
            return self.get()
        except EmptyChannelError:
            return MISSING

    @abstractmethod
    def from_checkpoint(self, checkpoint: Any) -> Self:
        """A new channel of the same kind holding a saved value (MISSING: empty)."""

    def copy(self) -> Self:
        return self.from_checkpoint(self.checkpoint())

    # -- reading
    @abstractmethod
    def get(self) -> Value:
        """The current value; raises EmptyChannelError when there is none."""

    def is_available(self) -> bool:
        try:
            self.get()
            return True
        except EmptyChannelError:
            return False

    # -- writing (at the barrier)
    @abstractmethod
    def update(self, values: Sequence[Update]) -> bool:
        """Merge this superstep's writes (possibly none); return True if the value changed."""

    def consume(self) -> bool:
        """Called when a task triggered by this channel ran; True if that changed the value."""
        return False

    def finish(self) -> bool:
        """Called when the run is about to end; True if that made a value available."""
        return False


class SameTypeChannel(BaseChannel[Value, Update, Checkpoint]):
    """A built-in channel whose value and writes are both of the type it was given."""

    __slots__ = ()

    @property
    def ValueType(self) -> Any:
        return self.typ

    @property
    def UpdateType(self) -> Any:
        return self.typ
