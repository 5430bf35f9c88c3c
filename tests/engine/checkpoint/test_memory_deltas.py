"""InMemorySaver stores a growing list as deltas; reads must return exactly what was put."""

from __future__ import annotations

import operator
import random
from typing import Annotated, TypedDict

import pytest

from engine.checkpoint import memory
from engine.checkpoint.base import empty_checkpoint
from engine.checkpoint.memory import InMemorySaver
from engine.checkpoint.serde.jsonplus import JsonPlusSerializer
from engine.graph import END, START, StateGraph


def cfg(thread="t1", checkpoint_id=None):
    conf = {"thread_id": thread, "checkpoint_ns": ""}
    if checkpoint_id:
        conf["checkpoint_id"] = checkpoint_id
    return {"configurable": conf}


class Thread:
    """Puts checkpoints the way the loop does: new versions only for the channels given."""

    def __init__(self, saver, thread="t1"):
        self.saver, self.config, self.versions, self.step = saver, cfg(thread), {}, 0

    def put(self, parent=None, **values):
        checkpoint = empty_checkpoint()
        if parent is not None:
            self.config = parent
            self.versions = dict(self.saver.get_tuple(parent).checkpoint["channel_versions"])
        new = {k: self.saver.get_next_version(self.versions.get(k)) for k in values}
        self.versions.update(new)
        checkpoint["channel_versions"] = dict(self.versions)
        checkpoint["channel_values"] = values
        self.config = self.saver.put(
            self.config, checkpoint, {"source": "loop", "step": self.step}, new
        )
        self.step += 1
        return self.config


def values_at(saver, config):
    return saver.get_tuple(config).checkpoint["channel_values"]


def stored(saver, channel):
    """(deltas, full copies) stored for a channel."""
    blobs = [v for k, v in saver.blobs.items() if k[2] == channel]
    deltas = sum(type(b) is memory._Delta for b in blobs)
    return deltas, len(blobs) - deltas


def chain_length(saver, key):
    n, blob = 0, saver.blobs[key]
    while type(blob) is memory._Delta:
        n, blob = n + 1, saver.blobs[(*key[:3], blob.base)]
    return n


