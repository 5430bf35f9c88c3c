"""The saver contract (langgraph's BaseCheckpointSaver), on InMemorySaver and SqliteSaver alike."""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from pydantic import BaseModel

from engine.checkpoint.base import empty_checkpoint
from engine.checkpoint.memory import InMemorySaver
from engine.checkpoint.sqlite import SqliteSaver
from engine.types import Interrupt, Send


class Profile(BaseModel):
    name: str
    joined: dt.date


@pytest.fixture(params=["memory", "sqlite"])
def saver(request, tmp_path):
    if request.param == "memory":
        yield InMemorySaver()
        return
    conn = sqlite3.connect(tmp_path / "contract.sqlite", check_same_thread=False)
    yield SqliteSaver(conn)
    conn.close()


def cfg(thread="t1", ns="", checkpoint_id=None):
    conf = {"thread_id": thread, "checkpoint_ns": ns}
    if checkpoint_id:
        conf["checkpoint_id"] = checkpoint_id
    return {"configurable": conf}


def save(saver, values, *, config=None, step=0, source="loop", versions=None, **meta):
    """Put a checkpoint holding `values` (every channel at a new version); return its config."""
    config = config or cfg()
    parent = saver.get_tuple(config) if "checkpoint_id" not in config["configurable"] else None
    checkpoint = empty_checkpoint()
    previous = parent.checkpoint["channel_versions"] if parent else {}
    new_versions = versions or {k: saver.get_next_version(previous.get(k), None) for k in values}
    checkpoint["channel_versions"] = {**previous, **new_versions}
    checkpoint["channel_values"] = dict(values)
    if parent and "checkpoint_id" not in config["configurable"]:
        config = parent.config
    return saver.put(config, checkpoint, {"source": source, "step": step, **meta}, new_versions)


def test_empty_thread_has_nothing(saver):
    assert saver.get_tuple(cfg()) is None
    assert saver.get(cfg()) is None
    assert list(saver.list(cfg())) == []


def test_put_then_get_latest_and_by_id(saver):
    first = save(saver, {"a": 1}, step=-1, source="input")
    second = save(saver, {"a": 2, "b": "x"}, step=0)
    latest = saver.get_tuple(cfg())
    assert latest.config == second
    assert latest.checkpoint["channel_values"] == {"a": 2, "b": "x"}
    assert latest.parent_config == first
    assert latest.metadata == {"source": "loop", "step": 0}
    older = saver.get_tuple(first)
    assert older.checkpoint["channel_values"] == {"a": 1}
    assert older.parent_config is None
    assert older.metadata["source"] == "input" and older.metadata["step"] == -1
    assert saver.get_tuple(cfg(checkpoint_id="no-such-id")) is None


def test_unchanged_channels_are_shared_between_checkpoints(saver):
    save(saver, {"a": 1, "b": [1, 2]})
    first = saver.get_tuple(cfg())
    checkpoint = empty_checkpoint()
    checkpoint["channel_versions"] = dict(first.checkpoint["channel_versions"])
    version = saver.get_next_version(checkpoint["channel_versions"]["a"], None)
    checkpoint["channel_versions"]["a"] = version
    checkpoint["channel_values"] = {"a": 5, "b": [1, 2]}
    saver.put(first.config, checkpoint, {"source": "loop", "step": 1}, {"a": version})
    assert saver.get_tuple(cfg()).checkpoint["channel_values"] == {"a": 5, "b": [1, 2]}
    assert saver.get_tuple(first.config).checkpoint["channel_values"] == {"a": 1, "b": [1, 2]}


def test_checkpoint_fields_round_trip(saver):
    checkpoint = empty_checkpoint()
    checkpoint["channel_versions"] = {"a": saver.get_next_version(None, None)}
    checkpoint["channel_values"] = {"a": 1}
    checkpoint["versions_seen"] = {"node": {"a": checkpoint["channel_versions"]["a"]}}
    checkpoint["updated_channels"] = ["a"]
    saver.put(cfg(), checkpoint, {"source": "loop", "step": 3}, checkpoint["channel_versions"])
    got = saver.get_tuple(cfg()).checkpoint
    for key in ("v", "id", "ts", "channel_versions", "versions_seen", "updated_channels"):
        assert got[key] == checkpoint[key], key


def test_next_version_increases_as_a_string(saver):
    v1 = saver.get_next_version(None, None)
    v2 = saver.get_next_version(v1, None)
    v3 = saver.get_next_version(v2, None)
    assert v1 < v2 < v3
    assert saver.get_next_version(v1, None) != v2 or True  # random part may differ
    assert int(v3.split(".")[0]) == 3


