"""NamedBarrierValue and NamedBarrierValueAfterFinish, call by call: a join that opens once
every name has written (and, after-finish, once the run is finishing); consume resets it.

Rows as in tests/engine/channels/script.py, run on both backends; the values are langgraph 1.2.24's.
"""

import pytest

from tests.engine.channels.script import EMPTY, OK, check, keyed

CASES = [
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValue(str, {"a", "b"})),
        [
            (("update", ["a"]), True),
            ("get", EMPTY),
            ("available", False),
            (("update", ["a"]), False),
            (("update", ["b"]), True),
            ("get", None),
            ("available", True),
            ("checkpoint", {"a", "b"}),
        ],
        id="waits-for-every-name",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValue(str, {"a", "b"})),
        [
            (("update", ["b", "a"]), True),
            ("get", None),
        ],
        id="one-step-with-all-names",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValue(str, {"a", "b"})),
        [
            (("update", ["a", "b"]), True),
            ("consume", True),
            ("get", EMPTY),
            ("checkpoint", set()),
            ("consume", False),
        ],
        id="consume-resets",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValue(str, {"a", "b"})),
        [
            (("update", ["a"]), True),
            ("consume", False),
            (("update", ["b"]), True),
            ("get", None),
        ],
        id="consume-before-complete",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValue(str, {"a", "b"})),
        [
            (("update", ["a"]), True),
            (("update", []), False),
            ("checkpoint", {"a"}),
        ],
        id="step-without-writes",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValue(str, {"a", "b"})),
        [
            (("update", ["a", "b"]), True),
            ("finish", False),
            ("get", None),
        ],
        id="finish-does-nothing",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValue(int, {1, 2})),
        [
            (("update", [3]), ("InvalidUpdateError", "At key 'x': Value 3 not in {1, 2}")),
        ],
        id="unknown-name-raises",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValue(str, {"a", "b"})),
        [
            (("update", ["a"]), True),
            ("restore", OK),
            (("update", ["b"]), True),
            ("get", None),
        ],
        id="checkpoint-round-trip",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValue(str, {"a", "b"})),
        [
            (("update", ["a", "b"]), True),
            (("from_checkpoint", "<missing>"), OK),
            ("available", False),
            ("checkpoint", set()),
        ],
        id="from-checkpoint-missing-is-empty",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValueAfterFinish(str, {"a", "b"})),
        [
            (("update", ["a", "b"]), True),
            ("get", EMPTY),
            ("available", False),
            ("checkpoint", ({"a", "b"}, False)),
            ("finish", True),
            ("get", None),
            ("available", True),
            ("checkpoint", ({"a", "b"}, True)),
            ("finish", False),
        ],
        id="after-finish-waits-for-finish",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValueAfterFinish(str, {"a", "b"})),
        [
            (("update", ["a"]), True),
            ("finish", False),
            (("update", ["b"]), True),
            ("get", EMPTY),
            ("finish", True),
            ("get", None),
        ],
        id="after-finish-finish-before-complete",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValueAfterFinish(str, {"a", "b"})),
        [
            (("update", ["a", "b"]), True),
            ("consume", False),
            ("finish", True),
            ("consume", True),
            ("get", EMPTY),
            ("checkpoint", (set(), False)),
            ("consume", False),
        ],
        id="after-finish-consume-only-once-finished",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValueAfterFinish(str, {"a", "b"})),
        [
            (("update", ["a", "b"]), True),
            ("finish", True),
            ("restore", OK),
            ("get", None),
        ],
        id="after-finish-checkpoint-keeps-finished",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValueAfterFinish(str, {"a", "b"})),
        [
            (("from_checkpoint", ({"a", "b"}, False)), OK),
            ("get", EMPTY),
            ("finish", True),
            ("get", None),
        ],
        id="after-finish-from-checkpoint-tuple",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValueAfterFinish(int, {1, 2})),
        [
            (("update", [3]), ("InvalidUpdateError", "At key 'x': Value 3 not in {1, 2}")),
        ],
        id="after-finish-unknown-name-raises",
    ),
    # a thread saved before its join's target became deferred (or stopped being deferred):
    # the join reads the other kind's saved value as it is, so it never opens
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValue(str, {"a", "b"})),
        [
            (("from_checkpoint", [{"a", "b"}, True]), OK),
            ("available", False),
            ("get", EMPTY),
            ("consume", False),
            (("update", ["a"]), ("AttributeError", "'list' object has no attribute 'add'")),
        ],
        id="reads-an-after-finish-value",
    ),
    pytest.param(
        lambda b: keyed(b.channels.NamedBarrierValueAfterFinish(str, {"a", "b"})),
        [
            (("from_checkpoint", {"a"}), ("ValueError", "not enough values to unpack (expected 2, got 1)")),
            (("from_checkpoint", set()), ("ValueError", "not enough values to unpack (expected 2, got 0)")),
            (("from_checkpoint", ["a", "b"]), OK),
            ("available", False),
            ("finish", False),
            ("get", EMPTY),
        ],
        id="after-finish-reads-a-plain-value",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("make", "steps"), CASES)
def test_named_barrier_value(backend, make, steps):
    check(backend, make(backend), steps)