def test_growing_list_of_strings_is_stored_as_bounded_deltas_and_reads_back_at_every_step():
    saver = InMemorySaver()
    thread = Thread(saver)
    items, configs = [], []
    for i in range(3 * memory.MAX_CHAIN + 5):
        items = items + [f"{i:08d}".ljust(1024, "x")]
        configs.append(thread.put(log=items, n=i))
    deltas, full = stored(saver, "log")
    assert deltas > 0.9 * len(configs) and full >= 3
    chains = [chain_length(saver, k) for k in saver.blobs if k[2] == "log"]
    assert max(chains) <= memory.MAX_CHAIN
    # a mid-history checkpoint, the first and the last
    for i in (0, 37, memory.MAX_CHAIN, len(configs) // 2, len(configs) - 1):
        got = values_at(saver, configs[i])
        assert got["log"] == items[: i + 1] and got["n"] == i
    assert [len(t.checkpoint["channel_values"]["log"]) for t in saver.list(cfg(), limit=3)] == [
        len(configs), len(configs) - 1, len(configs) - 2
    ]  # fmt: skip


def test_in_place_mutation_of_a_mutable_item_is_captured_and_history_kept():
    saver = InMemorySaver()
    thread = Thread(saver)
    items = [{"i": 0}]
    first = thread.put(items=items)
    items = items + [{"i": 1}]
    second = thread.put(items=items)
    items[0]["i"] = "mutated"  # user code changes an old message in place
    items = items + [{"i": 2}]
    third = thread.put(items=items)
    assert stored(saver, "items") == (0, 3)  # mutable items are never deltas
    assert values_at(saver, first)["items"] == [{"i": 0}]
    assert values_at(saver, second)["items"] == [{"i": 0}, {"i": 1}]
    assert values_at(saver, third)["items"] == [{"i": "mutated"}, {"i": 1}, {"i": 2}]


def test_tuples_holding_mutable_values_are_not_deltas():
    saver = InMemorySaver()
    thread = Thread(saver)
    inner = [1]
    items = [("a", inner)]
    first = thread.put(items=items)
    inner.append(2)
    items = items + [("b", [])]
    second = thread.put(items=items)
    assert stored(saver, "items") == (0, 2)
    # (tuples read back as lists, as langgraph's serializer gives them)
    assert values_at(saver, first)["items"] == [["a", [1]]]
    assert values_at(saver, second)["items"] == [["a", [1, 2]], ["b", []]]


def test_a_list_replaced_rather_than_extended_is_stored_in_full():
    saver = InMemorySaver()
    thread = Thread(saver)
    a = thread.put(items=[1, 2, "x", (3, None)])
    b = thread.put(items=[1.0, 2, "x", (3, None), 4])  # equal, not identical: 1.0 is not 1
    c = thread.put(items=[1.0, 2])  # shorter
    d = thread.put(items=["".join(["y", "z"])])  # a new list
    assert stored(saver, "items") == (0, 4)
    assert values_at(saver, a)["items"] == [1, 2, "x", [3, None]]  # tuples read back as lists
    got = values_at(saver, b)["items"]
    assert got == [1.0, 2, "x", [3, None], 4] and type(got[0]) is float
    assert values_at(saver, c)["items"] == [1.0, 2]
    assert values_at(saver, d)["items"] == ["yz"]


def test_replacing_an_item_of_the_previous_list_in_place_is_not_mistaken_for_an_extension():
    saver = InMemorySaver()
    thread = Thread(saver)
    items = ["a", "b"]
    first = thread.put(items=items)
    items[0] = "changed"  # the saver's previous list object is changed in place...
    items.append("c")  # ...and passed again, grown
    second = thread.put(items=items)
    assert values_at(saver, first)["items"] == ["a", "b"]
    assert values_at(saver, second)["items"] == ["changed", "b", "c"]
    third = thread.put(items=items + ["d"])  # a true extension again: a delta
    assert values_at(saver, third)["items"] == ["changed", "b", "c", "d"]
    assert stored(saver, "items") == (1, 2)


def test_fork_from_an_old_checkpoint_and_reading_both_branches():
    saver = InMemorySaver()
    thread = Thread(saver)
    items, configs = [], []
    for i in range(20):
        items = items + [i]
        configs.append(thread.put(items=items))
    fork_items = values_at(saver, configs[5])["items"] + ["fork"]
    fork = thread.put(configs[5], items=fork_items)
    more = thread.put(items=fork_items + ["more"])
    assert values_at(saver, fork)["items"] == [0, 1, 2, 3, 4, 5, "fork"]
    assert values_at(saver, more)["items"] == [0, 1, 2, 3, 4, 5, "fork", "more"]
    assert values_at(saver, configs[-1])["items"] == list(range(20))
    assert values_at(saver, configs[5])["items"] == list(range(6))


def test_a_failed_put_stores_nothing_and_later_deltas_stay_right():
    saver = InMemorySaver()
    thread = Thread(saver)
    items = ["a"]
    thread.put(items=items)
    with pytest.raises(TypeError):
        thread.put(items=items + ["b"], bad=object())
    assert len(list(saver.list(cfg()))) == 1
    thread.versions = dict(saver.get_tuple(cfg()).checkpoint["channel_versions"])
    last = thread.put(items=items + ["c"])
    assert values_at(saver, last)["items"] == ["a", "c"]


def test_delete_thread_forgets_the_list_it_could_extend():
    saver = InMemorySaver()
    thread = Thread(saver)
    items = ["a", "b"]
    thread.put(items=items)
    saver.delete_thread("t1")
    again = Thread(saver)
    config = again.put(items=items + ["c"])
    assert values_at(saver, config)["items"] == ["a", "b", "c"]


def test_reads_return_new_objects():
    saver = InMemorySaver()
    thread = Thread(saver)
    config = thread.put(items=["a"])
    got = saver.get_tuple(config)
    got.checkpoint["channel_values"]["items"].append("x")
    got.checkpoint["channel_versions"]["items"] = "bogus"
    got.metadata["step"] = 99
    again = saver.get_tuple(config)
    assert again.checkpoint["channel_values"]["items"] == ["a"]
    assert again.checkpoint["channel_versions"]["items"] != "bogus"
    assert again.metadata["step"] == 0


def _random_item(rng):
    return rng.choice(
        [rng.randint(-3, 3), rng.random(), True, None, "s" * rng.randint(0, 3), b"b",
         (rng.randint(0, 2), "t"), {"d": rng.randint(0, 2)}, [rng.randint(0, 2)]]
    )  # fmt: skip


@pytest.mark.parametrize("seed", range(8))
def test_random_histories_read_back_like_full_copies(seed, monkeypatch):
    """Random extends, replacements, in-place edits and forks: every checkpoint reads back the
    same from a saver with deltas as from one that serializes every value in full."""
    monkeypatch.setattr(memory, "MAX_CHAIN", 5)
    rng = random.Random(seed)
    fast, plain = InMemorySaver(), InMemorySaver()
    plain._deltas = False
    threads = [Thread(fast), Thread(plain)]
    items: list = []
    configs: list = []
    for _ in range(120):
        action = rng.random()
        if action < 0.6:
            items = items + [_random_item(rng) for _ in range(rng.randint(0, 3))]
        elif action < 0.7 and items:
            items[rng.randrange(len(items))] = _random_item(rng)  # in place, then put again
        elif action < 0.8 and items:
            target = items[rng.randrange(len(items))]
            if isinstance(target, dict):
                target["d"] = "edited"
            elif isinstance(target, list):
                target.append("edited")
        elif action < 0.9 and configs:
            back = rng.randrange(len(configs))
            for t in threads:
                t.put(configs[back][threads.index(t)], n=back)
            items = list(values_at(fast, threads[0].config)["items"])
        else:
            items = [_random_item(rng) for _ in range(rng.randint(0, 4))]
        configs.append(tuple(t.put(items=items) for t in threads))
    for fast_config, plain_config in configs:
        assert values_at(fast, fast_config) == values_at(plain, plain_config)
    assert stored(fast, "items")[0] > 0


class GrowState(TypedDict):
    log: Annotated[list[str], operator.add]


def test_a_graph_growing_its_state_reads_back_every_checkpoint():
    def grow(state):
        return {"log": [f"item {len(state['log'])}"]}

    builder = StateGraph(GrowState)
    builder.add_node("grow", grow)
    builder.add_edge(START, "grow")
    builder.add_conditional_edges("grow", lambda s: END if len(s["log"]) >= 150 else "grow")
    saver = InMemorySaver()
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "g"}, "recursion_limit": 200}
    graph.invoke({"log": []}, config)
    history = list(graph.get_state_history(config))
    # the loop's checkpoints, newest first (then the input checkpoint)
    assert [len(s.values.get("log", [])) for s in history[:151]] == list(range(150, -1, -1))
    assert history[0].values["log"] == [f"item {i}" for i in range(150)]
    assert stored(saver, "log")[0] > 100