def test_list_order_before_limit_and_filter(saver):
    ids = [save(saver, {"a": i}, step=i - 1, source="input" if i == 0 else "loop")
           ["configurable"]["checkpoint_id"] for i in range(5)]  # fmt: skip
    listed = [t.config["configurable"]["checkpoint_id"] for t in saver.list(cfg())]
    assert listed == ids[::-1]
    assert [t.checkpoint["channel_values"]["a"] for t in saver.list(cfg(), limit=2)] == [4, 3]
    before = [t.metadata["step"] for t in saver.list(cfg(), before=cfg(checkpoint_id=ids[2]))]
    assert before == [0, -1]
    assert [t.metadata["step"] for t in saver.list(cfg(), filter={"source": "input"})] == [-1]
    assert [t.metadata["step"] for t in saver.list(cfg(), filter={"step": 2})] == [2]
    filtered = list(saver.list(cfg(), filter={"source": "loop"}, limit=2))
    assert [t.metadata["step"] for t in filtered] == [3, 2]
    assert list(saver.list(cfg(), filter={"source": "fork"})) == []
    assert [t.metadata["step"] for t in saver.list(cfg(checkpoint_id=ids[1]))] == [0]


def test_list_across_threads_and_namespaces(saver):
    save(saver, {"a": 1}, config=cfg("t1"))
    save(saver, {"a": 2}, config=cfg("t2"))
    save(saver, {"a": 3}, config=cfg("t1", ns="child:1"))
    assert {t.config["configurable"]["thread_id"] for t in saver.list(None)} == {"t1", "t2"}
    assert len(list(saver.list(None))) == 3
    t1 = {"configurable": {"thread_id": "t1"}}
    assert {t.config["configurable"]["checkpoint_ns"] for t in saver.list(t1)} == {"", "child:1"}
    assert [t.checkpoint["channel_values"] for t in saver.list(cfg("t1"))] == [{"a": 1}]
    child = saver.get_tuple(cfg("t1", ns="child:1"))
    assert child.checkpoint["channel_values"] == {"a": 3}
    assert child.config["configurable"]["checkpoint_ns"] == "child:1"
    assert saver.get_tuple(cfg("t1")).checkpoint["channel_values"] == {"a": 1}


def test_metadata_round_trip_and_config_values(saver):
    config = {
        "configurable": {"thread_id": "t1", "checkpoint_ns": "", "user": "ann", "__secret": 1,
                         "obj": object()},
        "metadata": {"run": 7, "flag": True},
    }  # fmt: skip
    parents = {"": "parent-id"}
    save(saver, {"a": 1}, config=config, step=2, parents=parents, note="ünïcode")
    metadata = saver.get_tuple(cfg()).metadata
    assert metadata == {
        "source": "loop", "step": 2, "parents": parents, "note": "ünïcode",
        "user": "ann", "run": 7, "flag": True,
    }  # fmt: skip


def test_put_writes_and_special_slots(saver):
    config = save(saver, {"a": 1})
    saver.put_writes(config, [("a", 2), ("b", [1])], "task-1")
    saver.put_writes(config, [("a", 3)], "task-2", "path-2")
    # a regular write is kept once: re-putting the same slot does not overwrite it
    saver.put_writes(config, [("a", 99)], "task-1")
    saver.put_writes(config, [("__error__", ValueError("boom"))], "task-3")
    saver.put_writes(config, [("__error__", ValueError("again"))], "task-3")
    saver.put_writes(config, [("__interrupt__", (Interrupt("ask", id="i1"),))], "task-4")
    writes = saver.get_tuple(cfg()).pending_writes
    by_task = {}
    for task_id, channel, value in writes:
        by_task.setdefault(task_id, []).append((channel, value))
    assert by_task["task-1"] == [("a", 2), ("b", [1])]
    assert by_task["task-2"] == [("a", 3)]
    [(channel, error)] = by_task["task-3"]
    assert channel == "__error__" and error == "ValueError('again')"  # a repr, as langgraph
    # tuples read back as lists, as from langgraph's savers
    assert by_task["task-4"] == [("__interrupt__", [Interrupt("ask", id="i1")])]
    # writes belong to their checkpoint only
    save(saver, {"a": 2})
    assert saver.get_tuple(cfg()).pending_writes == []
    assert len(saver.get_tuple(config).pending_writes) == 5


def test_pending_writes_are_ordered_by_task(saver):
    config = save(saver, {"a": 1})
    saver.put_writes(config, [("x", "b")], "task-b")
    saver.put_writes(config, [("x", "a1"), ("x", "a2")], "task-a")
    assert [(t, v) for t, _, v in saver.get_tuple(config).pending_writes] == [
        ("task-a", "a1"), ("task-a", "a2"), ("task-b", "b"),
    ]  # fmt: skip


def test_delete_thread(saver):
    config = save(saver, {"a": 1}, config=cfg("gone"))
    saver.put_writes(config, [("a", 2)], "task")
    save(saver, {"a": 1}, config=cfg("gone", ns="sub:1"))
    save(saver, {"a": 5}, config=cfg("kept"))
    saver.delete_thread("gone")
    assert saver.get_tuple(cfg("gone")) is None
    assert saver.get_tuple(cfg("gone", ns="sub:1")) is None
    assert list(saver.list({"configurable": {"thread_id": "gone"}})) == []
    assert saver.get_tuple(cfg("kept")).checkpoint["channel_values"] == {"a": 5}
    # the thread can start again from scratch
    save(saver, {"a": 7}, config=cfg("gone"))
    assert saver.get_tuple(cfg("gone")).checkpoint["channel_values"] == {"a": 7}


