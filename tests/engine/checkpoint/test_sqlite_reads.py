"""SqliteSaver's read path (issue 21): one checkpoint costs the same whatever the thread's length,
`list` applies limit, before and filter in SQL, values read back exactly (forks, shared lists,
mutable items), and thread summaries come from the index without decoding a checkpoint."""

from __future__ import annotations

import copy
import operator
import sqlite3
from typing import Annotated, TypedDict

import pytest

from engine.checkpoint.sqlite import SqliteSaver
from engine.checkpoint.sqlite.deltas import CHAIN_ROWS
from engine.checkpoint.sqlite.rows import CheckedBlobs
from engine.graph import END, START, StateGraph
from engine.types import Command
from tests.engine.checkpoint.old_db_graph import build, item


class CountingConnection(sqlite3.Connection):
    """Counts the statements run and the rows they return."""

    statements = 0
    rows = 0

    def execute(self, sql, *args):
        cursor = super().execute(sql, *args)
        CountingConnection.statements += 1
        if sql.lstrip().upper().startswith(("SELECT", "WITH")):
            found = cursor.fetchall()
            CountingConnection.rows += len(found)
            return _Rows(found)
        return cursor


class _Rows(list):
    def fetchall(self):
        return list(self)

    def fetchone(self):
        return self[0] if self else None


def counted(path):
    conn = sqlite3.connect(path, check_same_thread=False, factory=CountingConnection)
    return conn, SqliteSaver(conn)


def reset():
    CountingConnection.statements = CountingConnection.rows = 0


def grown(path, steps: int, thread: str = "t"):
    """A thread of `steps` supersteps growing a list, stopped at its interrupt."""
    with SqliteSaver.from_conn_string(str(path)) as saver:
        config = {"configurable": {"thread_id": thread}, "recursion_limit": steps + 10}
        build(saver, steps).invoke({"items": [], "n": 0}, config)


THREAD = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}


