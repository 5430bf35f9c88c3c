"""Table tests of the superstep maths (engine/pregel/algo.py), no threads and no graph.

`apply_writes`: which versions a barrier bumps, what versions_seen records, which triggers it
consumes, that untouched ephemeral channels clear when a step passes, when channels are told the
run is finishing. `prepare_next_tasks`: which nodes a version change wakes, with what input, and
the PUSH task each Send packet becomes. langgraph keeps these in a private module
(langgraph.pregel._algo), so these tests run on the engine alone; the differential tests cover
the same rules through the public API.

Channels are given as {name: (kind, value)}: `kind` a factory, `value` the value written before
the step (NOTHING: left empty). Versions are ints; the next version is max + 1.
"""

import logging
import operator
from types import SimpleNamespace

import pytest

from engine.channels import (
    BinaryOperatorAggregate,
    EphemeralValue,
    LastValue,
    LastValueAfterFinish,
    NamedBarrierValue,
    Topic,
)
from engine.constants import CONF, INTERRUPT, NO_WRITES, PULL, PUSH, TASKS
from engine.errors import EmptyChannelError, InvalidUpdateError
from engine.pregel.algo import TaskPlanner, apply_writes, prepare_next_tasks
from engine.pregel.read import PregelNode
from engine.runtime import Runtime
from engine.types import Send

NOTHING = object()
EMPTY = "<empty>"


def last(value=NOTHING):
    return (lambda: LastValue(int), value)


def ephemeral(value=NOTHING):
    return (lambda: EphemeralValue(int), value)


def after_finish(value=NOTHING):
    return (lambda: LastValueAfterFinish(int), value)


def adder(value=NOTHING):
    return (lambda: BinaryOperatorAggregate(list, operator.add), value)


def join(names, written=()):
    return (lambda: NamedBarrierValue(str, set(names)), list(written) or NOTHING)


def sends(*packets):
    return (lambda: Topic(Send), list(packets) or NOTHING)


def build(spec: dict) -> dict:
    channels = {}
    for name, (kind, value) in spec.items():
        channel = kind()
        channel.key = name
        if value is not NOTHING:
            channel.update(value if isinstance(channel, (NamedBarrierValue, Topic)) else [value])
        channels[name] = channel
    return channels


def values(channels: dict) -> dict:
    out = {}
    for name, channel in channels.items():
        try:
            out[name] = channel.get()
        except EmptyChannelError:
            out[name] = EMPTY
    return out


def task(name, triggers=(), writes=(), path=None):
    """A finished task as apply_writes sees it."""
    return SimpleNamespace(
        name=name, triggers=tuple(triggers), writes=list(writes), path=path or (PULL, name)
    )


def checkpoint(versions, seen=None):
    return {
        "id": "00000000-0000-0000-0000-000000000000",
        "channel_versions": dict(versions),
        "versions_seen": {k: dict(v) for k, v in (seen or {}).items()},
    }


def next_int(current, _channel):
    return (current or 0) + 1


# --------------------------------------------------------------------------- apply_writes

