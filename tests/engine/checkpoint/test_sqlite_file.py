"""SqliteSaver on real files: reopening, bad databases, two processes, storage cost."""

from __future__ import annotations

import operator
import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
from typing import Annotated, TypedDict

import pytest

from engine.checkpoint.sqlite import SCHEMA_VERSION, CheckpointDatabaseError, SqliteSaver
from engine.graph import END, START, StateGraph

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class Log(TypedDict):
    items: Annotated[list, operator.add]
    n: int


def growing_graph(saver, steps: int, pad: int = 1000):
    def step(state: Log) -> dict:
        return {"items": [f"{state['n']}:" + "x" * pad], "n": state["n"] + 1}

    builder = StateGraph(Log)
    builder.add_node("step", step)
    builder.add_edge(START, "step")
    builder.add_conditional_edges("step", lambda s: "step" if s["n"] < steps else END)
    return builder.compile(checkpointer=saver)


def run(path, thread: str, steps: int):
    with SqliteSaver.from_conn_string(str(path)) as saver:
        graph = growing_graph(saver, steps)
        config = {"configurable": {"thread_id": thread}, "recursion_limit": steps + 10}
        return graph.invoke({"items": [], "n": 0}, config)


def test_second_graph_instance_reopens_the_thread(tmp_path):
    path = tmp_path / "reopen.sqlite"
    run(path, "t", 5)
    with SqliteSaver.from_conn_string(str(path)) as saver:
        graph = growing_graph(saver, 8)
        config = {"configurable": {"thread_id": "t"}}
        state = graph.get_state(config)
        assert state.values["n"] == 5 and len(state.values["items"]) == 5
        assert state.next == ()
        history = list(graph.get_state_history(config))
        assert [h.metadata["step"] for h in history] == [5, 4, 3, 2, 1, 0, -1]
        # continue the same thread from the new instance: the list keeps growing
        result = graph.invoke({"items": [], "n": 5}, config)
        assert result["n"] == 8
        assert [x.split(":")[0] for x in result["items"]] == [
            "0",
            "1",
            "2",
            "3",
            "4",
            "5",
            "6",
            "7",
        ]


def test_wal_mode_and_schema_version(tmp_path):
    path = tmp_path / "wal.sqlite"
    run(path, "t", 2)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_growing_list_costs_what_it_grows(tmp_path):
    """1 KiB more state per step: bytes per checkpoint stay flat, far below a full copy."""
    costs = {}
    for steps in (100, 400):
        path = tmp_path / f"grow{steps}.sqlite"
        run(path, "t", steps)
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (blob_bytes,) = conn.execute(
            "SELECT sum(length(value)) FROM blobs WHERE channel = 'items'"
        ).fetchone()
        (checkpoints,) = conn.execute("SELECT count(*) FROM checkpoints").fetchone()
        conn.close()
        costs[steps] = blob_bytes / checkpoints
    # a full copy each step would average ~steps/2 KiB per checkpoint (50 KiB, 200 KiB)
    assert costs[100] < 4096 and costs[400] < 4096, costs
    assert costs[400] < 1.6 * costs[100], costs


def test_corrupt_file_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_bytes(b"this is not a database, just text" * 200)
    before = path.read_bytes()
    with SqliteSaver.from_conn_string(str(path)) as saver:
        with pytest.raises(CheckpointDatabaseError, match="notes.sqlite.*not a usable SQLite"):
            saver.get_tuple({"configurable": {"thread_id": "t"}})
    assert path.read_bytes() == before


def test_newer_schema_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "future.sqlite"
    run(path, "t", 1)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with SqliteSaver.from_conn_string(str(path)) as saver:
        with pytest.raises(CheckpointDatabaseError, match=r"future\.sqlite.*newer version"):
            saver.setup()
    assert path.read_bytes() == before


