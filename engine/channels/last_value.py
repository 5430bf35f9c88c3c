"""LastValue: the default channel of a state key; one write per superstep."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from engine._constants import MISSING
from engine.channels.base import SameTypeChannel, Value
from engine.errors import EmptyChannelError, ErrorCode, InvalidUpdateError, create_error_message


class LastValue(SameTypeChannel[Value, Value, Value]):
    """Keeps the last value written; two writes in one superstep raise InvalidUpdateError."""

    __slots__ = ("value",)

    def __init__(self, typ: Any, key: str = "") -> None:
        super().__init__(typ, key)
        self.value: Any = MISSING

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LastValue)

    def from_checkpoint(self, checkpoint: Any) -> Self:
        if type(self) is LastValue:  # no subclass __init__ to run: the slots are set directly
            new = object.__new__(LastValue)  # (once per channel per snapshot, per branch read)
            new.typ, new.key = self.typ, self.key
        else:
            new = self.__class__(self.typ, self.key)
        new.value = checkpoint
        return new

    def update(self, values: Sequence[Value]) -> bool:
        if not values:
            return False
        if len(values) != 1:
            raise InvalidUpdateError(
                create_error_message(
                    message=f"At key '{self.key}': Can receive only one value per step. "
                    "Use an Annotated key to handle multiple values.",
                    error_code=ErrorCode.INVALID_CONCURRENT_GRAPH_UPDATE,
                )
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


class LastValueAfterFinish(SameTypeChannel[Value, Value, tuple[Value, bool]]):
    """Like LastValue, but readable only once the run is about to finish (deferred nodes)."""

    __slots__ = ("value", "finished")

    def __init__(self, typ: Any, key: str = "") -> None:
        super().__init__(typ, key)
        self.value: Any = MISSING
        self.finished = False

    def checkpoint(self) -> Any:
        return MISSING if self.value is MISSING else (self.value, self.finished)

    def from_checkpoint(self, checkpoint: Any) -> Self:
        new = self.__class__(self.typ, self.key)
        if checkpoint is not MISSING:
            new.value, new.finished = checkpoint
        return new

    def update(self, values: Sequence[Value]) -> bool:
        if not values:
            return False
        self.finished = False
        self.value = values[-1]
        return True

    def consume(self) -> bool:
        if self.finished:
            self.finished = False
            self.value = MISSING
            return True
        return False

    def finish(self) -> bool:
        if not self.finished and self.value is not MISSING:
            self.finished = True
            return True
        return False

    def get(self) -> Value:
        if self.value is MISSING or not self.finished:
            raise EmptyChannelError()
        return self.value

    def is_available(self) -> bool:
        return self.value is not MISSING and self.finished