APPLY_CASES = [
    pytest.param(
        dict(
            channels={"a": last(1), "b": last()},
            versions={"a": 1},
            tasks=[task("n", ["a"], [("b", 2)])],
            wakes={"b": ["m"]},
        ),
        dict(
            updated={"b"},
            versions={"a": 1, "b": 2},
            seen={"n": {"a": 1}},
            values={"a": 1, "b": 2},
        ),
        id="a-write-bumps-its-channel-to-max-plus-one",
    ),
    pytest.param(
        dict(
            channels={"a": last(1), "b": last(), "c": last()},
            versions={"a": 4, "c": 2},
            seen={"n": {"a": 3, "c": 2}},
            tasks=[task("n", ["a"], [("b", 5)])],
            wakes={"b": ["m"]},
        ),
        dict(
            updated={"b"},
            versions={"a": 4, "b": 5, "c": 2},
            seen={"n": {"a": 4, "c": 2}},
            values={"a": 1, "b": 5, "c": EMPTY},
        ),
        id="versions-seen-records-the-triggers-current-versions",
    ),
    pytest.param(
        dict(
            channels={"a": last(1)},
            versions={"a": 1},
            tasks=[task("n", ["a", "ghost"], [])],
            wakes={},
        ),
        dict(updated=set(), versions={"a": 1}, seen={"n": {"a": 1}}, values={"a": 1}),
        id="versions-seen-skips-triggers-without-a-version",
    ),
    pytest.param(
        dict(
            channels={"a": last(1), "b": last(2)},
            versions={"a": 1, "b": 1},
            tasks=[task("n", ["a"], [("b", 3)]), task("m", ["b"], [])],
            wakes={"b": ["m"]},
        ),
        dict(
            updated={"b"},
            versions={"a": 1, "b": 2},
            seen={"n": {"a": 1}, "m": {"b": 1}},
            values={"a": 1, "b": 3},
        ),
        id="each-task-records-what-it-saw",
    ),
    pytest.param(
        dict(
            channels={"e": ephemeral(1), "a": last()},
            versions={"e": 1},
            tasks=[task("n", ["e"], [("a", 7)])],
            wakes={"a": ["m"]},
        ),
        dict(
            updated={"a"},
            versions={"e": 2, "a": 2},
            seen={"n": {"e": 1}},
            values={"e": EMPTY, "a": 7},
        ),
        id="untouched-ephemeral-channel-clears-when-a-step-passes",
    ),
    pytest.param(
        dict(
            channels={"e": ephemeral(1)},
            versions={"e": 1},
            tasks=[task("n", ["e"], [("e", 2)])],
            wakes={"e": ["n"]},
        ),
        dict(updated={"e"}, versions={"e": 2}, seen={"n": {"e": 1}}, values={"e": 2}),
        id="rewritten-ephemeral-channel-keeps-the-new-value",
    ),
    pytest.param(
        dict(
            channels={"e": ephemeral(1), "a": last()},
            versions={"e": 1},
            tasks=[task("n", ["e"], [("a", 7)])],
            wakes={"a": ["m"]},
            fresh=[],
        ),
        dict(
            updated={"a"},
            versions={"e": 1, "a": 2},
            seen={"n": {"e": 1}},
            values={"e": 1, "a": 7},
        ),
        id="only-fresh-channels-hear-that-a-step-passed",
    ),
    pytest.param(
        dict(
            channels={"e": ephemeral(1), "a": last()},
            versions={"e": 1},
            tasks=[task("__input__", [], [("a", 7)])],
            wakes={"a": ["m"]},
        ),
        dict(
            updated={"a"},
            versions={"e": 1, "a": 2},
            seen={"__input__": {}},
            values={"e": 1, "a": 7},
        ),
        id="writes-without-triggers-are-not-a-step",
    ),
    pytest.param(
        dict(
            channels={"join": join(["a", "b"], ["a", "b"]), "out": last()},
            versions={"join": 3},
            tasks=[task("c", ["join"], [("out", 1)])],
            wakes={"out": ["d"]},
        ),
        dict(
            updated={"out"},
            versions={"join": 4, "out": 4},
            seen={"c": {"join": 3}},
            values={"join": EMPTY, "out": 1},
        ),
        id="a-consumed-join-trigger-resets-and-bumps",
    ),
    pytest.param(
        dict(
            channels={"acc": adder([])},
            versions={"acc": 1},
            tasks=[
                task("b", ["x"], [("acc", ["b"])]),
                task("a", ["x"], [("acc", ["a1"]), ("acc", ["a2"])]),
            ],
            wakes={},
        ),
        dict(
            updated={"acc"},
            versions={"acc": 2},
            seen={"a": {}, "b": {}},
            values={"acc": ["a1", "a2", "b"]},
        ),
        id="writes-reach-a-reducer-in-task-path-order",
    ),
    pytest.param(
        dict(
            channels={"acc": adder([])},
            versions={"acc": 1},
            tasks=[
                task("n", [PUSH], [("acc", ["10"])], path=(PUSH, 10, False)),
                task("n", [PUSH], [("acc", ["9"])], path=(PUSH, 9, False)),
                task("m", ["x"], [("acc", ["m"])]),
            ],
            wakes={},
        ),
        dict(
            updated={"acc"},
            versions={"acc": 2},
            seen={"n": {}, "m": {}},
            values={"acc": ["m", "9", "10"]},
        ),
        id="push-tasks-sort-by-index-as-numbers-after-pull-tasks",
    ),
    pytest.param(
        dict(
            channels={"a": last(1)},
            versions={"a": 1},
            tasks=[task("n", ["a"], [(NO_WRITES, None), (INTERRUPT, "x")])],
            wakes={},
        ),
        dict(updated=set(), versions={"a": 1}, seen={"n": {"a": 1}}, values={"a": 1}, warns=0),
        id="reserved-writes-are-skipped-silently",
    ),
    pytest.param(
        dict(
            channels={"a": last(1)},
            versions={"a": 1},
            tasks=[task("n", ["a"], [("nowhere", 1)])],
            wakes={},
        ),
        dict(updated=set(), versions={"a": 1}, seen={"n": {"a": 1}}, values={"a": 1}, warns=1),
        id="a-write-to-an-unknown-channel-is-dropped-with-a-warning",
    ),
    pytest.param(
        dict(
            channels={"a": last(1), "d": after_finish(5)},
            versions={"a": 1, "d": 1},
            tasks=[task("n", ["a"], [("a", 2)])],
            wakes={"d": ["deferred"]},
        ),
        dict(
            updated={"a", "d"},
            versions={"a": 2, "d": 2},
            seen={"n": {"a": 1}},
            values={"a": 2, "d": 5},
        ),
        id="nothing-left-to-wake-finishes-the-run",
    ),
    pytest.param(
        dict(
            channels={"a": last(1), "d": after_finish(5)},
            versions={"a": 1, "d": 1},
            tasks=[task("n", ["a"], [("a", 2)])],
            wakes={"a": ["n"], "d": ["deferred"]},
        ),
        dict(
            updated={"a"},
            versions={"a": 2, "d": 1},
            seen={"n": {"a": 1}},
            values={"a": 2, "d": EMPTY},
        ),
        id="no-finish-while-an-update-wakes-a-node",
    ),
    pytest.param(
        dict(
            channels={"a": last(1), "b": last()},
            versions={"a": 1},
            tasks=[task("n", ["a"], [("b", 2)])],
            wakes={"b": ["m"]},
            next_version=None,
        ),
        dict(updated=set(), versions={"a": 1}, seen={"n": {"a": 1}}, values={"a": 1, "b": 2}),
        id="without-next-version-values-change-but-versions-do-not",
    ),
    pytest.param(
        dict(
            channels={TASKS: sends(), "a": last()},
            versions={"a": 1},
            tasks=[task("n", ["a"], [(TASKS, []), ("a", 1)])],
            wakes={"a": ["m"]},
        ),
        dict(
            updated={"a"},
            versions={"a": 2},
            seen={"n": {"a": 1}},
            values={TASKS: EMPTY, "a": 1},
        ),
        id="an-update-that-changes-nothing-bumps-nothing",
    ),
]


