"""EphemeralValue, call by call: a value lives one superstep; the guard refuses two writes.

Rows as in tests/engine/channels/script.py, run on both backends; the values are langgraph 1.2.24's.
"""

import pytest

from tests.engine.channels.script import EMPTY, MISSING, OK, check, keyed

CASES = [
    pytest.param(
        lambda b: keyed(b.channels.EphemeralValue(int)),
        [
            (("update", [1]), True),
            ("get", 1),
            ("available", True),
            ("checkpoint", 1),
        ],
        id="one-write",
    ),
    pytest.param(
        lambda b: keyed(b.channels.EphemeralValue(int)),
        [
            (("update", [1]), True),
            (("update", []), True),
            ("get", EMPTY),
            ("available", False),
            ("checkpoint", MISSING),
            (("update", []), False),
        ],
        id="next-step-without-writes-clears",
    ),
    pytest.param(
        lambda b: keyed(b.channels.EphemeralValue(int)),
        [
            (("update", [1]), True),
            (("update", [2]), True),
            ("get", 2),
        ],
        id="next-step-write-replaces",
    ),
    pytest.param(
        lambda b: keyed(b.channels.EphemeralValue(int)),
        [
            (
                ("update", [1, 2]),
                (
                    "InvalidUpdateError",
                    "At key 'x': EphemeralValue(guard=True) can receive only one value per step. Use guard=False if you want to store any one of multiple values.",
                ),
            ),
            ("get", EMPTY),
        ],
        id="guard-refuses-two-writes",
    ),
    pytest.param(
        lambda b: keyed(b.channels.EphemeralValue(int, guard=False)),
        [
            (("update", [1, 2]), True),
            ("get", 2),
        ],
        id="unguarded-keeps-last-of-several",
    ),
    pytest.param(
        lambda b: keyed(b.channels.EphemeralValue(int)),
        [
            (("update", [3]), True),
            ("restore", OK),
            ("get", 3),
            ("checkpoint", 3),
        ],
        id="checkpoint-round-trip",
    ),
    pytest.param(
        lambda b: keyed(b.channels.EphemeralValue(int)),
        [
            (("update", [1]), True),
            (("from_checkpoint", "<missing>"), OK),
            ("available", False),
        ],
        id="from-checkpoint-missing-is-empty",
    ),
]


@pytest.mark.parametrize(("make", "steps"), CASES)
def test_ephemeral_value(backend, make, steps):
    check(backend, make(backend), steps)
