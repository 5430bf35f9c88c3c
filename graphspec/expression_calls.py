"""The builtins and methods expressions may call, each bounded by the evaluation's `Budget`.

Sizes are worked out before the call where the call could build more than its inputs
(`replace`, `join`, `sum` of lists, `str`); otherwise the inputs' length is charged as steps
and the result checked on the way out.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sized
from typing import Any

from graphspec.errors import ExpressionError, LimitError
from graphspec.expression_limits import (
    MAX_ITEMS,
    Budget,
    bounded_str,
    check_result,
    items_limit,
    size,
    string_limit,
    value_limit,
)

MAX_ROUND_DIGITS = 1000
"""round(5, -10**9) would compute 10**(10**9) first."""


def _items(iterable: Any, budget: Budget) -> Any:
    """An iterable a builtin is about to walk: charged by its length, refused when too long."""
    if not isinstance(iterable, Sized):  # not produced by expressions, but a state may hold one
        iterable = list(itertools.islice(iterable, MAX_ITEMS + 1))
    items_limit(len(iterable))
    budget.walk(len(iterable))
    return iterable


def _one_iterable(args: tuple, budget: Budget) -> tuple:
    return (_items(args[0], budget), *args[1:]) if len(args) == 1 else args


def _str(budget: Budget, *args: Any) -> str:
    return bounded_str(args[0], budget) if len(args) == 1 else str(*args)


def _sum(budget: Budget, iterable: Any, /, start: Any = 0) -> Any:
    items = _items(iterable, budget)
    if isinstance(start, (list, tuple)) and all(type(x) is type(start) for x in items):
        # one concatenation instead of len(items) growing copies, sized first
        parts = [start, *items]
        items_limit(sum(len(p) for p in parts))
        total = sum(size(p, budget) for p in parts)
        value_limit(total)
        budget.build(total)
        return type(start)(itertools.chain.from_iterable(parts))
    return check_result(sum(items, start))


def _round(budget: Budget, number: Any, ndigits: Any = None) -> Any:
    if isinstance(ndigits, int) and abs(ndigits) > MAX_ROUND_DIGITS:
        raise LimitError(f"round() to {ndigits:,} digits (limit {MAX_ROUND_DIGITS:,})")
    return round(number, ndigits)


def _walking(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A builtin over one iterable (or several arguments): walk charged, result checked."""

    def call(budget: Budget, *args: Any, **kwargs: Any) -> Any:
        return check_result(fn(*_one_iterable(args, budget), **kwargs))

    return call


def _scalar(fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(budget: Budget, *args: Any, **kwargs: Any) -> Any:
        return check_result(fn(*args, **kwargs))

    return call


BOUNDED_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "len": _scalar(len),
    "str": _str,
    "int": _scalar(int),
    "float": _scalar(float),
    "bool": _scalar(bool),
    "abs": _scalar(abs),
    "min": _walking(min),
    "max": _walking(max),
    "sum": _sum,
    "round": _round,
    "sorted": _walking(sorted),
    "list": _walking(list),
    "any": _walking(any),
    "all": _walking(all),
}
"""name -> fn(budget, *args, **kwargs), with the meaning of the Python builtin of that name."""


# ------------------------------------------------------------------ methods


def _replace(budget: Budget, text: str, old: Any, new: Any, count: Any = -1) -> str:
    found = text.count(old)  # a TypeError here is the one replace() would raise
    budget.walk(len(text))
    if isinstance(count, int) and count >= 0:
        found = min(found, count)
    length = len(text) + found * (len(new) - len(old))
    string_limit(length)
    budget.build(length)
    return text.replace(old, new, count)


def _split(budget: Budget, text: str, sep: Any = None, maxsplit: Any = -1) -> list:
    "".split(sep, maxsplit)  # the TypeError/OverflowError split() raises for a bad argument
    budget.walk(len(text))
    bounded = maxsplit if isinstance(maxsplit, int) and 0 <= maxsplit < MAX_ITEMS else MAX_ITEMS
    parts = text.split(sep, bounded)  # at most MAX_ITEMS + 1 parts, whatever the text
    items_limit(len(parts) if len(parts) <= MAX_ITEMS else MAX_ITEMS + 1)
    budget.build(len(text) + 3 * len(parts))
    return parts


def _join(budget: Budget, sep: str, iterable: Any) -> str:
    parts = _items(iterable, budget)
    if all(isinstance(p, str) for p in parts):
        length = sum(len(p) for p in parts) + len(sep) * max(len(parts) - 1, 0)
        string_limit(length)
        budget.build(length)
    return sep.join(parts)


BOUNDED_METHODS: dict[str, Callable[..., Any]] = {
    "replace": _replace,
    "split": _split,
    "join": _join,
}


def call_method(budget: Budget, receiver: Any, name: str, args: list, kwargs: dict) -> Any:
    """`receiver.name(*args, **kwargs)` for a whitelisted method (checked by the caller)."""
    if isinstance(receiver, str) and name in BOUNDED_METHODS:
        return BOUNDED_METHODS[name](budget, receiver, *args, **kwargs)
    if isinstance(receiver, Sized):
        budget.walk(len(receiver))  # count, index, upper, find, ... walk the receiver
    result = getattr(receiver, name)(*args, **kwargs)
    if isinstance(result, str) and result is not receiver:
        budget.build(len(result))
    return check_result(result)


def bound_function(name: str, budget: Budget) -> Callable[..., Any]:
    """A function named bare (`sorted(xs, key=len)`): still bounded when Python calls it."""
    fn = BOUNDED_FUNCTIONS[name]

    def call(*args: Any, **kwargs: Any) -> Any:
        budget.step()
        return fn(budget, *args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


__all__ = ["BOUNDED_FUNCTIONS", "ExpressionError", "bound_function", "call_method"]
