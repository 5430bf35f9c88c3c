"""Types that appear inside stored checkpoints (langgraph.checkpoint.serde.types)."""

from __future__ import annotations

from typing import Any, NamedTuple


class _DeltaSnapshot(NamedTuple):
    """A DeltaChannel's full value, stored every N updates: an ancestor walk that reaches it
    stops there and replays only the writes after it."""

    value: Any


__all__ = ["_DeltaSnapshot"]
