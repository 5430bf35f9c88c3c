"""Topic: a pub/sub channel collecting many values (Send packets, accumulated outputs)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Self

from engine._constants import MISSING
from engine.channels.base import BaseChannel, Value
from engine.errors import EmptyChannelError


def _flatten(values: Sequence[Any]) -> Iterator[Any]:
    for value in values:
        if isinstance(value, list):
            yield from value
        else:
            yield value


class Topic(BaseChannel[Sequence[Value], Value | list[Value], list[Value]]):
    """Collects every value written (lists are flattened).

    Without `accumulate`, each superstep starts empty, so readers see only the last step's
    values; with it, values pile up across supersteps.
    """

    __slots__ = ("values", "accumulate")

    def __init__(self, typ: Any, accumulate: bool = False) -> None:
        super().__init__(typ)
        self.accumulate = accumulate
        self.values: list[Any] = []

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Topic) and other.accumulate == self.accumulate

    @property
    def ValueType(self) -> Any:
        return Sequence[self.typ]  # type: ignore[name-defined]

    @property
    def UpdateType(self) -> Any:
        return self.typ | list[self.typ]  # type: ignore[name-defined]

    def checkpoint(self) -> Any:
        return list(self.values) if self.values else MISSING

    def from_checkpoint(self, checkpoint: Any) -> Self:
        if type(self) is Topic:  # no subclass __init__ to run: the slots are set directly
            new = object.__new__(Topic)
            new.typ, new.accumulate = self.typ, self.accumulate
        else:
            new = self.__class__(self.typ, self.accumulate)
        new.key = self.key
        new.values = list(checkpoint) if checkpoint is not MISSING else []
        return new

    def update(self, values: Sequence[Any]) -> bool:
        updated = False
        if not self.accumulate:
            updated = bool(self.values)
            self.values = []
        if flat := list(_flatten(values)):
            self.values.extend(flat)
            updated = True
        return updated

    def get(self) -> Sequence[Value]:
        if not self.values:
            raise EmptyChannelError()
        return list(self.values)

    def is_available(self) -> bool:
        return bool(self.values)
