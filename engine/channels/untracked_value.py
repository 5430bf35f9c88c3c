"""UntrackedValue: a LastValue-like channel that is never saved in checkpoints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from engine._constants import MISSING
from engine.channels.base import SameTypeChannel, Value
from engine.errors import EmptyChannelError, InvalidUpdateError


class UntrackedValue(SameTypeChannel[Value, Value, Value]):
    """Keeps the last value for the run only; checkpoints store nothing for it."""

    __slots__ = ("value", "guard")

    def __init__(self, typ: Any, guard: bool = True) -> None:
        super().__init__(typ)
        self.guard = guard
        self.value: Any = MISSING

    def checkpoint(self) -> Any:
        return MISSING

    def from_checkpoint(self, checkpoint: Any) -> Self:
        new = self.__class__(self.typ, self.guard)
        new.key = self.key
        return new

    def update(self, values: Sequence[Value]) -> bool:
        if not values:
            return False
        if len(values) != 1 and self.guard:
            raise InvalidUpdateError(
                f"At key '{self.key}': UntrackedValue(guard=True) can receive only one value "
                "per step. Use guard=False if you want to store any of them."
            )
        self.value = values[-1]
        return True

    def get(self) -> Value:
        if self.value is MISSING:
            raise EmptyChannelError()
        return self.value

    def is_available(self) -> bool:
        return self.value is not MISSING