@pytest.mark.parametrize(("given", "want"), APPLY_CASES)
def test_apply_writes(given, want, caplog):
    channels = build(given["channels"])
    cp = checkpoint(given["versions"], given.get("seen"))
    with caplog.at_level(logging.WARNING, logger="engine.pregel"):
        updated = apply_writes(
            cp,
            channels,
            given["tasks"],
            given.get("next_version", next_int),
            given["wakes"],
            given.get("fresh"),
        )
    got = dict(
        updated=updated,
        versions=cp["channel_versions"],
        seen=cp["versions_seen"],
        values=values(channels),
    )
    if "warns" in want:
        got["warns"] = len([r for r in caplog.records if r.name == "engine.pregel"])
    assert got == want


def test_apply_writes_two_writes_to_a_last_value_raise():
    channels = build({"a": last()})
    cp = checkpoint({"a": 1})
    tasks = [task("n", ["x"], [("a", 1)]), task("m", ["x"], [("a", 2)])]
    with pytest.raises(InvalidUpdateError, match="At key 'a': Can receive only one value per step"):
        apply_writes(cp, channels, tasks, next_int, {})


# --------------------------------------------------------------------------- prepare_next_tasks


def node(reads, triggers):
    return PregelNode(channels=reads, triggers=list(triggers))


