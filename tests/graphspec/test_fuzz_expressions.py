"""Fuzz: random expressions, many of them hostile (huge repeats, nested loops, big powers), are
evaluated under the limits. The only outcomes allowed are a value or an ExpressionError, within
the hypothesis deadline: never another exception, a crash or a hang. When an expression gives a
value, the exported Python gives the same one."""

from __future__ import annotations

import math

from hypothesis import example, given
from hypothesis import strategies as st

from graphspec import expression_limits
from graphspec.errors import ExpressionError
from graphspec.expressions import evaluate, to_python
from tests.graphspec.test_fuzz import FUZZ

STATE = {"n": 3, "s": "ab c", "xs": [1, 2, 3], "d": {"k": [0]}, "big": 10**50, "none": None}
NAMES = ["n", "s", "xs", "d", "big", "none", "v", "w", "missing", "eval", "item"]
ATOMS = [
    "0", "1", "-1", "7", "10**6", "10**9", "2**1000", "1.5", "''", "'x'", "'ab'", "','",
    "[]", "[0]", "[[0]]", "[0] * 100000", "'x' * 100000", "{}", "()", "True", "None",
]  # fmt: skip


def _combine(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binary = st.tuples(
        inner, st.sampled_from(["+", "*", "**", "-", "//", "%", "==", "<", " in "]), inner
    )
    call = st.tuples(
        st.sampled_from(
            [
                "len",
                "str",
                "sum",
                "sorted",
                "list",
                "max",
                "min",
                "any",
                "all",
                "abs",
                "int",
                "round",
            ]
        ),
        st.lists(inner, min_size=1, max_size=2),
    )
    method = st.tuples(
        inner,
        st.sampled_from(["replace", "join", "split", "upper", "count", "get", "strip"]),
        st.lists(inner, max_size=2),
    )
    comp = st.tuples(inner, st.sampled_from(["v", "w", "eval"]), inner, st.one_of(st.none(), inner))
    return st.one_of(
        binary.map(lambda t: f"({t[0]}{t[1]}{t[2]})"),
        call.map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        method.map(lambda t: f"({t[0]}).{t[1]}({', '.join(t[2])})"),
        comp.map(lambda t: f"[{t[0]} for {t[1]} in {t[2]}" + (f" if {t[3]}]" if t[3] else "]")),
        st.lists(inner, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]})[{t[1]}]"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]})[:{t[1]}]"),
        inner.map(lambda e: f"str({e})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
    )


# an f-string cannot nest quotes (Python 3.11): its fields are quote-free
F_FIELDS = [n for n in ATOMS + NAMES if "'" not in n] + ["xs * 3", "[[0] * 100000] * 100"]
f_strings = st.tuples(st.sampled_from(F_FIELDS), st.sampled_from(["", "!r", "!a"])).map(
    lambda t: f"f'<{{{t[0]}{t[1]}}}>'"
)
expressions = st.recursive(st.sampled_from(ATOMS + NAMES) | f_strings, _combine, max_leaves=8)


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and (a == b or repr(a) == repr(b))


@FUZZ
@given(expressions)
@example("'a,b'.split(',', 1.5)")  # split's own TypeError, not a value
@example("'a,b'.split(',', 2**1000)")  # and its OverflowError
def test_random_expressions_give_a_value_or_a_clear_error(expression):
    saved = expression_limits.MAX_STEPS
    expression_limits.MAX_STEPS = 200_000  # the same checks, a tenth of the time per example
    try:
        value = evaluate(expression, STATE, item=5)
    except ExpressionError as exc:
        assert str(exc)
        return
    finally:
        expression_limits.MAX_STEPS = saved
    # globals: a comprehension in Python 3.11 sees globals, not the locals eval() is given
    python = eval(to_python(expression), {"item": 5, "state": STATE})  # noqa: S307 (our own translation)
    assert _same(value, python), (expression, value, python)
