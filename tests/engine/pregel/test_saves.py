"""Background saves (durability="async"): in order, and queued saves to one saver commit together."""

import threading
from contextlib import contextmanager

import pytest

from engine.pregel.saves import BackgroundSaves


class RecordingSaver:
    def __init__(self, fail_on=None):
        self.batches: list[list[str]] = []
        self.fail_on = fail_on
        self.gate = threading.Event()
        self.entered = threading.Event()

    @contextmanager
    def batch(self):
        self.batches.append([])
        yield

    def save(self, name):
        self.entered.set()
        self.gate.wait(5)
        if name == self.fail_on:
            raise OSError(f"disk full while saving {name}")
        self.batches[-1].append(name)


def test_queued_saves_run_in_order_and_share_a_batch():
    saves, saver = BackgroundSaves(), RecordingSaver()
    futures = [saves.submit(saver, saver.save, f"s{i}") for i in range(5)]
    saver.gate.set()
    for future in futures:
        future.result(timeout=5)
    assert [name for batch in saver.batches for name in batch] == ["s0", "s1", "s2", "s3", "s4"]
    # the first save may run alone; the rest were queued meanwhile and commit together
    assert len(saver.batches) <= 2


def test_a_failed_batch_fails_every_save_in_it():
    saves, saver = BackgroundSaves(), RecordingSaver(fail_on="s2")
    first = saves.submit(saver, saver.save, "s0")
    assert saver.entered.wait(5)  # s0 runs alone; the next three are queued behind it
    futures = [saves.submit(saver, saver.save, f"s{i}") for i in (1, 2, 3)]
    saver.gate.set()
    first.result(timeout=5)
    for future in futures:
        with pytest.raises(OSError, match="disk full while saving s2"):
            future.result(timeout=5)


def test_sqlite_history_is_complete_after_an_async_run(tmp_path):
    import sqlite3
    from typing import TypedDict

    from engine.checkpoint.sqlite import SqliteSaver
    from engine.graph import END, START, StateGraph

    class S(TypedDict):
        n: int

    g = StateGraph(S)
    g.add_node("step", lambda s: {"n": s["n"] + 1})
    g.add_edge(START, "step")
    g.add_conditional_edges("step", lambda s: "step" if s["n"] < 50 else END, ["step", END])
    conn = sqlite3.connect(tmp_path / "c.sqlite", check_same_thread=False)
    app = g.compile(checkpointer=SqliteSaver(conn))
    cfg = {"configurable": {"thread_id": "t"}}
    assert app.invoke({"n": 0}, cfg, durability="async") == {"n": 50}
    # invoke returns only after every background save landed
    steps = [s.metadata["step"] for s in app.get_state_history(cfg)]
    assert steps == list(range(50, -2, -1))
    conn.close()


def test_a_failed_save_surfaces_only_once_no_other_save_of_the_run_is_running():
    """The run's caller may close the saver's connection as soon as invoke raises."""
    import time
    from typing import TypedDict

    from engine.checkpoint.memory import InMemorySaver
    from engine.graph import START, StateGraph

    class State(TypedDict):
        n: int

    class FailingFirstPut(InMemorySaver):
        blocks_on_io = True  # saves go to the background thread

        def __init__(self):
            super().__init__()
            self.calls = 0
            self.running = 0

        def _slowly(self, method, *args):
            self.calls += 1
            self.running += 1
            try:
                if self.calls == 1:  # alone in its batch; fails once the run queued the rest
                    time.sleep(0.15)
                    raise OSError("the disk is full")
                time.sleep(0.02)
                return method(*args)
            finally:
                self.running -= 1

        def put(self, *args):
            return self._slowly(super().put, *args)

        def put_writes(self, *args):
            return self._slowly(super().put_writes, *args)

    builder = StateGraph(State)

    def inc(state: State) -> dict:
        if state["n"] == 0:
            time.sleep(0.05)  # the background thread takes the input checkpoint's save alone
        return {"n": state["n"] + 1}

    builder.add_node("inc", inc)
    builder.add_conditional_edges(
        "inc", lambda s: "inc" if s["n"] < 5 else "__end__", ["inc", "__end__"]
    )
    builder.add_edge(START, "inc")
    saver = FailingFirstPut()
    with pytest.raises(OSError, match="the disk is full"):
        builder.compile(checkpointer=saver).invoke({"n": 0}, {"configurable": {"thread_id": "t"}})
    assert saver.running == 0 and saver.calls > 1
