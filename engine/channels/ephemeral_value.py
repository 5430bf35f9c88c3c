"""EphemeralValue: a value that lives for one superstep (inputs, edge signals)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from engine._constants import MISSING
from engine.channels.base import SameTypeChannel, Value
from engine.errors import EmptyChannelError, InvalidUpdateError


class EphemeralValue(SameTypeChannel[Value, Value, Value]):
    """Holds the value written in the previous superstep and clears itself on the next.

    With `guard=True`, two writes in one superstep raise InvalidUpdateError.
    """

    __slots__ = ("value", "guard")

    def __init__(self, typ: Any, guard: bool = True) -> None:
        super().__init__(typ)
        self.guard = guard
        self.value: Any = MISSING

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EphemeralValue) and other.guard == self.guard

    def from_checkpoint(self, checkpoint: Any) -> Self:
        if type(self) is EphemeralValue:  # no subclass __init__ to run: the slots set directly
            new = object.__new__(EphemeralValue)
            new.typ, new.guard = self.typ, self.guard
        else:
            new = self.__class__(self.typ, self.guard)
        new.key = self.key
        new.value = checkpoint
        return new

    def update(self, values: Sequence[Value]) -> bool:
        if not values:
            if self.value is MISSING:
                return False
            self.value = MISSING
            return True
        if len(values) != 1 and self.guard:
            raise InvalidUpdateError(
                f"At key '{self.key}': EphemeralValue(guard=True) can receive only one value "
                "per step. Use guard=False if you want to store any one of multiple values."
            )
        self.value = values[-1]
        return True

    def get(self) -> Value:
        if self.value is MISSING:
            raise EmptyChannelError()
        return self.value

    def is_available(self) -> bool:
        return self.value is not MISSING

    def checkpoint(self) -> Any:
        return self.value