@pytest.mark.parametrize(
    "value",
    [
        [
            HumanMessage("hi", id="1"),
            AIMessage("yo", id="2", tool_calls=[{"name": "f", "args": {"x": 1}, "id": "c"}]),
        ],
        Profile(name="ann", joined=dt.date(2020, 1, 2)),
        {"when": dt.datetime(2024, 1, 1, tzinfo=dt.UTC), "ids": {1, 2}, "pair": [1, "a"]},
        [Send("node", {"i": 1})],
        b"\x00bytes",
        None,
    ],
    ids=["messages", "pydantic", "typed-values", "send", "bytes", "none"],
)
def test_values_round_trip_with_their_types(saver, value):
    save(saver, {"v": value})
    got = saver.get_tuple(cfg()).checkpoint["channel_values"]["v"]
    assert got == value and type(got) is type(value)
    config = saver.get_tuple(cfg()).config
    saver.put_writes(config, [("v", value)], "task")
    [(_, _, written)] = saver.get_tuple(cfg()).pending_writes
    assert written == value and type(written) is type(value)


def test_stored_values_do_not_alias_the_callers_objects(saver):
    items = [{"k": 1}]
    save(saver, {"items": items})
    items[0]["k"] = 2  # in-place mutation after the put
    got = saver.get_tuple(cfg()).checkpoint["channel_values"]["items"]
    assert got == [{"k": 1}]
    got[0]["k"] = 3
    assert saver.get_tuple(cfg()).checkpoint["channel_values"]["items"] == [{"k": 1}]


def test_unserializable_value_is_refused_naming_its_type(saver):
    with pytest.raises(TypeError, match="function"):
        save(saver, {"bad": lambda: 1})


def test_async_twins(saver):
    async def scenario():
        config = save(saver, {"a": 1})
        await saver.aput_writes(config, [("a", 2)], "task")
        got = await saver.aget_tuple(cfg())
        assert got.pending_writes == [("task", "a", 2)]
        assert (await saver.aget(cfg()))["channel_values"] == {"a": 1}
        checkpoint = empty_checkpoint()
        checkpoint["channel_values"] = {}
        await saver.aput(config, checkpoint, {"source": "loop", "step": 1}, {})
        listed = [t async for t in saver.alist(cfg())]
        assert [t.metadata["step"] for t in listed] == [1, 0]
        await saver.adelete_thread("t1")
        assert await saver.aget_tuple(cfg()) is None

    asyncio.run(scenario())


def test_growing_list_reads_back_at_every_checkpoint(saver):
    """Every checkpoint of a list growing each step (the delta path in SqliteSaver) reads back
    whole, including after branching from an old checkpoint and after in-place mutation."""
    configs, items = [], []
    for i in range(60):
        items = items + [{"i": i, "pad": "x" * 500}]
        configs.append(save(saver, {"items": items, "n": i}, step=i))
    for i, config in enumerate(configs):
        values = saver.get_tuple(config).checkpoint["channel_values"]
        assert [x["i"] for x in values["items"]] == list(range(i + 1)), i
    # fork: continue from checkpoint 10 with a different list
    fork_items = [{"i": i, "pad": "x" * 500} for i in range(11)] + [{"i": "fork"}]
    fork = save(saver, {"items": fork_items}, config=configs[10], step=11, source="fork")
    assert saver.get_tuple(fork).checkpoint["channel_values"]["items"][-1] == {"i": "fork"}
    assert len(saver.get_tuple(configs[-1]).checkpoint["channel_values"]["items"]) == 60
    # a list that does not extend the previous one (an element changed) is stored in full
    changed = [dict(x) for x in items]
    changed[0]["i"] = "changed"
    last = save(saver, {"items": changed}, step=99)
    assert saver.get_tuple(last).checkpoint["channel_values"]["items"][0]["i"] == "changed"
    assert saver.get_tuple(configs[-1]).checkpoint["channel_values"]["items"][0]["i"] == 0


def test_re_put_of_unchanged_versions_keeps_values_readable(saver):
    """A loop may pass channels whose version did not change in new_versions again."""
    items = []
    for i in range(5):
        items = items + [i]
        save(saver, {"items": items}, step=i)
    latest = saver.get_tuple(cfg())
    versions = dict(latest.checkpoint["channel_versions"])
    checkpoint = empty_checkpoint()
    checkpoint["channel_versions"] = versions
    checkpoint["channel_values"] = {"items": items}
    saver.put(latest.config, checkpoint, {"source": "input", "step": 5}, versions)
    saver.put(saver.get_tuple(cfg()).config, checkpoint | {"id": empty_checkpoint()["id"]},
              {"source": "loop", "step": 6}, versions)  # fmt: skip
    assert [t.checkpoint["channel_values"]["items"] for t in saver.list(cfg(), limit=3)] == [
        [0, 1, 2, 3, 4]
    ] * 3
