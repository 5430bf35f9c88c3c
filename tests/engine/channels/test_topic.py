"""Topic, call by call: writes are collected (lists flattened), per step or accumulated.

Rows as in tests/engine/channels/script.py, run on both backends; the values are langgraph 1.2.24's.
"""

import pytest

from tests.engine.channels.script import EMPTY, OK, check, keyed

CASES = [
    pytest.param(
        lambda b: keyed(b.channels.Topic(int)),
        [
            (("update", [1, [2, 3]]), True),
            ("get", [1, 2, 3]),
            ("checkpoint", [1, 2, 3]),
        ],
        id="collects-and-flattens-lists",
    ),
    pytest.param(
        lambda b: keyed(b.channels.Topic(int)),
        [
            (("update", [1]), True),
            (("update", [2]), True),
            ("get", [2]),
            (("update", []), True),
            ("get", EMPTY),
            ("available", False),
            (("update", []), False),
        ],
        id="each-step-starts-empty",
    ),
    pytest.param(
        lambda b: keyed(b.channels.Topic(int)),
        [
            (("update", [[]]), False),
            ("available", False),
        ],
        id="empty-list-write",
    ),
    pytest.param(
        lambda b: keyed(b.channels.Topic(int, accumulate=True)),
        [
            (("update", [1]), True),
            (("update", [2, 3]), True),
            ("get", [1, 2, 3]),
            (("update", []), False),
            ("get", [1, 2, 3]),
        ],
        id="accumulate-keeps-values-across-steps",
    ),
    pytest.param(
        lambda b: keyed(b.channels.Topic(int)),
        [
            (("update", [1, 2]), True),
            ("restore", OK),
            ("get", [1, 2]),
            ("checkpoint", [1, 2]),
        ],
        id="checkpoint-round-trip",
    ),
    pytest.param(
        lambda b: keyed(b.channels.Topic(int, accumulate=True)),
        [
            (("update", [1]), True),
            ("restore", OK),
            (("update", [2]), True),
            ("get", [1, 2]),
        ],
        id="accumulate-checkpoint-round-trip",
    ),
    pytest.param(
        lambda b: keyed(b.channels.Topic(int)),
        [
            (("update", [1]), True),
            (("from_checkpoint", "<missing>"), OK),
            ("available", False),
        ],
        id="from-checkpoint-missing-is-empty",
    ),
]


@pytest.mark.parametrize(("make", "steps"), CASES)
def test_topic(backend, make, steps):
    check(backend, make(backend), steps)
