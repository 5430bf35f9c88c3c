"""AnyValue, call by call: several writes keep the last, a step without writes empties it.

Rows as in tests/engine/channels/script.py, run on both backends; the values are langgraph 1.2.24's.
"""

import pytest

from tests.engine.channels.script import EMPTY, MISSING, OK, check, keyed

CASES = [
    pytest.param(
        lambda b: keyed(b.channels.AnyValue(int)),
        [
            (("update", [1, 2, 3]), True),
            ("get", 3),
            ("checkpoint", 3),
        ],
        id="several-writes-keep-last",
    ),
    pytest.param(
        lambda b: keyed(b.channels.AnyValue(int)),
        [
            (("update", [1]), True),
            (("update", []), True),
            ("get", EMPTY),
            ("available", False),
            ("checkpoint", MISSING),
        ],
        id="step-without-writes-clears",
    ),
    pytest.param(
        lambda b: keyed(b.channels.AnyValue(int)),
        [
            (("update", []), False),
            ("available", False),
        ],
        id="step-without-writes-on-empty",
    ),
    pytest.param(
        lambda b: keyed(b.channels.AnyValue(int)),
        [
            (("update", [4]), True),
            ("restore", OK),
            ("get", 4),
        ],
        id="checkpoint-round-trip",
    ),
    pytest.param(
        lambda b: keyed(b.channels.AnyValue(int)),
        [
            (("update", [1]), True),
            (("from_checkpoint", "<missing>"), OK),
            ("available", False),
        ],
        id="from-checkpoint-missing-is-empty",
    ),
]


@pytest.mark.parametrize(("make", "steps"), CASES)
def test_any_value(backend, make, steps):
    check(backend, make(backend), steps)
