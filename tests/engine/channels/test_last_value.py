"""LastValue and LastValueAfterFinish, call by call: update, get, checkpoint and restore,
consume, finish, is_available and the error of two writes in one superstep.

Rows as in tests/engine/channels/script.py, run on both backends; the values are langgraph 1.2.24's.
"""

import pytest

from tests.engine.channels.script import EMPTY, MISSING, OK, check, keyed

CASES = [
    pytest.param(
        lambda b: keyed(b.channels.LastValue(int)),
        [
            (("update", [1]), True),
            ("get", 1),
            ("available", True),
            ("checkpoint", 1),
        ],
        id="one-write",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValue(int)),
        [
            (("update", [None]), True),
            ("get", None),
            ("available", True),
            ("checkpoint", None),
        ],
        id="none-is-a-value",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValue(int)),
        [
            (("update", [1]), True),
            (("update", []), False),
            ("get", 1),
        ],
        id="step-without-writes-keeps-value",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValue(int)),
        [
            (("update", []), False),
            ("get", EMPTY),
        ],
        id="step-without-writes-on-empty",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValue(int)),
        [
            (("update", [1]), True),
            (("update", [2]), True),
            ("get", 2),
        ],
        id="next-step-replaces",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValue(int)),
        [
            (("update", [1]), True),
            (
                ("update", [2, 3]),
                (
                    "InvalidUpdateError",
                    "At key 'x': Can receive only one value per step. Use an Annotated key to handle multiple values.\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CONCURRENT_GRAPH_UPDATE",
                ),
            ),
            ("get", 1),
        ],
        id="two-writes-in-one-step-raise",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValue(int)),
        [
            (("update", [5]), True),
            ("restore", OK),
            ("get", 5),
            ("checkpoint", 5),
        ],
        id="checkpoint-round-trip",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValue(int)),
        [
            (("update", [1]), True),
            (("from_checkpoint", "<missing>"), OK),
            ("get", EMPTY),
            ("available", False),
        ],
        id="from-checkpoint-missing-is-empty",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValue(int)),
        [
            (("from_checkpoint", 7), OK),
            ("get", 7),
            ("available", True),
        ],
        id="from-checkpoint-value",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValue(int)),
        [
            (("update", [1]), True),
            ("copy", OK),
            ("get", 1),
        ],
        id="copy-keeps-value",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValueAfterFinish(int)),
        [
            (("update", [1]), True),
            ("get", EMPTY),
            ("available", False),
            ("checkpoint", (1, False)),
            ("finish", True),
            ("get", 1),
            ("available", True),
            ("checkpoint", (1, True)),
        ],
        id="after-finish-hidden-until-finish",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValueAfterFinish(int)),
        [
            (("update", [1]), True),
            ("finish", True),
            ("finish", False),
        ],
        id="after-finish-finish-twice",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValueAfterFinish(int)),
        [
            (("update", [1]), True),
            ("consume", False),
            ("finish", True),
            ("get", 1),
        ],
        id="after-finish-consume-before-finish-keeps",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValueAfterFinish(int)),
        [
            (("update", [1]), True),
            ("finish", True),
            ("consume", True),
            ("get", EMPTY),
            ("checkpoint", MISSING),
            ("consume", False),
        ],
        id="after-finish-consume-after-finish-clears",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValueAfterFinish(int)),
        [
            (("update", [1, 2]), True),
            ("finish", True),
            ("get", 2),
        ],
        id="after-finish-several-writes-keep-last",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValueAfterFinish(int)),
        [
            (("update", [1]), True),
            ("finish", True),
            (("update", [2]), True),
            ("get", EMPTY),
            ("finish", True),
            ("get", 2),
        ],
        id="after-finish-new-write-hides-again",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValueAfterFinish(int)),
        [
            (("update", [1]), True),
            ("finish", True),
            (("update", []), False),
            ("get", 1),
        ],
        id="after-finish-step-without-writes",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValueAfterFinish(int)),
        [
            (("update", [1]), True),
            ("finish", True),
            ("restore", OK),
            ("get", 1),
            ("checkpoint", (1, True)),
        ],
        id="after-finish-checkpoint-keeps-finished",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValueAfterFinish(int)),
        [
            (("from_checkpoint", (7, False)), OK),
            ("get", EMPTY),
            ("finish", True),
            ("get", 7),
        ],
        id="after-finish-from-checkpoint-tuple",
    ),
    pytest.param(
        lambda b: keyed(b.channels.LastValueAfterFinish(int)),
        [
            (("update", [1]), True),
            (("from_checkpoint", "<missing>"), OK),
            ("finish", False),
            ("get", EMPTY),
        ],
        id="after-finish-from-checkpoint-missing",
    ),
]


@pytest.mark.parametrize(("make", "steps"), CASES)
def test_last_value(backend, make, steps):
    check(backend, make(backend), steps)
