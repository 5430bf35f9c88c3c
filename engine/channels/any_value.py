"""AnyValue: accepts several writes per superstep, keeps the last (they are assumed equal)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from engine._constants import MISSING
from engine.channels.base import SameTypeChannel, Value
from engine.errors import EmptyChannelError


class AnyValue(SameTypeChannel[Value, Value, Value]):
    """Stores the last value received; a superstep with no write clears it."""

    __slots__ = ("value",)

    def __init__(self, typ: Any, key: str = "") -> None:
        super().__init__(typ, key)
        self.value: Any = MISSING

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AnyValue)

    def from_checkpoint(self, checkpoint: Any) -> Self:
        new = self.__class__(self.typ, self.key)
        new.value = checkpoint
        return new

    def update(self, values: Sequence[Value]) -> bool:
        if not values:
            if self.value is MISSING:
                return False
            self.value = MISSING
            return True
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
