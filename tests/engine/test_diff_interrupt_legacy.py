"""Differential tests: Interrupt still accepts the keyword arguments of langgraph < 0.6."""

import warnings

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def test_old_interrupt_keywords_are_accepted_and_interrupt_id_warns():
    def scenario(b):
        Interrupt = b.types.Interrupt  # noqa: N806
        old = Interrupt(value="v", resumable=True, ns=["node:1"], when="during")
        plain = Interrupt(value="v", id="given", ns=["node:1"])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            same = old.interrupt_id == old.id
        return (old.value, len(old.id), plain.id, same, [w.category.__name__ for w in caught][:1])

    assert_same(scenario)
