"""BinaryOperatorAggregate, call by call: the reducer folds writes into a value that starts
from the type's empty value; Overwrite (object, dict and JSON forms) replaces it, once a step.

Rows as in tests/engine/channels/script.py, run on both backends; the values are langgraph 1.2.24's.
"""

import operator
from typing import Literal

import pytest

from tests.engine.channels.script import EMPTY, MISSING, OK, Ow, check, keyed

CASES = [
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            ("get", []),
            ("available", True),
            ("checkpoint", []),
        ],
        id="starts-from-empty-list",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(int, operator.add)),
        [
            ("get", 0),
            (("update", [1, 2]), True),
            ("get", 3),
            (("update", [3]), True),
            ("get", 6),
        ],
        id="starts-from-zero",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1], [2]]), True),
            ("get", [1, 2]),
            (("update", [[3]]), True),
            ("get", [1, 2, 3]),
        ],
        id="folds-writes-in-order",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1]]), True),
            (("update", []), False),
            ("get", [1]),
        ],
        id="step-without-writes",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(Literal["a"], operator.add)),
        [
            ("get", EMPTY),
            ("available", False),
            ("checkpoint", MISSING),
            (("update", ["x", "y"]), True),
            ("get", "xy"),
        ],
        id="uninstantiable-type-starts-empty",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1]]), True),
            (("update", [Ow([9])]), True),
            ("get", [9]),
        ],
        id="overwrite-replaces-value",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1]]), True),
            (("update", [Ow([9]), [2]]), True),
            ("get", [9]),
        ],
        id="writes-after-overwrite-in-its-step",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1]]), True),
            (("update", [[2], Ow([9])]), True),
            ("get", [9]),
        ],
        id="overwrite-after-writes-in-its-step",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1]]), True),
            (("update", [{"__overwrite__": [5]}]), True),
            ("get", [5]),
        ],
        id="overwrite-dict-form",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1]]), True),
            (("update", [{"value": [6], "type": "__overwrite__"}]), True),
            ("get", [6]),
        ],
        id="overwrite-json-form",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1]]), True),
            (
                ("update", [Ow([2]), Ow([3])]),
                (
                    "InvalidUpdateError",
                    "Can receive only one Overwrite value per super-step.\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CONCURRENT_GRAPH_UPDATE",
                ),
            ),
            ("get", [2]),
        ],
        id="two-overwrites-in-one-step-raise",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [Ow([4])]), True),
            ("get", [4]),
        ],
        id="overwrite-in-first-step",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(Literal["a"], operator.add)),
        [
            (
                ("update", [Ow("v"), "w"]),
                ("TypeError", "unsupported operand type(s) for +: 'Overwrite' and 'str'"),
            ),
        ],
        id="overwrite-as-first-write-of-empty",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1]]), True),
            ("restore", OK),
            (("update", [[2]]), True),
            ("get", [1, 2]),
            ("checkpoint", [1, 2]),
        ],
        id="checkpoint-round-trip",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1]]), True),
            (("from_checkpoint", "<missing>"), OK),
            ("get", []),
            ("available", True),
        ],
        id="from-checkpoint-missing",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1]]), True),
            ("copy", OK),
            (("update", [[2]]), True),
            ("get", [1, 2]),
        ],
        id="copy-is-independent",
    ),
    # many list writes in one step (a fan-out's) are folded into one new list
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[0]]), True),
            (("update", [[1], [], [2, 3], [4]]), True),
            ("get", [0, 1, 2, 3, 4]),
        ],
        id="many-list-writes-in-one-step",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (
                ("update", [[1], (2,), [3]]),
                ("TypeError", 'can only concatenate list (not "tuple") to list'),
            ),
        ],
        id="a-tuple-among-list-writes-raises",
    ),
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1], Ow([9]), [3]]), True),
            ("get", [9]),
        ],
        id="overwrite-among-list-writes",
    ),
    # one write a step (a growing history): the same rules as many
    pytest.param(
        lambda b: keyed(b.channels.BinaryOperatorAggregate(list, operator.add)),
        [
            (("update", [[1]]), True),
            (("update", [[2, 3]]), True),
            (("update", [Ow([9])]), True),
            ("get", [9]),
            (("update", [(4,)]), ("TypeError", 'can only concatenate list (not "tuple") to list')),
            (("update", [{"__overwrite__": [5]}]), True),
            ("get", [5]),
        ],
        id="one-write-a-step",
    ),
]


@pytest.mark.parametrize(("make", "steps"), CASES)
def test_binop(backend, make, steps):
    check(backend, make(backend), steps)


@pytest.mark.parametrize(
    "writes",
    [[[1]], [[1], [2]], [[1], [2], [3], [4]]],
    ids=["one-write", "two-writes", "four-writes"],
)
def test_list_writes_leave_the_old_value_alone(backend, writes):
    """The value a step replaces is not changed in place: a checkpoint or a reader may hold it."""
    channel = keyed(backend.channels.BinaryOperatorAggregate(list, operator.add))
    channel.update([[0]])
    old = channel.get()
    channel.update(writes)
    assert old == [0]
    assert channel.get() == [0, *(v for w in writes for v in w)]
    assert type(channel.get()) is list
