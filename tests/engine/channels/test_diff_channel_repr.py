"""A channel prints as Python's default object repr, as langgraph's channels do (they define no
__repr__): programs that print a channel they built show its module path and class."""

from __future__ import annotations

import operator
import re

import pytest

from tests.oracle import run_both

_ADDRESS = re.compile(r" at 0x[0-9a-f]+>")
_PREFIX = re.compile(r"^<(langgraph|engine)\.")


@pytest.mark.parametrize(
    "build",
    [
        lambda ch: ch.Topic(str, accumulate=True),
        lambda ch: ch.LastValue(int),
        lambda ch: ch.EphemeralValue(str),
        lambda ch: ch.BinaryOperatorAggregate(list, operator.add),
        lambda ch: ch.AnyValue(int),
    ],
)
def test_channel_repr_is_the_default(build):
    def scenario(b):
        shown = repr(build(b.channels))
        return _PREFIX.sub("<", _ADDRESS.sub(">", shown))

    expected, actual = run_both(scenario)
    assert expected.endswith(" object>")
    assert actual == expected
