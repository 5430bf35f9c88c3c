"""A run killed (SIGKILL) in the middle of a superstep resumes from its last checkpoint and
re-runs only the tasks that had not finished (issue 3, "Faults").

A child process runs a graph on a SQLite file with durability="sync": superstep 0 runs `a`, `b`
and `c` in parallel; `a` and `b` finish (their writes are saved per task), `c` blocks while a
`block` file exists. Once the file holds the writes of `a` and `b` and `c` has started, the test
kills the child, reopens the file in this process and resumes with `invoke(None, config)`.
Every node call is appended to a calls file (name and pid), so the test sees who ran where.
Runs on langgraph (the oracle) and on engine.
"""

from __future__ import annotations

import operator
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from typing import Annotated, TypedDict

import pytest

from tests.oracle import Backend

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TIMEOUT = 60.0  # seconds to wait for any one condition; the test never sleeps a fixed time


class State(TypedDict):
    log: Annotated[list, operator.add]
    joined: int


def _record(workdir: str, name: str) -> None:
    fd = os.open(os.path.join(workdir, "calls"), os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(fd, f"{name} {os.getpid()}\n".encode())
    finally:
        os.close(fd)


def build(prefix: str, saver, workdir: str):
    """START -> a, b, c (parallel) -> join -> END; `c` blocks while `workdir/block` exists."""
    graph_mod = Backend(prefix).graph

    def worker(name: str):
        def node(state: State) -> dict:
            _record(workdir, name)
            if name == "c":
                deadline = time.monotonic() + TIMEOUT
                while os.path.exists(os.path.join(workdir, "block")):
                    if time.monotonic() > deadline:
                        raise TimeoutError("c was never released")
                    time.sleep(0.005)  # waiting to be killed, not synchronising
            return {"log": [f"{name} done"]}

        return node

    def join(state: State) -> dict:
        _record(workdir, "join")
        return {"joined": len(state["log"]), "log": ["joined"]}

    builder = graph_mod.StateGraph(State)
    for name in "abc":
        builder.add_node(name, worker(name))
        builder.add_edge(graph_mod.START, name)
    builder.add_node("join", join)
    builder.add_edge(["a", "b", "c"], "join")
    builder.add_edge("join", graph_mod.END)
    return builder.compile(checkpointer=saver)


def child_main(prefix: str, db: str, workdir: str) -> None:
    saver_mod = Backend(prefix).mod("checkpoint.sqlite")
    with saver_mod.SqliteSaver.from_conn_string(db) as saver:
        graph = build(prefix, saver, workdir)
        graph.invoke({"log": ["start"], "joined": 0}, CONFIG, durability="sync")


CONFIG = {"configurable": {"thread_id": "crash"}}

CHILD = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {root!r})
    from tests.engine.checkpoint.test_crash import child_main
    child_main(*sys.argv[1:4])
    """
)


def _calls(workdir) -> list[tuple[str, int]]:
    path = workdir / "calls"
    if not path.exists():
        return []
    return [(n, int(pid)) for n, pid in (line.split() for line in path.read_text().splitlines())]


def _finished_tasks(db) -> int:
    """How many tasks of the newest checkpoint have their writes to `log` saved (read-only)."""
    if not db.exists():
        return 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            row = conn.execute(
                "SELECT COUNT(DISTINCT task_id) FROM writes WHERE channel = 'log' AND "
                "checkpoint_id = (SELECT MAX(checkpoint_id) FROM checkpoints)"
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.OperationalError:  # not created yet, or busy
        return 0
    return row[0]


def _wait_for(condition, proc, what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the child exited ({proc.returncode}) before {what}:\n{out}\n{err}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.01)


def _history(graph, config) -> list[tuple]:
    return [
        (
            s.metadata["step"],
            s.metadata["source"],
            tuple(s.next),
            tuple(sorted(s.values.get("log", []))),
        )
        for s in graph.get_state_history(config)
    ]


@pytest.mark.parametrize("prefix", ["langgraph", "engine"])
def test_killed_mid_superstep_resumes_running_only_unfinished_tasks(prefix, tmp_path):
    db, workdir = tmp_path / "crash.sqlite", tmp_path / "work"
    workdir.mkdir()
    (workdir / "block").touch()
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(root=ROOT), prefix, str(db), str(workdir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for(lambda: _finished_tasks(db) >= 2, proc, "a and b saved their writes")
        _wait_for(lambda: ("c", proc.pid) in _calls(workdir), proc, "c started")
        assert _finished_tasks(db) == 2  # c is still running: its writes are not there
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == -signal.SIGKILL
    child_calls = _calls(workdir)
    assert sorted(name for name, _ in child_calls) == ["a", "b", "c"]
    (workdir / "block").unlink()

    saver_mod = Backend(prefix).mod("checkpoint.sqlite")
    with saver_mod.SqliteSaver.from_conn_string(str(db)) as saver:
        graph = build(prefix, saver, str(workdir))
        interrupted = graph.get_state(CONFIG)
        assert interrupted.next == ("c",)  # a and b finished: their writes are applied
        assert sorted(interrupted.values["log"]) == ["a done", "b done", "start"]
        result = graph.invoke(None, CONFIG, durability="sync")
        resumed_history = _history(graph, CONFIG)

    resumed_calls = [name for name, pid in _calls(workdir)[len(child_calls) :]]
    assert all(pid != proc.pid for _, pid in _calls(workdir)[len(child_calls) :])
    assert resumed_calls == ["c", "join"]  # a and b are not run again

    # an uninterrupted run of the same graph gives the same state and history
    clean_dir = tmp_path / "clean"
    clean_dir.mkdir()
    with saver_mod.SqliteSaver.from_conn_string(str(tmp_path / "clean.sqlite")) as saver:
        graph = build(prefix, saver, str(clean_dir))
        expected = graph.invoke({"log": ["start"], "joined": 0}, CONFIG, durability="sync")
        clean_history = _history(graph, CONFIG)
    assert result == expected
    assert sorted(result["log"]) == sorted(["start", "a done", "b done", "c done", "joined"])
    assert result["joined"] == 4
    assert resumed_history == clean_history