@pytest.mark.parametrize("read", ["latest", "by id", "history of 3"])
def test_reading_costs_the_same_on_a_short_and_a_long_thread(tmp_path, read):
    costs = []
    for steps in (10, 3 * CHAIN_ROWS):
        path = tmp_path / f"t{steps}.sqlite"
        grown(path, steps)
        conn, saver = counted(path)
        middle = list(saver.list(THREAD))[steps // 2].config
        reset()
        if read == "latest":
            assert len(saver.get_tuple(THREAD).checkpoint["channel_values"]["items"]) == steps
        elif read == "by id":
            assert len(saver.get_tuple(middle).checkpoint["channel_values"]["items"]) > 0
        else:
            assert len(list(saver.list(THREAD, before=middle, limit=3))) == 3
        costs.append((CountingConnection.statements, CountingConnection.rows))
        conn.close()
    (short_statements, short_rows), (long_statements, long_rows) = costs
    assert long_statements == short_statements
    assert long_rows <= CHAIN_ROWS + 10, costs  # one chain at most, never the whole thread


def test_limit_before_and_filter_read_only_what_they_return(tmp_path, monkeypatch):
    path = tmp_path / "long.sqlite"
    grown(path, 200)
    decoded, original = [], CheckedBlobs.checkpoint  # every checkpoint row read is decoded here
    monkeypatch.setattr(CheckedBlobs, "checkpoint",
                        lambda self, key, blob: decoded.append(1) or original(self, key, blob))  # fmt: skip
    with SqliteSaver.from_conn_string(str(path)) as saver:
        every = list(saver.list(THREAD))
        decoded.clear()
        assert [t.config for t in saver.list(THREAD, limit=5)] == [t.config for t in every[:5]]
        assert len(decoded) == 5
        decoded.clear()
        older = list(saver.list(THREAD, before=every[100].config, limit=2))
        assert [t.config for t in older] == [t.config for t in every[101:103]] and len(decoded) == 2
        decoded.clear()
        (step7,) = saver.list(THREAD, filter={"step": 7})
        assert step7.metadata["step"] == 7 and len(decoded) == 1


def test_sql_filters_match_python_equality(tmp_path):
    path = tmp_path / "meta.sqlite"
    metadatas = [
        {"step": 1, "source": "loop", "a.b": "x", "k-1": True, "f": 1.5, "n": None, "d": {"x": 1}},
        {"step": 2, "source": "input", "a.b": "1", "k-1": 1, "f": 1, "d": {"x": 2}},
        {"step": 3, "source": "loop", "k-1": False, "f": 1.5, "n": 0, "big": 2**70},
        {"step": 4, "source": "loop", "a": {"b": "x"}, "k-1": "true", "big": 2**70 + 1},
    ]
    with SqliteSaver.from_conn_string(str(path)) as saver:
        from tests.engine.checkpoint.test_saver_contract import cfg, save

        for meta in metadatas:
            save(saver, {"v": meta["step"]}, config=cfg("m"), **meta)
        everything = list(saver.list(cfg("m")))
        filters = [{"source": "loop"}, {"a.b": "x"}, {"a.b": 1}, {"k-1": True}, {"k-1": 1},
                   {"k-1": "true"}, {"f": 1.5}, {"f": 1}, {"n": None}, {"n": 0}, {"d": {"x": 1}},
                   {"big": 2**70}, {"step": 3, "source": "loop"}, {"missing": None},
                   {"missing": 1}, {"step": 2.0}]  # fmt: skip
        for f in filters:
            expected = [
                t.config for t in everything if all(t.metadata.get(k) == v for k, v in f.items())
            ]
            assert [t.config for t in saver.list(cfg("m"), filter=f)] == expected, f


class Notes(TypedDict):
    notes: Annotated[list, operator.add]


def test_forks_shared_lists_and_mutable_items_read_back_exactly(tmp_path):
    """A fork's chain leaves the range scan; what a caller does to a value read is its own."""

    def add(state: Notes) -> dict:
        return {"notes": [{"i": len(state["notes"])}, f"s{len(state['notes'])}"]}

    builder = StateGraph(Notes)
    builder.add_node("add", add)
    builder.add_edge(START, "add")
    builder.add_conditional_edges("add", lambda s: "add" if len(s["notes"]) < 40 else END)
    path = tmp_path / "fork.sqlite"
    config = {"configurable": {"thread_id": "f"}, "recursion_limit": 100}
    with SqliteSaver.from_conn_string(str(path)) as saver:
        graph = builder.compile(checkpointer=saver)
        graph.invoke({"notes": []}, config)
        forked = graph.update_state(list(graph.get_state_history(config))[10].config,
                                    {"notes": ["forked"]})  # fmt: skip
        graph.invoke(None, {**forked, "recursion_limit": 100})
        expected = {s.config["configurable"]["checkpoint_id"]: copy.deepcopy(s.values)
                    for s in graph.get_state_history(config)}  # fmt: skip
        for _ in range(2):  # the second read is served from what the first decoded
            for snap in graph.get_state_history(config):
                assert snap.values == expected[snap.config["configurable"]["checkpoint_id"]]
                snap.values["notes"].append("mutated")
                for note in snap.values["notes"]:
                    if isinstance(note, dict):
                        note["i"] = "mutated"
        assert "forked" in graph.get_state(config).values["notes"]
    with SqliteSaver.from_conn_string(str(path)) as fresh:
        for snap in builder.compile(checkpointer=fresh).get_state_history(config):
            assert snap.values == expected[snap.config["configurable"]["checkpoint_id"]]
        values = [t.checkpoint["channel_values"].get("notes", []) for t in fresh.list(config)]
        assert len({id(n) for notes in values for n in notes if isinstance(n, dict)}) == sum(
            isinstance(n, dict) for notes in values for n in notes
        )  # no dict shared between two checkpoints


def test_thread_summaries_read_no_checkpoint(tmp_path):
    path = tmp_path / "threads.sqlite"
    with SqliteSaver.from_conn_string(str(path)) as saver:
        graph = build(saver, 3)
        graph.invoke({"items": [], "n": 0}, {"configurable": {"thread_id": "asking"}})
        done = {"configurable": {"thread_id": "done"}}
        graph.invoke({"items": [], "n": 0}, done)
        graph.invoke(Command(resume="ok"), done)

        def boom(state):
            raise RuntimeError("no")

        failing = StateGraph(Notes)
        failing.add_node("boom", boom)
        failing.add_edge(START, "boom")
        with pytest.raises(RuntimeError):
            failing.compile(checkpointer=saver).invoke(
                {"notes": []}, {"configurable": {"thread_id": "failed"}}
            )
    conn = sqlite3.connect(path)
    with conn:  # nothing stored is readable any more, but the index
        conn.execute("UPDATE checkpoints SET checkpoint = x'c1', metadata = '{'")
        conn.execute("UPDATE blobs SET value = x'c1'")
        conn.execute("UPDATE writes SET value = x'c1'")
    conn.close()
    with SqliteSaver.from_conn_string(str(path)) as saver:
        summaries = {s.thread_id: s for s in saver.thread_summaries()}
        assert saver.list_threads() == sorted(summaries) == ["asking", "done", "failed"]
    asking, done, failed = summaries["asking"], summaries["done"], summaries["failed"]
    assert (asking.checkpoints, asking.last_step, asking.status) == (5, 3, "interrupted")
    assert (done.checkpoints, done.last_step, done.status) == (6, 4, "idle")
    assert (failed.checkpoints, failed.last_step, failed.status) == (2, 0, "failed")


def test_summaries_of_an_old_file_and_after_delete(tmp_path):
    from tests.engine.checkpoint.test_old_database import V1

    path = tmp_path / "old.sqlite"
    path.write_bytes(V1.read_bytes())
    with SqliteSaver.from_conn_string(str(path)) as saver:
        summaries = {s.thread_id: s for s in saver.thread_summaries()}
        assert summaries["grow"].checkpoints == 42 and summaries["grow"].status == "interrupted"
        assert summaries["grow"].last_step == 40 and summaries["done"].status == "idle"
        latest = saver.get_tuple({"configurable": {"thread_id": "grow"}})
        assert latest.checkpoint["channel_values"]["items"] == [item(n) for n in range(40)]
        saver.delete_thread("grow")
        assert saver.list_threads() == ["done"]
        assert [s.thread_id for s in saver.thread_summaries()] == ["done"]


def test_reading_the_newest_again_sees_every_change(tmp_path):
    """get_tuple of a thread's newest checkpoint reuses the rows it read last while the file is
    unchanged; a change by this connection, another saver on it or another connection shows."""
    from tests.engine.checkpoint.test_saver_contract import cfg, save

    path = str(tmp_path / "newest.sqlite")
    conn = sqlite3.connect(path, check_same_thread=False, factory=CountingConnection)
    saver, other_conn = SqliteSaver(conn), sqlite3.connect(path, check_same_thread=False)
    other, beside = SqliteSaver(other_conn), SqliteSaver(conn)
    first = save(saver, {"v": 1}, note={"seen": [1]})
    assert saver.get_tuple(cfg()).checkpoint["channel_values"] == {"v": 1}
    reset()
    again = saver.get_tuple(cfg())
    assert again.config == first and CountingConnection.statements == 1  # the stamp alone
    again.checkpoint["channel_values"]["v"] = 99  # a caller's edits are its own
    again.checkpoint["channel_versions"].clear()
    again.metadata["step"] = 99
    again.metadata["note"]["seen"].append(2)
    third_read = saver.get_tuple(cfg())
    assert third_read.checkpoint == saver.get_tuple(cfg()).checkpoint
    assert third_read.checkpoint["channel_values"] == {"v": 1}
    assert third_read.metadata == {"source": "loop", "step": 0, "note": {"seen": [1]}}
    second = save(other, {"v": 2})  # another connection commits
    assert saver.get_tuple(cfg()).config == second
    other.put_writes(second, [("v", 3)], "task-1")
    assert saver.get_tuple(cfg()).pending_writes == [("task-1", "v", 3)]
    third = save(beside, {"v": 4})  # another saver on the same connection
    assert saver.get_tuple(cfg()).config == third
    saver.put_writes(third, [("v", 6)], "task-2")
    assert saver.get_tuple(cfg()).pending_writes == [("task-2", "v", 6)]
    conn.execute("DELETE FROM writes")  # and this connection's own statements
    conn.commit()
    assert saver.get_tuple(cfg()).pending_writes == []
    with saver.batch():  # inside a transaction: always the query
        fourth = save(saver, {"v": 5})
        assert saver.get_tuple(cfg()).config == fourth
    assert saver.get_tuple(cfg()).checkpoint["channel_values"] == {"v": 5}
    other_conn.close()
    conn.close()


def test_listed_checkpoints_carry_the_same_writes_as_each_read_alone(tmp_path):
    """list reads a batch's writes by a range of ids (one thread, no filter): every checkpoint
    of a long history, with `before` and `limit` too, carries exactly the writes get_tuple
    reads for it, and a write stored under an id no checkpoint has is nobody's."""
    path = tmp_path / "long.sqlite"
    grown(path, 150)
    with SqliteSaver.from_conn_string(str(path)) as saver:
        every = list(saver.list(THREAD))
        assert len(every) > 2 * 64  # several batches
        # a write under an id between two stored checkpoints' ids
        stray = every[41].config["configurable"]["checkpoint_id"] + "x"
        assert stray < every[40].config["configurable"]["checkpoint_id"]
        saver.put_writes({"configurable": {**THREAD["configurable"], "checkpoint_id": stray}},
                         [("items", "stray")], "stray-task")  # fmt: skip
        for listed in (
            list(saver.list(THREAD)),
            list(saver.list(THREAD, before=every[30].config, limit=70)),
            list(saver.list(THREAD, filter={"source": "loop"})),
        ):
            for found in listed:
                alone = saver.get_tuple(found.config)
                assert found.pending_writes == alone.pending_writes, found.config
                assert all(w[0] != "stray-task" for w in found.pending_writes)
        assert sum(bool(t.pending_writes) for t in every) > 100


def test_the_newest_read_again_is_copied_not_decoded(tmp_path, monkeypatch):
    """While the file is unchanged, get_tuple of the newest checkpoint hands out a copy of the
    tuple it made last (no metadata parsed, no value looked up), every dict and list its own."""
    from engine.checkpoint.sqlite.values import ValueCache
    from tests.engine.checkpoint.test_saver_contract import cfg, save

    with SqliteSaver.from_conn_string(str(tmp_path / "again.sqlite")) as saver:
        save(saver, {"v": 0})
        config = save(saver, {"v": [1, 2], "w": "x"}, note={"seen": [1]})
        saver.put_writes(config, [("v", {"a": [1]})], "task-1")
        first = saver.get_tuple(cfg())
        made = saver.get_tuple(cfg())  # the one the copies are made from
        assert made == first
        made.checkpoint["channel_values"]["v"].append("made")
        made.metadata["note"]["seen"].append("made")
        assert saver.get_tuple(cfg()) == first
        decoded = []
        for cls, name in ((CheckedBlobs, "metadata"), (ValueCache, "values")):
            original = getattr(cls, name)
            monkeypatch.setattr(cls, name, lambda *a, o=original: decoded.append(1) or o(*a))
        again = saver.get_tuple(cfg())
        assert again == first and decoded == []
        again.checkpoint["channel_values"]["v"].append(3)
        again.checkpoint["channel_versions"].clear()
        again.checkpoint["versions_seen"]["x"] = {}
        again.metadata["note"]["seen"].append(2)
        again.pending_writes[0][2]["a"].append(2)
        again.config["configurable"]["checkpoint_id"] = "changed"
        again.parent_config["configurable"]["checkpoint_id"] = "changed"
        assert saver.get_tuple(cfg()) == first and decoded == []
        # metadata msgpack cannot hold (a huge int) is copied all the same
        save(saver, {"v": 1}, config=cfg("big"), note={"n": [2**70, -0.0, None, True]})
        big = [saver.get_tuple(cfg("big")) for _ in range(3)]
        big[1].metadata["note"]["n"].append(1)
        assert big[0] == big[2] and big[2].metadata["note"] == {"n": [2**70, -0.0, None, True]}


def test_listed_writes_keep_task_path_order(tmp_path):
    """A checkpoint's writes come in task path, task id and index order, listed or read alone,
    whatever order their task ids sort in (a range of a listing's writes is read in key order
    and put in path order after)."""
    from tests.engine.checkpoint.test_saver_contract import cfg, save

    with SqliteSaver.from_conn_string(str(tmp_path / "paths.sqlite")) as saver:
        configs = [save(saver, {"v": n}, step=n) for n in range(4)]
        for config in configs[1:3]:  # task "a" on the later path, "c" and "b" on earlier ones
            saver.put_writes(config, [("v", 1), ("w", 2)], "a", task_path="~__pregel_pull, z")
            saver.put_writes(config, [("v", 3)], "c", task_path="~__pregel_pull, b")
            saver.put_writes(config, [("v", 4), ("w", 5)], "b", task_path="~__pregel_pull, b")
        saver.put_writes(configs[3], [("v", 6)], "d")
        expected = [("b", "v", 4), ("b", "w", 5), ("c", "v", 3), ("a", "v", 1), ("a", "w", 2)]
        listed = list(saver.list(cfg()))
        assert [t.pending_writes for t in listed] == [[("d", "v", 6)], expected, expected, []]
        for found in listed:
            assert saver.get_tuple(found.config).pending_writes == found.pending_writes


def test_a_history_read_again_checks_and_parses_no_row_again(tmp_path, monkeypatch):
    """Listing a thread again checks no checkpoint row's shape again, and from the third time
    parses no metadata (copies of what it read); a row changed since is read afresh, and a
    row tampered since is still the error it is."""
    from engine.checkpoint.sqlite import CheckpointDatabaseError, reads, rows

    path = tmp_path / "again.sqlite"
    grown(path, 30)
    checked, parsed = [], []
    monkeypatch.setattr(
        rows, "checkpoint_of", lambda b, o=rows.checkpoint_of: checked.append(1) or o(b)
    )
    for module in (rows, reads):  # (where each version of the reader calls it)
        if hasattr(module, "metadata_of"):
            monkeypatch.setattr(
                module, "metadata_of", lambda t, o=rows.metadata_of: parsed.append(1) or o(t)
            )
    with SqliteSaver.from_conn_string(str(path)) as saver:
        first = list(saver.list(THREAD))
        assert len(checked) == len(first) == 32
        assert list(saver.list(THREAD)) == first
        assert len(checked) == 32
        checked.clear(), parsed.clear()
        third = list(saver.list(THREAD, limit=10))
        assert third == first[:10] and checked == [] and parsed == []
        third[0].metadata["step"] = 99  # the copies handed out are the caller's
        third[0].checkpoint["versions_seen"].clear()
        assert list(saver.list(THREAD, limit=1)) == first[:1]
        newest = first[0].config["configurable"]["checkpoint_id"]
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE checkpoints SET metadata = ? WHERE checkpoint_id = ?",
                         ('{"source": "loop", "step": 77}', newest))  # fmt: skip
        assert next(saver.list(THREAD)).metadata == {"source": "loop", "step": 77}
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE checkpoints SET checkpoint = x'81a176c0' WHERE checkpoint_id = ?",
                         (newest,))  # fmt: skip
        with pytest.raises(CheckpointDatabaseError, match="cannot read the stored checkpoint"):
            list(saver.list(THREAD, limit=1))