def test_langgraph_database_is_refused_not_overwritten(tmp_path):
    from langgraph.checkpoint.sqlite import SqliteSaver as LangGraphSaver

    path = tmp_path / "theirs.sqlite"
    with LangGraphSaver.from_conn_string(str(path)) as theirs:
        theirs.setup()
    conn = sqlite3.connect(path)
    tables = conn.execute("SELECT name FROM sqlite_master ORDER BY name").fetchall()
    conn.close()
    with SqliteSaver.from_conn_string(str(path)) as saver:
        with pytest.raises(CheckpointDatabaseError, match=r"theirs\.sqlite.*not created by this"):
            saver.get_tuple({"configurable": {"thread_id": "t"}})
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT name FROM sqlite_master ORDER BY name").fetchall() == tables
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    conn.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_read_only_file_can_be_read_but_not_written(tmp_path):
    path = tmp_path / "ro.sqlite"
    run(path, "t", 2)
    os.chmod(path, stat.S_IRUSR)
    try:
        with SqliteSaver.from_conn_string(str(path)) as saver:
            with pytest.raises(CheckpointDatabaseError, match=r"ro\.sqlite.*read-only"):
                growing_graph(saver, 3).invoke(
                    {"items": [], "n": 0}, {"configurable": {"thread_id": "u"}}
                )
    finally:
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)


def test_read_only_connection_can_be_read_but_not_written(tmp_path):
    path = tmp_path / "ro_conn.sqlite"
    run(path, "t", 2)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    saver = SqliteSaver(conn)
    graph = growing_graph(saver, 3)
    assert graph.get_state({"configurable": {"thread_id": "t"}}).values["n"] == 2
    with pytest.raises(CheckpointDatabaseError, match=r"ro_conn\.sqlite.*read-only"):
        graph.invoke({"items": [], "n": 0}, {"configurable": {"thread_id": "u"}})
    conn.close()


def test_read_only_empty_database_is_not_created(tmp_path):
    path = tmp_path / "empty_ro.sqlite"
    sqlite3.connect(path).close()
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    with pytest.raises(CheckpointDatabaseError, match=r"empty_ro\.sqlite.*read-only"):
        SqliteSaver(conn).setup()
    conn.close()


def test_locked_database_waits_then_fails_clearly(tmp_path):
    path = tmp_path / "locked.sqlite"
    run(path, "t", 1)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # hold the write lock
    try:
        with SqliteSaver.from_conn_string(str(path), timeout=0.2) as saver:
            graph = growing_graph(saver, 2)
            # reading still works in WAL mode while another connection writes
            assert graph.get_state({"configurable": {"thread_id": "t"}}).values["n"] == 1
            with pytest.raises(CheckpointDatabaseError, match=r"locked\.sqlite.*locked.*0\.2s"):
                graph.invoke({"items": [], "n": 0}, {"configurable": {"thread_id": "u"}})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # once released, the same file works again
    assert run(path, "u", 2)["n"] == 2


def test_unopenable_path_names_the_file(tmp_path):
    missing = tmp_path / "no" / "such" / "dir" / "db.sqlite"
    with pytest.raises(CheckpointDatabaseError, match="db.sqlite"):
        with SqliteSaver.from_conn_string(str(missing)):
            pass


WORKER = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {root!r})
    from tests.engine.checkpoint.test_sqlite_file import run
    result = run(sys.argv[1], sys.argv[2], 40)
    assert result["n"] == 40, result["n"]
    print("done", sys.argv[2])
    """
)


def test_two_processes_write_different_threads_of_one_file(tmp_path):
    path = tmp_path / "shared.sqlite"
    script = WORKER.format(root=ROOT)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(path), thread],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for thread in ("proc-a", "proc-b")
    ]
    outputs = [p.communicate(timeout=120) for p in procs]
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
        assert out.startswith("done")
    with SqliteSaver.from_conn_string(str(path)) as saver:
        for thread in ("proc-a", "proc-b"):
            config = {"configurable": {"thread_id": thread}}
            graph = growing_graph(saver, 40)
            state = graph.get_state(config)
            assert state.values["n"] == 40 and len(state.values["items"]) == 40
            assert len(list(graph.get_state_history(config))) == 42
