"""A metadata filter on `step` (issue 32.3): answered from the indexed `checkpoints.step`
column, at a cost that does not grow with the thread; the same checkpoints as Python's `==` on
the metadata (bools, floats, text, null, missing, huge ints) and as langgraph's history; a file
of schema 2 migrates (or, read-only, is read as it is) and filters the same."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

from engine.checkpoint.base import empty_checkpoint
from engine.checkpoint.sqlite import SCHEMA_VERSION, SqliteSaver
from tests.engine.checkpoint.old_db_graph import build, item
from tests.engine.checkpoint.test_diff_sqlite import chain_graph, saver_for, summary

V2 = Path(__file__).parent / "data" / "schema_v2.sqlite"
ODD = {"configurable": {"thread_id": "odd", "checkpoint_ns": ""}}
GROW = {"configurable": {"thread_id": "grow", "checkpoint_ns": ""}}
STEP_FILTERS = [
    {"step": s} for s in (None, True, False, 1, 1.0, 2, 2.0, "3", 4, -1, 0, 7, 2**70, 2.5, [1])
] + [{"step": 5, "source": "loop"}, {"step": 5, "source": "input"}, {"step": -1, "parents": {}}]


@pytest.fixture
def old_db(tmp_path):
    path = tmp_path / "v2.sqlite"
    shutil.copyfile(V2, path)  # opening migrates the file in place: never the fixture
    return path


def assert_filters_match_python(saver, configs=(ODD, GROW)):
    for config in configs:
        everything = list(saver.list(config))
        for f in STEP_FILTERS:
            expected = [
                t.config for t in everything if all(t.metadata.get(k) == v for k, v in f.items())
            ]
            assert [t.config for t in saver.list(config, filter=f)] == expected, (config, f)
            assert [t.config for t in saver.list(config, filter=f, limit=1)] == expected[:1]
    # no thread: every thread's checkpoints, the filter applied to each
    everything = list(saver.list(None))
    for f in STEP_FILTERS:
        expected = [
            t.config for t in everything if all(t.metadata.get(k) == v for k, v in f.items())
        ]
        assert [t.config for t in saver.list(None, filter=f)] == expected, f


def test_schema_2_file_migrates_and_filters_as_python_compares(old_db):
    with SqliteSaver.from_conn_string(str(old_db)) as saver:
        assert saver.list_threads() == ["grow", "odd"]
        assert_filters_match_python(saver)
        graph = build(saver, 30)
        (seven,) = graph.get_state_history(GROW, filter={"step": 7})
        assert seven.values == {"items": [item(n) for n in range(7)], "n": 7}
        # the thread goes on: its new checkpoints are found by step too
        graph.invoke({"items": [], "n": 29}, GROW)
        assert [s.metadata["source"] for s in graph.get_state_history(GROW, filter={"step": 33})]
        assert_filters_match_python(saver)
    with sqlite3.connect(old_db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        steps = dict(conn.execute("SELECT metadata, step FROM checkpoints WHERE thread_id = 'odd'"))
    assert steps['{"source": "loop", "step": 4}'] == 4
    assert steps['{"source": "loop", "step": true}'] == ""  # a bool is read from the metadata
    assert steps['{"source": "loop", "step": 2.0}'] == ""


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_read_only_schema_2_file_filters_without_migrating(old_db):
    os.chmod(old_db, stat.S_IRUSR)
    try:
        with SqliteSaver.from_conn_string(str(old_db)) as saver:
            assert_filters_match_python(saver)
    finally:
        os.chmod(old_db, stat.S_IRUSR | stat.S_IWUSR)
    with sqlite3.connect(old_db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 2


def test_read_only_connection_to_schema_2_file_filters(old_db):
    conn = sqlite3.connect(f"file:{old_db}?mode=ro", uri=True, check_same_thread=False)
    try:
        assert_filters_match_python(SqliteSaver(conn))
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    finally:
        conn.close()


def put_steps(saver, steps, thread="t"):
    config = {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}
    for n, step in enumerate(steps):
        checkpoint = empty_checkpoint()
        checkpoint["channel_versions"] = {"v": saver.get_next_version(None)}
        checkpoint["channel_values"] = {"v": n}
        config = saver.put(config, checkpoint, {"source": "loop", "step": step}, {"v": "1"})
    return config


def test_huge_and_odd_steps_are_stored_and_filtered(tmp_path):
    with SqliteSaver.from_conn_string(str(tmp_path / "odd.sqlite")) as saver:
        put_steps(saver, [2**70, 2**63, -(2**63), 1, True, 1.0, "1", None, 2**70 + 1])
        assert [s.last_step for s in saver.thread_summaries()] == [None]  # not an int it keeps
        everything = list(saver.list(None))
        for value in (2**70, float(2**70), 2**63, -(2**63), 1, True, 1.0, "1", None, 2**70 + 1):
            expected = [t.config for t in everything if t.metadata.get("step") == value]
            found = [t.config for t in saver.list({"configurable": {"thread_id": "t"}},
                                                  filter={"step": value})]  # fmt: skip
            assert found and found == expected, value


def vm_steps(path, filter) -> int:
    """SQLite virtual machine instructions run by one filtered list (a progress counter)."""
    conn = sqlite3.connect(path, check_same_thread=False)
    saver = SqliteSaver(conn)
    saver.setup()
    count = [0]
    conn.set_progress_handler(lambda: count.__setitem__(0, count[0] + 1) or 0, 100)
    found = list(saver.list(GROW, filter=filter))
    conn.close()
    assert len(found) == 1
    return count[0]


def test_a_step_filter_costs_the_same_on_a_short_and_a_long_thread(tmp_path):
    costs = []
    for steps in (20, 400):
        path = tmp_path / f"t{steps}.sqlite"
        with SqliteSaver.from_conn_string(str(path)) as saver:
            put_steps(saver, range(steps), thread="grow")
        costs.append(vm_steps(path, {"step": 7}))
        costs.append(vm_steps(path, {"step": 7, "source": "loop"}))
    short, short_both, long, long_both = costs
    assert long <= short * 1.5 + 20 and long_both <= short_both * 1.5 + 20, costs


def test_history_filters_match_langgraph(backend, tmp_path):
    saver, conn = saver_for(backend, tmp_path)
    graph = chain_graph(backend, saver)
    config = {"configurable": {"thread_id": "1"}}
    for start in (1, 5, 7):
        graph.invoke({"count": start, "log": []}, config)
    for f in ({"step": 1}, {"step": -1}, {"step": 1.0}, {"step": True}, {"step": 2, "source": "loop"},
              {"step": 9}, {"source": "input"}, {"step": "1"}, {"step": None}):  # fmt: skip
        found = [summary(s) for s in graph.get_state_history(config, filter=f)]
        expected = [
            summary(s)
            for s in graph.get_state_history(config)
            if all(s.metadata.get(k) == v for k, v in f.items())
        ]
        assert found == expected, f
        limited = [summary(s) for s in graph.get_state_history(config, filter=f, limit=2)]
        assert limited == expected[:2], f
    conn.close()
