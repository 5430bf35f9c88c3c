"""DeltaChannel: a reducer channel whose checkpoints keep the writes, not the value.

The reducer folds a batch at once, `reducer(state, [w1, w2, ...])`, and must not care how the
writes are batched: a value is rebuilt by replaying every write since the last snapshot in one
call. Snapshots (`_DeltaSnapshot`) are decided by the loop, which knows the update counters.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Callable, Sequence
from typing import Any, Self

from engine._constants import MISSING
from engine.channels.base import SameTypeChannel
from engine.channels.binop import _ABSTRACT_TO_CONCRETE, unwrap_overwrite
from engine.checkpoint.serde.types import _DeltaSnapshot
from engine.errors import EmptyChannelError, ErrorCode, InvalidUpdateError, create_error_message

__all__ = ("DeltaChannel",)


def _concrete(typ: Any) -> Any:
    import typing

    while typing.get_origin(typ) in (typing.Annotated, typing.Required, typing.NotRequired):
        typ = typing.get_args(typ)[0]
    typ = typing.get_origin(typ) or typ
    return _ABSTRACT_TO_CONCRETE.get(typ, typ)


class DeltaChannel(SameTypeChannel[Any, Any, Any]):
    """A batch reducer channel stored as deltas, with a snapshot every `snapshot_frequency`
    updates (and at least every DELTA_MAX_SUPERSTEPS_SINCE_SNAPSHOT supersteps)."""

    __slots__ = ("value", "reducer", "snapshot_frequency")

    def __init__(
        self,
        reducer: Callable[[Any, Sequence[Any]], Any],
        typ: Any = None,
        *,
        snapshot_frequency: int = 100,
    ) -> None:
        if snapshot_frequency <= 0:
            raise ValueError(f"snapshot_frequency must be a positive int, got {snapshot_frequency}")
        # the state schema's annotation replaces the placeholder type
        super().__init__(_concrete(list if typ is None else typ))
        self.reducer = reducer
        self.snapshot_frequency = snapshot_frequency
        self.value: Any = MISSING

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DeltaChannel):
            return False
        if self.snapshot_frequency != other.snapshot_frequency:
            return False
        a, b = self.reducer, other.reducer
        return a is b or "<lambda>" in (getattr(a, "__name__", ""), getattr(b, "__name__", ""))

    __hash__ = None  # type: ignore[assignment]

    def _new(self) -> Self:
        new = self.__class__(self.reducer, self.typ, snapshot_frequency=self.snapshot_frequency)
        new.key = self.key
        return new

    def _empty(self) -> Any:
        return self.typ()

    def copy(self) -> Self:
        new = self._new()
        new.value = self.value if self.value is MISSING else _copy.copy(self.value)
        return new

    def from_checkpoint(self, checkpoint: Any) -> Self:
        """MISSING or None: empty (the caller replays writes); a snapshot; or a plain value,
        as a BinaryOperatorAggregate stored it before the key became a DeltaChannel."""
        new = self._new()
        if checkpoint is MISSING or checkpoint is None:
            new.value = self._empty()
        elif isinstance(checkpoint, _DeltaSnapshot):
            new.value = checkpoint.value
        else:
            new.value = checkpoint
        return new

    def replay_writes(self, writes: Sequence[tuple[str, str, Any]]) -> None:
        """Fold stored writes (oldest first) in one reducer call; the last Overwrite among them
        becomes the base and the writes before it are dropped."""
        values = [w[2] for w in writes]
        if not values:
            return
        base, start = self.value, 0
        for i, v in enumerate(values):
            is_ow, inner = unwrap_overwrite(v)
            if is_ow:
                base = _copy.copy(inner) if inner is not None else self._empty()
                start = i + 1
        rest = values[start:]
        self.value = self.reducer(base, rest) if rest else base

    def update(self, values: Sequence[Any]) -> bool:
        if not values:
            return False
        overwrite: tuple[bool, Any] | None = None
        for v in values:
            found = unwrap_overwrite(v)
            if found[0]:
                if overwrite is not None:
                    raise InvalidUpdateError(
                        create_error_message(
                            message="Can receive only one Overwrite value per super-step.",
                            error_code=ErrorCode.INVALID_CONCURRENT_GRAPH_UPDATE,
                        )
                    )
                overwrite = found
        if overwrite is not None:
            inner = overwrite[1]
            self.value = _copy.copy(inner) if inner is not None else self._empty()
            return True
        base = self._empty() if self.value is MISSING else self.value
        self.value = self.reducer(base, list(values))
        return True

    def get(self) -> Any:
        if self.value is MISSING:
            raise EmptyChannelError()
        return self.value

    def is_available(self) -> bool:
        return self.value is not MISSING

    def checkpoint(self) -> Any:
        # never the value: the loop writes a _DeltaSnapshot when one is due
        return MISSING
