"""A save that fails under the async API (a state no disk saver can hold: langgraph's task
docstring example returns an un-awaited `asyncio.gather`) fails the run with the saver's error,
and leaves no future whose exception nobody read: nothing logs 'Future exception was never
retrieved' when the error is freed, however much later that is."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

import pytest

from engine.checkpoint.serde.jsonplus import SerializationError
from engine.checkpoint.sqlite import SqliteSaver
from engine.pregel.saves import background_saves
from graphspec.importer import load_module

PROGRAM = Path(__file__).resolve().parents[2] / "programs" / "lg_task_add_one_async.py"


def test_a_failed_save_fails_the_run_and_leaves_no_unread_future(tmp_path):
    add_one = load_module(str(PROGRAM), on_engine=True).add_one
    unread: list[dict] = []

    async def run(saver: SqliteSaver) -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: unread.append(context))
        graph = add_one.copy({"checkpointer": saver})
        with pytest.raises(SerializationError, match="_GatheringFuture"):
            await graph.ainvoke([1, 2, 3], {"configurable": {"thread_id": "t"}})

    with SqliteSaver.from_conn_string(str(tmp_path / "db.sqlite")) as saver:
        asyncio.run(run(saver))
        # another save on the save thread, as the next run makes: what it held of this run goes
        background_saves().submit(saver, lambda: None).result(timeout=10)
    gc.collect()  # the error, its traceback and every future it reaches are freed now
    assert [c["message"] for c in unread] == []
