"""How large a state key may grow through the spec's own reducers (`add`, `add_messages`, `merge`).

A code-free loop can double a list every superstep (`log: "log"` into an `add` key); each
expression stays within its limits, but the merged value would reach gigabytes in seconds, in
memory and in every checkpoint. So the compiler wraps each built-in reducer a spec names: the
merged value is measured as `graphspec.expression_limits` measures an expression's result, and
one past `MAX_SIZE` characters written out ends the run naming the key. The bound belongs to the
spec layer: engine StateGraphs built in code keep langgraph's unbounded reducers, and a spec's
custom reducer is the trusted program's own code. A checkpoint therefore holds at most one
`MAX_SIZE` per state key for what reducers and expressions build.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphspec.errors import LimitError
from graphspec.expression_limits import MAX_SIZE, Budget, size


def bounded_reducer(reducer: Callable, key: str, name: str, path: str) -> Callable:
    """`reducer`, refusing a merged value of the key `key` larger than `MAX_SIZE` written out.
    `add` concatenates, so its parts are measured before the merged value is built."""

    def check(*values: Any) -> None:
        if sum(size(v, Budget(), MAX_SIZE) for v in values) > MAX_SIZE:
            raise LimitError(f"state key {key!r} grew past {MAX_SIZE:,} characters written out "
                             f"after its reducer {name!r}", element_id=key, path=path)  # fmt: skip

    def merge(left: Any, right: Any) -> Any:
        if name == "add":
            check(left, right)
            return reducer(left, right)
        merged = reducer(left, right)
        check(merged)
        return merged

    merge.__name__ = merge.__qualname__ = getattr(reducer, "__name__", name)
    return merge


__all__ = ["bounded_reducer"]
