"""Run one superstep's tasks: threads for sync nodes, asyncio for async; commit each result."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
from collections.abc import AsyncIterator, Iterator
from typing import Any

from engine.constants import ERROR, INTERRUPT, NO_WRITES, RESUME
from engine.errors import GraphInterrupt
from engine.pregel.retry import arun_with_retry, run_with_retry


class TaskRunner:
    """Executes tasks and reports each outcome to the loop as soon as it is known.

    `tick` yields after every finished task, so the caller can stream output between them;
    once all are done it raises the first error (in task order), else a GraphInterrupt
    carrying every interrupt raised in the step.
    """

    def __init__(self, loop: Any, max_concurrency: int | None = None) -> None:
        self.loop = loop
        self.max_concurrency = max_concurrency
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None

    # ------------------------------------------------------------------ sync
    def tick(self, tasks: list[Any]) -> Iterator[None]:
        outcomes: dict[str, BaseException | None] = {}
        if len(tasks) == 1:
            outcomes[tasks[0].id] = self._run_one(tasks[0])
            yield
        elif tasks:
            if self._pool is None:
                self._pool = concurrent.futures.ThreadPoolExecutor(
                    self.max_concurrency or min(32, len(tasks) + 4),
                    thread_name_prefix="superstep",
                )
            futures = {
                self._pool.submit(contextvars.copy_context().run, self._run_one, task): task
                for task in tasks
            }
            for future in concurrent.futures.as_completed(futures):
                outcomes[futures[future].id] = future.result()
                yield
        self._raise(tasks, outcomes)

    def _run_one(self, task: Any) -> BaseException | None:
        self.loop.task_started(task)
        try:
            run_with_retry(task)
            error = None
        except BaseException as exc:  # reported to the loop, raised after the step
            error = exc
        self.commit(task, error)
        return error

    # ------------------------------------------------------------------ async
    async def atick(self, tasks: list[Any]) -> AsyncIterator[None]:
        outcomes: dict[str, BaseException | None] = {}
        semaphore = asyncio.Semaphore(self.max_concurrency) if self.max_concurrency else None

        async def run(task: Any) -> None:
            if semaphore is None:
                outcomes[task.id] = await self._arun_one(task)
            else:
                async with semaphore:
                    outcomes[task.id] = await self._arun_one(task)

        pending = {asyncio.ensure_future(run(task)) for task in tasks}
        try:
            while pending:
                _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                yield
        finally:
            for future in pending:
                future.cancel()
        self._raise(tasks, outcomes)

    async def _arun_one(self, task: Any) -> BaseException | None:
        self.loop.task_started(task)
        try:
            await arun_with_retry(task)
            error = None
        except BaseException as exc:
            error = exc
        self.commit(task, error)
        return error

    # ------------------------------------------------------------------ outcomes
    def commit(self, task: Any, error: BaseException | None) -> None:
        if error is None:
            self.loop.put_writes(task, list(task.writes) or [(NO_WRITES, None)])
        elif isinstance(error, GraphInterrupt):
            writes = [(INTERRUPT, tuple(error.args[0]) if error.args else ())]
            writes.extend(w for w in task.writes if w[0] == RESUME)
            self.loop.put_writes(task, writes)
        else:
            self.loop.put_writes(task, [(ERROR, error)])

    @staticmethod
    def _raise(tasks: list[Any], outcomes: dict[str, BaseException | None]) -> None:
        interrupts: list[Any] = []
        for task in tasks:
            error = outcomes.get(task.id)
            if error is None:
                continue
            if isinstance(error, GraphInterrupt):
                interrupts.extend(error.args[0] if error.args else ())
            else:
                raise error
        if any(isinstance(outcomes.get(t.id), GraphInterrupt) for t in tasks):
            raise GraphInterrupt(tuple(interrupts))