PLAN_CASES = [
    pytest.param(
        dict(
            channels={"a": last(1)},
            versions={"a": 2},
            seen={"n": {"a": 1}},
            nodes={"n": node("a", ["a"])},
        ),
        [("n", (PULL, "n"), ("a",), 1)],
        id="a-newer-version-wakes-a-subscriber",
    ),
    pytest.param(
        dict(
            channels={"a": last(1)},
            versions={"a": 2},
            seen={"n": {"a": 2}},
            nodes={"n": node("a", ["a"])},
        ),
        [],
        id="a-seen-version-does-not",
    ),
    pytest.param(
        dict(channels={"a": last(1)}, versions={"a": 1}, nodes={"n": node("a", ["a"])}),
        [("n", (PULL, "n"), ("a",), 1)],
        id="a-node-that-saw-nothing-wakes-on-any-available-trigger",
    ),
    pytest.param(
        dict(channels={"a": last()}, versions={"a": 1}, nodes={"n": node("a", ["a"])}),
        [],
        id="an-empty-trigger-wakes-nobody",
    ),
    pytest.param(
        dict(channels={"a": last(1)}, versions={}, nodes={"n": node("a", ["a"])}),
        [],
        id="no-versions-no-tasks",
    ),
    pytest.param(
        dict(
            channels={"a": last(1), "b": last(2)},
            versions={"a": 1, "b": 3},
            seen={"n": {"a": 1, "b": 2}},
            nodes={"n": node(["a", "b"], ["b", "a"])},
        ),
        [("n", (PULL, "n"), ("a", "b"), {"a": 1, "b": 2})],
        id="any-newer-trigger-wakes-and-triggers-are-sorted",
    ),
    pytest.param(
        dict(
            channels={"a": last(1), "b": last()},
            versions={"a": 1},
            nodes={"n": node(["a", "b"], ["a"])},
        ),
        [("n", (PULL, "n"), ("a",), {"a": 1})],
        id="a-dict-input-holds-only-available-channels",
    ),
    pytest.param(
        dict(
            channels={"a": last(1), "b": last()},
            versions={"a": 1},
            nodes={"n": node("b", ["a"])},
        ),
        [],
        id="a-single-channel-input-that-is-empty-skips-the-node",
    ),
    pytest.param(
        dict(
            channels={"a": last(1)},
            versions={"a": 1},
            nodes={"z": node("a", ["a"]), "m": node("a", ["a"])},
        ),
        [("z", (PULL, "z"), ("a",), 1), ("m", (PULL, "m"), ("a",), 1)],
        id="pull-tasks-in-node-order",
    ),
    pytest.param(
        dict(
            channels={"a": last(1), "b": last(2)},
            versions={"a": 1, "b": 1},
            nodes={"n": node("a", ["a"]), "m": node("b", ["b"])},
            updated={"b"},
            wakes={"a": ["n"], "b": ["m"]},
        ),
        [("m", (PULL, "m"), ("b",), 2)],
        id="updated-channels-pick-the-candidates",
    ),
    pytest.param(
        dict(
            channels={"a": last(1), "b": last(2)},
            versions={"a": 1, "b": 1},
            nodes={"z": node("a", ["a"]), "m": node("b", ["b"])},
            updated={"a", "b"},
            wakes={"a": ["z"], "b": ["m"]},
        ),
        [("m", (PULL, "m"), ("b",), 2), ("z", (PULL, "z"), ("a",), 1)],
        id="candidates-from-updated-channels-in-name-order",
    ),
    pytest.param(
        dict(
            channels={
                TASKS: sends(Send("n", {"x": 1}), Send("ghost", 0), Send("n", {"x": 2})),
                "a": last(1),
            },
            versions={TASKS: 1, "a": 1},
            seen={"m": {"a": 0}},
            nodes={"n": node("a", []), "m": node("a", ["a"])},
        ),
        [
            ("n", (PUSH, 0, False), (PUSH,), {"x": 1}),
            ("n", (PUSH, 2, False), (PUSH,), {"x": 2}),
            ("m", (PULL, "m"), ("a",), 1),
        ],
        id="send-packets-become-push-tasks-first-unknown-nodes-dropped",
    ),
    pytest.param(
        dict(
            channels={"join": join(["a", "b"], ["a"])},
            versions={"join": 2},
            nodes={"c": node([], ["join"])},
        ),
        [],
        id="a-join-waits-for-every-source",
    ),
    pytest.param(
        dict(
            channels={"join": join(["a", "b"], ["a", "b"])},
            versions={"join": 2},
            nodes={"c": node([], ["join"])},
        ),
        [("c", (PULL, "c"), ("join",), {})],
        id="a-complete-join-wakes-its-node",
    ),
    pytest.param(
        dict(
            channels={"d": after_finish(1)},
            versions={"d": 2},
            nodes={"deferred": node("d", ["d"])},
        ),
        [],
        id="a-deferred-trigger-waits-for-finish",
    ),
]


