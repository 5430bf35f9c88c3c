"""UntrackedValue, call by call: a value that is never checkpointed; the guard refuses two writes.

Rows as in tests/engine/channels/script.py, run on both backends; the values are langgraph 1.2.24's.
"""

import pytest

from tests.engine.channels.script import EMPTY, MISSING, OK, check, keyed

CASES = [
    pytest.param(
        lambda b: keyed(b.channels.UntrackedValue(int)),
        [
            (("update", [1]), True),
            ("get", 1),
            ("available", True),
            ("checkpoint", MISSING),
            ("restore", OK),
            ("available", False),
            ("get", EMPTY),
        ],
        id="write-is-not-checkpointed",
    ),
    pytest.param(
        lambda b: keyed(b.channels.UntrackedValue(int)),
        [
            (("update", [1]), True),
            (("update", []), False),
            ("get", 1),
        ],
        id="step-without-writes-keeps-value",
    ),
    pytest.param(
        lambda b: keyed(b.channels.UntrackedValue(int)),
        [
            (("update", [1]), True),
            (("update", [2]), True),
            ("get", 2),
        ],
        id="next-step-write-replaces",
    ),
    pytest.param(
        lambda b: keyed(b.channels.UntrackedValue(int)),
        [
            (
                ("update", [1, 2]),
                (
                    "InvalidUpdateError",
                    "At key 'x': UntrackedValue(guard=True) can receive only one value per step. Use guard=False if you want to store any one of multiple values.",
                ),
            ),
            ("get", EMPTY),
        ],
        id="guard-refuses-two-writes",
    ),
    pytest.param(
        lambda b: keyed(b.channels.UntrackedValue(int, guard=False)),
        [
            (("update", [1, 2]), True),
            ("get", 2),
        ],
        id="unguarded-keeps-last-of-several",
    ),
    pytest.param(
        lambda b: keyed(b.channels.UntrackedValue(int)),
        [
            (("from_checkpoint", 5), OK),
            ("available", False),
        ],
        id="from-checkpoint-value-is-ignored",
    ),
    pytest.param(
        lambda b: keyed(b.channels.UntrackedValue(int)),
        [
            (("update", [1]), True),
            ("copy", OK),
            ("get", 1),
        ],
        id="copy-keeps-value",
    ),
]


@pytest.mark.parametrize(("make", "steps"), CASES)
def test_untracked_value(backend, make, steps):
    check(backend, make(backend), steps)
