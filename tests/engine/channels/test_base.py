"""Every channel kind when nothing has been written: what get, is_available, checkpoint,
consume and finish give, on both backends (the values are langgraph 1.2.24's)."""

import operator

import pytest

from tests.engine.channels.script import EMPTY, MISSING, run

CALLS = ["get", "available", "checkpoint", "consume", "finish"]

NEW_CHANNELS = [
    pytest.param(lambda c: c.LastValue(int), [EMPTY, False, MISSING, False, False], id="LastValue"),
    pytest.param(
        lambda c: c.LastValueAfterFinish(int),
        [EMPTY, False, MISSING, False, False],
        id="LastValueAfterFinish",
    ),
    pytest.param(lambda c: c.AnyValue(int), [EMPTY, False, MISSING, False, False], id="AnyValue"),
    pytest.param(
        lambda c: c.EphemeralValue(int), [EMPTY, False, MISSING, False, False], id="EphemeralValue"
    ),
    pytest.param(
        lambda c: c.UntrackedValue(int), [EMPTY, False, MISSING, False, False], id="UntrackedValue"
    ),
    pytest.param(lambda c: c.Topic(int), [EMPTY, False, [], False, False], id="Topic"),
    pytest.param(
        lambda c: c.Topic(int, accumulate=True),
        [EMPTY, False, [], False, False],
        id="Topic-accumulate",
    ),
    pytest.param(
        lambda c: c.BinaryOperatorAggregate(list, operator.add),
        [[], True, [], False, False],
        id="BinaryOperatorAggregate",
    ),
    pytest.param(
        lambda c: c.NamedBarrierValue(str, {"a"}),
        [EMPTY, False, set(), False, False],
        id="NamedBarrierValue",
    ),
    pytest.param(
        lambda c: c.NamedBarrierValueAfterFinish(str, {"a"}),
        [EMPTY, False, (set(), False), False, False],
        id="NamedBarrierValueAfterFinish",
    ),
]


@pytest.mark.parametrize(("make", "expected"), NEW_CHANNELS)
def test_a_new_channel(backend, make, expected):
    assert run(backend, make(backend.channels), CALLS) == expected


@pytest.mark.parametrize(("make", "_"), NEW_CHANNELS)
def test_an_empty_channel_restores_empty(backend, make, _):
    channel = make(backend.channels)
    restored = channel.from_checkpoint(channel.checkpoint())
    assert run(backend, restored, CALLS) == run(backend, make(backend.channels), CALLS)