def planner(nodes) -> TaskPlanner:
    return TaskPlanner(nodes=nodes, managed={}, config={CONF: {}}, parent_ns="", runtime=Runtime())


@pytest.mark.parametrize(("given", "want"), PLAN_CASES)
def test_prepare_next_tasks(given, want):
    channels = build(given["channels"])
    cp = checkpoint(given["versions"], given.get("seen"))
    tasks = prepare_next_tasks(
        cp,
        [],
        planner(given["nodes"]),
        channels,
        1,
        10,
        for_execution=True,
        updated_channels=given.get("updated"),
        trigger_to_nodes=given.get("wakes"),
    )
    assert [(t.name, t.path, tuple(t.triggers), t.input) for t in tasks.values()] == want
    assert all(id_ == t.id for id_, t in tasks.items())


def test_task_ids_depend_on_checkpoint_step_and_node_only():
    def ids(step, checkpoint_id="00000000-0000-0000-0000-000000000000"):
        cp = checkpoint({"a": 1})
        cp["id"] = checkpoint_id
        nodes = {"n": node("a", ["a"]), "m": node("a", ["a"])}
        tasks = prepare_next_tasks(
            cp, [], planner(nodes), build({"a": last(1)}), step, 10, for_execution=True
        )
        return {t.name: t.id for t in tasks.values()}

    first = ids(1)
    assert ids(1) == first
    assert first["n"] != first["m"]
    assert ids(2)["n"] != first["n"]
    assert ids(1, "11111111-1111-1111-1111-111111111111")["n"] != first["n"]


# --------------------------------------------------------------------------- one superstep

STEP_CASES = [
    pytest.param(
        {"a": ["n"], "b": ["m"]},
        [("b", 1)],
        ["m"],
        id="a-write-wakes-the-nodes-subscribed-to-it",
    ),
    pytest.param({"a": ["n"], "b": ["m"]}, [], [], id="no-writes-wake-nobody"),
    pytest.param(
        {"a": ["n"], "b": ["m", "k"]},
        [("b", 1), ("a", 2)],
        ["k", "m", "n"],
        id="several-channels-wake-their-nodes-in-name-order",
    ),
]


@pytest.mark.parametrize(("subscribers", "writes", "woken"), STEP_CASES)
def test_a_barrier_then_the_next_plan(subscribers, writes, woken):
    """apply_writes' updated channels, fed to prepare_next_tasks, wake exactly their subscribers."""
    names = {n for ns in subscribers.values() for n in ns}
    nodes = {n: node(c, [c]) for c, ns in subscribers.items() for n in ns}
    channels = build({"a": last(0), "b": last(0)})
    cp = checkpoint({"a": 1, "b": 1}, {n: {"a": 1, "b": 1} for n in names | {"w"}})
    updated = apply_writes(cp, channels, [task("w", ["a"], writes)], next_int, subscribers)
    tasks = prepare_next_tasks(
        cp,
        [],
        planner(nodes),
        channels,
        2,
        10,
        for_execution=True,
        updated_channels=updated,
        trigger_to_nodes=subscribers,
    )
    assert sorted(t.name for t in tasks.values()) == woken
    assert [t.name for t in tasks.values()] == woken
