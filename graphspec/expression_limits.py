"""What one expression evaluation may cost, checked before the work is done.

A `Budget` counts evaluation steps (every node evaluated, every element a builtin walks, every
iteration) and the characters of everything the evaluation builds; it also watches a cancel
event (`cancel_with`), so Stop in the studio ends a running expression. Sizes are measured
the way a value is written out (a checkpoint, JSON, str()): a list holding one list 100,000
times counts it 100,000 times, because serialising writes it that many times.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from graphspec.errors import LimitError, StoppedError

MAX_ITEMS = 100_000
"""Elements of one list, tuple, dict or set an expression builds."""
MAX_SIZE = 10_000_000
"""Characters of one string, or of one value written out, an expression builds."""
MAX_BUILT = 5 * MAX_SIZE
"""Characters of everything one evaluation builds, intermediate values included."""
MAX_INT_BITS = 20_000
MAX_STEPS = 2_000_000
"""About two seconds of evaluation."""
MAX_NESTING = 1000
"""Levels of nesting in a value that is measured: deeper cannot be written out (or is a cycle)."""
CHECK_EVERY = 1024
"""Steps between two looks at the cancel event."""
LINEAR = 64
"""Elements a builtin walks in C for the price of one evaluation step."""


_cancel: ContextVar[threading.Event | None] = ContextVar("expression_cancel", default=None)


@contextmanager
def cancel_with(event: threading.Event) -> Iterator[None]:
    """Expressions evaluated in this context (and the node tasks it starts) stop once `event`
    is set; the engine copies the context into every task it runs."""
    token = _cancel.set(event)
    try:
        yield
    finally:
        _cancel.reset(token)


class Budget:
    """The allowance of one evaluation; a router shares one across all the Sends it makes."""

    __slots__ = ("steps", "built", "cancel", "_until_check")

    def __init__(self) -> None:
        self.steps = MAX_STEPS
        self.built = MAX_BUILT
        self.cancel = _cancel.get()
        self._until_check = CHECK_EVERY

    def step(self, n: int = 1) -> None:
        self.steps -= n
        self._until_check -= n
        if self._until_check > 0:
            return
        self._until_check = CHECK_EVERY
        if self.steps < 0:
            raise LimitError(
                f"the expression takes more than {MAX_STEPS:,} steps (limit {MAX_STEPS:,})"
            )
        if self.cancel is not None and self.cancel.is_set():
            raise StoppedError("stopped while the expression was evaluated")

    def walk(self, n: int) -> None:
        """A builtin walks `n` elements in C."""
        self.step(n // LINEAR + 1)

    def build(self, size: int) -> None:
        """The evaluation is about to build `size` characters' worth of values."""
        self.built -= size
        if self.built < 0:
            raise LimitError(f"the expression builds more than {MAX_BUILT:,} characters of values "
                             f"in all (limit {MAX_BUILT:,})")  # fmt: skip


# ------------------------------------------------------------------ sizes


def string_limit(length: int) -> None:
    if length > MAX_SIZE:
        raise LimitError(f"the expression would build a string of {length:,} characters "
                         f"(limit {MAX_SIZE:,})")  # fmt: skip


def items_limit(count: int, kind: str = "list") -> None:
    if count > MAX_ITEMS:
        raise LimitError(
            f"the expression would build a {kind} of {count:,} items (limit {MAX_ITEMS:,})"
        )


def value_limit(size: int) -> None:
    if size > MAX_SIZE:
        raise LimitError(f"the expression would build a value of at least {size:,} characters "
                         f"written out (limit {MAX_SIZE:,})")  # fmt: skip


def int_limit(bits: int) -> None:
    if bits > MAX_INT_BITS:
        raise LimitError(
            f"the expression would build an integer of {bits:,} bits (limit {MAX_INT_BITS:,})"
        )


def _str_size(text: str) -> int:
    # escapes write a control character as up to 10 (\U0001f600); printable text as itself
    return len(text) + 2 if len(text) < 64 or text.isprintable() else 10 * len(text) + 2


def _scalar_size(value: Any) -> int | None:
    if isinstance(value, str):
        return _str_size(value)
    if isinstance(value, int):
        return value.bit_length() * 3 // 10 + 2
    if value is None or isinstance(value, (float, complex)):
        return 24
    return None


def size(value: Any, budget: Budget, limit: int = MAX_SIZE) -> int:
    """Characters `value` takes written out, counted until they pass `limit` (then a lower
    bound). Shared parts count each time they appear; cycles count until the limit."""
    total = 0
    stack: list[Iterator[Any]] = [iter((value,))]
    visits = 0
    while stack and total <= limit:
        for item in stack[-1]:
            visits += 1
            scalar = _scalar_size(item)
            if scalar is not None:
                total += scalar
                if total > limit:
                    break
                continue
            if isinstance(item, dict):
                total += 2 + 2 * len(item)
                stack.append(iter([*item.keys(), *item.values()]) if total <= limit else iter(()))
            elif isinstance(item, (list, tuple, set, frozenset)):
                total += 2 + len(item)
                stack.append(iter(item) if total <= limit else iter(()))
            elif hasattr(item, "__dict__"):  # a chat message, a pydantic model: its fields
                fields = vars(item)
                total += len(type(item).__name__) + 2 + sum(len(k) + 3 for k in fields)
                stack.append(iter(list(fields.values())))
            else:
                total += 32
            if len(stack) > MAX_NESTING:
                budget.step(visits // 4 + 1)
                raise LimitError(f"the value is nested more than {MAX_NESTING:,} levels deep "
                                 "(or holds itself)")  # fmt: skip
            break
        else:
            stack.pop()
    budget.step(visits // 4 + 1)
    return total


def bounded_str(value: Any, budget: Budget, convert: Any = str) -> str:
    """`str(value)` (or repr/ascii), refused before it is built when it would be too long."""
    if convert is str and isinstance(value, str):
        return value
    estimate = size(value, budget) * (10 if convert is ascii else 1)
    value_limit(estimate)
    budget.build(estimate)
    text = convert(value)
    string_limit(len(text))
    return text


def check_result(value: Any) -> Any:
    """Results that builtins compute in C from bounded inputs, checked on the way out."""
    if isinstance(value, str):
        string_limit(len(value))
    elif isinstance(value, (list, tuple, dict, set)):
        items_limit(len(value), type(value).__name__)
    elif isinstance(value, int) and not isinstance(value, bool):
        int_limit(value.bit_length())
    return value
