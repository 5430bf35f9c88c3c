"""DeltaChannel's own API, differential: each scenario runs on langgraph and on the engine."""

from __future__ import annotations

import pytest

from tests.oracle import Backend, assert_same


def extend(state, writes):
    out = list(state)
    for w in writes:
        out.extend(w if isinstance(w, list) else [w])
    return out


def merge(state, writes):
    out = dict(state)
    for w in writes:
        out.update(w)
    return out


def _channel(b: Backend, reducer=extend, typ=list, **kw):
    return b.channels.DeltaChannel(reducer, typ, **kw)


def test_update_get_and_empty():
    def scenario(b: Backend):
        ch = _channel(b)
        out = [ch.is_available(), ch.update([]), ch.is_available()]
        try:
            ch.get()
        except b.errors.EmptyChannelError:
            out.append("empty")
        out += [ch.update(["a", ["b", "c"]]), ch.get(), ch.update(["d"]), ch.get()]
        return out

    assert_same(scenario)


def test_checkpoint_never_holds_the_value():
    def scenario(b: Backend):
        ch = _channel(b)
        ch.update(["a"])
        # the blob is a sentinel: snapshots are the loop's decision
        return [ch.checkpoint() is not ch.get(), type(ch.checkpoint()).__name__ != "list"]

    assert_same(scenario)


def test_from_checkpoint_snapshot_plain_and_missing():
    def scenario(b: Backend):
        snap = b.mod("checkpoint.serde.types")._DeltaSnapshot
        ch = _channel(b, merge, dict)
        restored = ch.from_checkpoint(snap({"a": 1}))
        migrated = ch.from_checkpoint({"b": 2})  # a BinaryOperatorAggregate's old blob
        empty = ch.from_checkpoint(None)
        restored.update([{"c": 3}])
        return [restored.get(), migrated.get(), empty.get(), empty.is_available()]

    assert_same(scenario)


def test_replay_writes_folds_once_and_overwrite_resets():
    def scenario(b: Backend):
        calls = []

        def counting(state, writes):
            calls.append(len(writes))
            return extend(state, writes)

        ch = _channel(b, counting).from_checkpoint(None)
        ch.replay_writes([("t1", "k", "a"), ("t2", "k", "b"), ("t3", "k", "c")])
        ow = _channel(b).from_checkpoint(None)
        ow.replay_writes([("t", "k", "a"), ("t", "k", b.types.Overwrite(["z"])), ("t", "k", "y")])
        nothing = _channel(b).from_checkpoint(None)
        nothing.replay_writes([])
        return [ch.get(), calls, ow.get(), nothing.get()]

    assert_same(scenario)


def test_overwrite_in_update_and_twice_in_one_step():
    def scenario(b: Backend):
        ch = _channel(b)
        ch.update(["a", "b"])
        ch.update([b.types.Overwrite(["x"])])
        out = [ch.get()]
        ch.update([b.types.Overwrite(None)])
        out.append(ch.get())
        try:
            ch.update([b.types.Overwrite([1]), b.types.Overwrite([2])])
        except b.errors.InvalidUpdateError as exc:
            out.append(("refused", "one Overwrite" in str(exc)))
        return out

    assert_same(scenario)


def test_copy_is_independent_and_equality():
    def scenario(b: Backend):
        ch = _channel(b, snapshot_frequency=5)
        ch.update(["a"])
        twin = ch.copy()
        twin.update(["b"])
        return [
            ch.get(),
            twin.get(),
            ch == _channel(b, snapshot_frequency=5),
            ch == _channel(b, snapshot_frequency=6),
            ch.snapshot_frequency,
        ]

    assert_same(scenario)


@pytest.mark.parametrize("freq", [0, -1])
def test_snapshot_frequency_must_be_positive(freq):
    def scenario(b: Backend):
        return _channel(b, snapshot_frequency=freq)

    assert_same(scenario)
