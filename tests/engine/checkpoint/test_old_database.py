"""A database file written by an earlier schema opens, reads back and continues its threads."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from engine.checkpoint.sqlite import SCHEMA_VERSION, SqliteSaver
from engine.types import Command
from tests.engine.checkpoint.old_db_graph import build, item

V1 = Path(__file__).parent / "data" / "schema_v1.sqlite"


@pytest.fixture
def old_db(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copyfile(V1, path)  # opening may migrate the file in place: never the fixture
    return path


def test_threads_state_and_history_read_back(old_db):
    with SqliteSaver.from_conn_string(str(old_db)) as saver:
        assert saver.list_threads() == ["done", "grow"]
        graph = build(saver, 40)
        config = {"configurable": {"thread_id": "grow"}}
        state = graph.get_state(config)
        assert state.values == {"items": [item(n) for n in range(40)], "n": 40}
        assert state.next == ("ask",)
        assert [i.value for t in state.tasks for i in t.interrupts] == ["more?"]
        history = list(graph.get_state_history(config))
        assert [h.metadata["step"] for h in history] == list(range(40, -2, -1))
        for snap in history[:-1]:  # step n: n items (step -1 is the input, nothing applied)
            n = snap.metadata["step"]
            assert snap.values == {"items": [item(k) for k in range(n)], "n": n}
        done = graph.get_state({"configurable": {"thread_id": "done"}})
        assert done.next == () and done.values["items"][-1] == "answer:yes"


def test_a_thread_continues_and_the_file_reopens(old_db):
    with SqliteSaver.from_conn_string(str(old_db)) as saver:
        graph = build(saver, 40)
        config = {"configurable": {"thread_id": "grow"}}
        result = graph.invoke(Command(resume="ok"), config)
        assert result["items"] == [item(n) for n in range(40)] + ["answer:ok"]
        # a new run on the same thread keeps growing the stored list, up to the interrupt
        result = graph.invoke({"items": [], "n": 39}, config)
        assert result["items"] == [item(n) for n in range(40)] + ["answer:ok", item(39)]
    with sqlite3.connect(old_db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    with SqliteSaver.from_conn_string(str(old_db)) as saver:
        graph = build(saver, 40)
        state = graph.get_state({"configurable": {"thread_id": "grow"}})
        assert len(state.values["items"]) == len(result["items"])
        assert len(list(graph.get_state_history({"configurable": {"thread_id": "grow"}}))) > 42