def _atom(i: int):
    """Immutable items of every kind a delta may hold, some equal across types (1, 1.0, True)."""
    kinds = [f"é{i}", b"b%d" % i, i, i / 4, -0.0, i % 2 == 0, None, (i, ("x", 1.5)), 2**70 + i]
    return kinds[i % len(kinds)]


def _read_back(value):
    """A value as a checkpoint gives it back: tuples as lists, as in langgraph."""
    return [_read_back(v) for v in value] if type(value) is tuple else value


class AtomState(TypedDict):
    log: Annotated[list, operator.add]


def test_a_full_copy_after_a_chain_joins_the_stored_items_and_reads_back_exactly():
    """Once a chain is long, the whole list is stored again: from the items already serialized
    (each item is serialized once in the whole run), byte for byte what serializing the list
    gives, and every checkpoint of the history reads back the very values, types included."""
    steps = 3 * memory.MAX_CHAIN + 10

    def grow(state):
        return {"log": [_atom(len(state["log"]))]}

    builder = StateGraph(AtomState)
    builder.add_node("grow", grow)
    builder.add_edge(START, "grow")
    builder.add_conditional_edges("grow", lambda s: END if len(s["log"]) >= steps else "grow")
    saver = InMemorySaver()
    lists_serialized = []
    dumps = saver.serde.dumps_typed

    def counting(value):
        if type(value) is list:
            lists_serialized.append(len(value))
        return dumps(value)

    saver.serde.dumps_typed = counting
    graph = builder.compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "atoms"}, "recursion_limit": steps + 10}
    graph.invoke({"log": []}, config)
    del saver.serde.dumps_typed

    assert max(lists_serialized) == 1  # writes and deltas: one item each, never the list
    full = [v for k, v in saver.blobs.items() if k[2] == "log" and type(v) is not memory._Delta]
    assert len(full) >= 3  # the input's empty list, then copies joined after chains
    for blob in full:
        value = saver.serde.loads_typed(blob)
        assert blob == saver.serde.dumps_typed(value)
    history = list(graph.get_state_history(config))
    assert len(history) == steps + 2
    for snapshot in history:
        got = snapshot.values.get("log", [])
        want = [_read_back(_atom(i)) for i in range(len(got))]
        assert [(type(x), repr(x)) for x in got] == [(type(x), repr(x)) for x in want]
    assert len(history[0].values["log"]) == steps


def test_a_serializer_of_its_own_serializes_the_full_copy_itself():
    """A JsonPlusSerializer subclass may write other bytes than msgpack arrays: the full copy
    after a chain is its own serialization of the list, not joined pieces."""

    class Tagged(JsonPlusSerializer):
        def dumps_typed(self, obj):
            kind, data = super().dumps_typed(obj)
            return kind, b"T" + data if kind == "msgpack" else data

        def loads_typed(self, data):
            kind, payload = data
            return super().loads_typed((kind, payload[1:] if kind == "msgpack" else payload))

    saver = InMemorySaver(serde=Tagged())
    thread = Thread(saver)
    items, configs = [], []
    for i in range(2 * memory.MAX_CHAIN + 3):
        items = items + [f"{i}"]
        configs.append(thread.put(log=items))
    assert stored(saver, "log")[1] >= 3
    for i in (0, memory.MAX_CHAIN, memory.MAX_CHAIN + 1, len(configs) - 1):
        assert values_at(saver, configs[i])["log"] == items[: i + 1]
