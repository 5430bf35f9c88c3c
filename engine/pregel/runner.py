"""Run one superstep's tasks: threads for sync nodes, asyncio for async; commit each result."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import os
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

from engine._constants import (
    CONF,
    CONFIG_KEY_NODE_FINISHED,
    ERROR,
    ERROR_SOURCE_NODE,
    INTERRUPT,
    NO_WRITES,
    RESUME,
)
from engine.errors import GraphBubbleUp, GraphInterrupt, is_invalid_resume
from engine.pregel.call import CallFuture, SyncAsyncFuture
from engine.pregel.calls import call_result, is_call
from engine.pregel.error_handlers import handler_task, routes_to_handler
from engine.pregel.retry import arun_with_retry, run_with_retry

_CONTROL_WRITES = frozenset((ERROR, INTERRUPT, RESUME))


def _only_control(writes: list) -> bool:
    """No write but control ones (a loop, not all(<generator>): it runs for every task)."""
    for chan, _ in writes:
        if chan not in _CONTROL_WRITES:
            return False
    return True


class TaskRunner:
    """Executes tasks and reports each outcome to the loop as soon as it is known.

    `tick` yields after every finished task, so the caller can stream output between them;
    once all are done it raises the first error (in task order), else a GraphInterrupt
    carrying every interrupt raised in the step.
    """

    def __init__(
        self, loop: Any, max_concurrency: int | None = None, step_timeout: float | None = None
    ) -> None:
        self.loop = loop
        self.max_concurrency = max_concurrency
        self.step_timeout = step_timeout
        # told each finished task's node name (langgraph's CONFIG_KEY_NODE_FINISHED), if given
        self._node_finished = loop.config[CONF].get(CONFIG_KEY_NODE_FINISHED)
        self._workers: _Workers | None = None
        self._calls: list[tuple[Any, SyncAsyncFuture]] = []
        # what async callers on the loop were handed (see _call_on_loop)
        self._caller_futures: list[asyncio.Future] = []
        # set when the run stops mid-step (cancelled, or its consumer left): the tasks it
        # cancels record nothing, as langgraph's (their writes never reach the saver)
        self._abandoned = False
        loop.submit_call = self.submit_call

    # ------------------------------------------------------------------ calls
    def submit_call(self, task: Any, caller: Any) -> CallFuture:
        """Start a functional-API call beside its caller; the future resolves with its return.

        An async call from an async caller runs on the caller's event loop (the caller gets an
        asyncio future, as langgraph's); anything else runs on a thread of its own, so a caller
        blocking on `.result()` never starves it. The barrier waits for `future` either way.
        """
        future = SyncAsyncFuture()
        self._calls.append((task, future))

        def settle(error: BaseException | None) -> None:
            if future.cancelled():  # the caller gave up on it
                return
            if error is None:
                future.set_result(call_result(task.writes))
            else:
                future.set_exception(error)

        if task.proc.bound.is_async and getattr(caller.proc.bound, "is_async", False):
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is not None:
                return self._call_on_loop(running, task, future, settle)
        context = contextvars.copy_context()
        if task.proc.bound.is_async:

            def work() -> None:
                settle(context.run(asyncio.run, self._arun_one(task)))
        else:

            def work() -> None:
                settle(context.run(self._run_one, task))

        threading.Thread(target=work, name=f"superstep-call-{task.name}", daemon=True).start()
        return future

    def _call_on_loop(
        self,
        running: asyncio.AbstractEventLoop,
        task: Any,
        future: SyncAsyncFuture,
        settle: Callable[[BaseException | None], None],
    ) -> asyncio.Future:
        """An async call from an async caller, on the caller's loop, timed as langgraph's: the
        call starts on the next turn of the loop (what this turn emitted streams first), and
        the caller gets an asyncio future resolved in the turn the call commits, so it resumes
        one turn after its call's update was emitted (not after the stream's consumer)."""
        caller_future = running.create_future()

        async def run() -> None:
            error = await self._arun_one(task)
            if not caller_future.done():  # else the caller gave up on it
                if error is None:
                    caller_future.set_result(call_result(task.writes))
                else:
                    caller_future.set_exception(error)
            settle(error)

        jobs: list[asyncio.Task] = []

        def start() -> None:
            if caller_future.cancelled():
                return
            job = running.create_task(run())
            # cancelled before it ran (its loop shutting down): the barrier still hears of it
            job.add_done_callback(
                lambda done: done.cancelled() and settle(asyncio.CancelledError())
            )
            jobs.append(job)

        running.call_soon(start)

        def cancelled(done: asyncio.Future) -> None:
            # the caller cancelling its future cancels the call, as an asyncio task's
            if done.cancelled():
                future.cancel()
                for job in jobs:
                    job.cancel()

        caller_future.add_done_callback(cancelled)
        self._caller_futures.append(caller_future)
        return caller_future

    def _settle_calls(self) -> list[Any]:
        """Wait for this step's calls: the barrier needs their writes. Their errors went to
        their callers through the futures, who decide whether the step fails; their interrupts
        are the step's too (returned), as langgraph's runner gathers every future's."""
        interrupts: list[Any] = []
        while self._calls:  # a call may make calls of its own
            calls, self._calls = self._calls, []
            concurrent.futures.wait([future for _, future in calls])
            interrupts += _interrupts([future for _, future in calls])
        self._read_caller_errors()
        return interrupts

    async def _asettle_calls(self) -> list[Any]:
        interrupts: list[Any] = []
        while self._calls:
            calls, self._calls = self._calls, []
            waits = [asyncio.wrap_future(future) for _, future in calls]
            await asyncio.wait(waits)
            interrupts += _interrupts(waits)  # (their callers got the errors: read here too)
        self._read_caller_errors()
        return interrupts

    def _read_caller_errors(self) -> None:
        """Their callers got the errors: a caller that never awaited its call's future leaves
        no 'Future exception was never retrieved'."""
        futures, self._caller_futures = self._caller_futures, []
        for future in futures:
            if future.done() and not future.cancelled():
                future.exception()

    # ------------------------------------------------------------------ sync
    def tick(self, tasks: list[Any], wake: threading.Event | None = None) -> Iterator[None]:
        """`wake`: set when the run emits output; then tasks run on threads and the caller is
        given back control each time, so what a task streams reaches it while it runs. A timed
        step (step_timeout) runs on threads too, so waiting for it can stop."""
        if len(tasks) == 1 and wake is None and self.step_timeout is None:
            # one task run here (most steps): its outcome needs no dict to be found in. As in
            # langgraph, what it streamed reaches the caller after the barrier (a reader that
            # stops there finds the step saved), unless it failed or called tasks
            error = self._run_one(tasks[0])
            called = self._settle_calls() if self._calls else []
            if error is not None or called:
                yield
                self._raise(tasks, {tasks[0].id: error}, called)
            return
        outcomes: dict[str, BaseException | None] = {}
        if tasks and (wake is not None or self.step_timeout is not None):
            yield from self._tick_streaming(tasks, wake or threading.Event(), outcomes)
        elif tasks:
            if self._workers is None:
                # like langgraph's default executor: max_concurrency, else min(32, cpus + 4)
                size = self.max_concurrency or min(32, (os.cpu_count() or 1) + 4)
                self._workers = _Workers(size - 1)
            for task, error in self._workers.run(self._run_one, tasks):
                outcomes[task.id] = error
                yield
        self._raise(tasks, outcomes, self._settle_calls() if self._calls else [])

    def _tick_streaming(
        self, tasks: list[Any], wake: threading.Event, outcomes: dict[str, BaseException | None]
    ) -> Iterator[None]:
        """langgraph's concurrent streaming (messages and custom modes, subgraphs): each task on
        a thread of its own (at most max_concurrency at once), the caller waking on output and
        on each finished task."""
        finished: queue.SimpleQueue = queue.SimpleQueue()
        slots = threading.BoundedSemaphore(self.max_concurrency or len(tasks))

        def work(task: Any, context: contextvars.Context) -> None:
            with slots:
                error = context.run(self._run_one, task)
            finished.put((task, error))
            wake.set()

        for task in tasks:
            thread = threading.Thread(
                target=work,
                args=(task, contextvars.copy_context()),
                name=f"superstep-{task.name}",
                daemon=True,
            )
            thread.start()
        left = len(tasks)
        deadline = None if self.step_timeout is None else time.monotonic() + self.step_timeout
        while left:
            if not wake.wait(None if deadline is None else max(0, deadline - time.monotonic())):
                self._abandoned = True  # threads cannot be stopped: what they do is dropped
                raise TimeoutError("Timed out")
            wake.clear()  # what was emitted before is drained when this yields
            while (item := _take(finished)) is not None:
                outcomes[item[0].id] = item[1]
                left -= 1
            yield

    def _run_one(self, task: Any) -> BaseException | None:
        if self.loop.observer is not None:  # (only an observer hears of it: no call otherwise)
            self.loop.task_started(task)
        try:
            run_with_retry(task)
            error = None
        except BaseException as exc:  # reported to the loop, raised after the step
            error = exc
        if self._abandoned:  # its step timed out
            return error
        if error is not None and routes_to_handler(task, error):
            self.commit(task, error, routed=True)
            if (handler := handler_task(self.loop, task, error)) is not None:
                return self._run_one(handler)  # the step's outcome for this task
            return error
        self.commit(task, error)
        return error

    # ------------------------------------------------------------------ async
    async def atick(self, tasks: list[Any], wake: Any = None) -> AsyncIterator[None]:
        """`wake` (a LoopWake): set when the run emits output; the caller is then given back
        control while the tasks run, so what they stream reaches it at once."""
        if len(tasks) == 1 and wake is None and self.step_timeout is None:
            # as tick's: one task awaited here, what it streamed reaches the caller after the
            # barrier unless it failed or called tasks
            error = await self._arun_one(tasks[0])
            if isinstance(error, asyncio.CancelledError) and _being_cancelled():
                raise error  # the run is cancelled: the task recorded nothing
            called = await self._asettle_calls() if self._calls else []
            if error is not None or called:
                yield
                self._raise(tasks, {tasks[0].id: error}, called)
            return
        outcomes: dict[str, BaseException | None] = {}
        semaphore = asyncio.Semaphore(self.max_concurrency) if self.max_concurrency else None

        async def run(task: Any) -> None:
            if semaphore is None:
                outcomes[task.id] = await self._arun_one(task)
            else:
                async with semaphore:
                    outcomes[task.id] = await self._arun_one(task)

        futures = {asyncio.ensure_future(run(task)): task for task in tasks}
        pending = set(futures)
        woken: asyncio.Future | None = None
        failed: BaseException | None = None
        deadline = None if self.step_timeout is None else time.monotonic() + self.step_timeout
        try:
            while pending:
                if wake is not None and woken is None:
                    woken = asyncio.ensure_future(wake.wait())
                waits = pending if woken is None else {*pending, woken}
                left = None if deadline is None else max(0, deadline - time.monotonic())
                done, _ = await asyncio.wait(
                    waits, timeout=left, return_when=asyncio.FIRST_COMPLETED
                )
                if not done:  # the step's time is up: its running tasks are cancelled below
                    failed = TimeoutError()  # as langgraph's async runner: no message
                    break
                if woken in done:
                    done.discard(woken)
                    wake.clear()  # what was emitted before is drained when this yields
                    woken = None
                pending -= done
                for future in done:
                    future.result()  # a failure outside the task itself (e.g. saving) surfaces
                    if _stops_others(error := outcomes.get(futures[future].id)):
                        failed = failed or error
                if failed is not None:
                    break  # as langgraph: a failed task cancels the others (below)
                yield
        finally:
            if woken is not None:
                woken.cancel()
            if pending:
                self._abandoned = True
                for future in pending:
                    future.cancel()
                # they finish before the run's last saves are awaited and the caller goes on
                await asyncio.wait(pending)
        called = await self._asettle_calls() if self._calls else []
        if failed is not None:
            raise failed
        self._raise(tasks, outcomes, called)

    async def _arun_one(self, task: Any) -> BaseException | None:
        self.loop.task_started(task)
        try:
            await arun_with_retry(task)
            error = None
        except BaseException as exc:
            error = exc
            # a cancelled run's tasks, and a call its caller cancelled, record nothing
            if isinstance(exc, asyncio.CancelledError) and (
                self._abandoned or is_call(task) or _being_cancelled()
            ):
                return error
        if error is not None and routes_to_handler(task, error):
            self.commit(task, error, routed=True)
            if (handler := handler_task(self.loop, task, error)) is not None:
                return await self._arun_one(handler)
            return error
        self.commit(task, error)
        return error

    # ------------------------------------------------------------------ outcomes
    def commit(self, task: Any, error: BaseException | None, routed: bool = False) -> None:
        """Record a task's outcome as pending writes, as langgraph's runner does."""
        if error is None:
            if self._node_finished is not None and not task.hidden:
                self._node_finished(task.name)
            writes = list(task.writes)
            # (the first write answers for most tasks: a state update is no control write)
            if not writes or writes[0][0] in _CONTROL_WRITES and _only_control(writes):
                writes.append((NO_WRITES, None))  # finished, even without output
            self.loop.put_writes(task, writes)
        elif isinstance(error, GraphInterrupt):
            if error.args and error.args[0]:
                writes = [(INTERRUPT, tuple(error.args[0]))]
                writes.extend(w for w in task.writes if w[0] == RESUME)
                self.loop.put_writes(task, writes)
        elif not isinstance(error, GraphBubbleUp):
            # what the task wrote before failing is kept too: a resume value it consumed
            # stays with it, so the next attempt replays the same answer
            marker = [(ERROR_SOURCE_NODE, task.name)] if routed else []
            self.loop.put_writes(task, [(ERROR, error), *marker, *task.writes])

    @staticmethod
    def _raise(
        tasks: list[Any], outcomes: dict[str, BaseException | None], called: Sequence[Any] = ()
    ) -> None:
        """The step's first error, else a GraphInterrupt with every interrupt its tasks and
        their calls raised: a caller re-raising its call's interrupt counts it twice, as
        langgraph's (a subgraph's parent then sees both)."""
        for error in outcomes.values():
            if error is not None:
                break
        else:  # every task finished (the common case)
            if not called:
                return
        interrupts: list[Any] = []
        for task in tasks:
            error = outcomes.get(task.id)
            if error is None:
                continue
            if isinstance(error, GraphInterrupt):
                interrupts.extend(error.args[0] if error.args else ())
            else:
                raise error
        if called or any(isinstance(outcomes.get(t.id), GraphInterrupt) for t in tasks):
            raise GraphInterrupt((*interrupts, *called))


def _interrupts(futures: list[Any]) -> list[Any]:
    """The interrupts the settled `futures` (calls) raised, in their order."""
    found: list[Any] = []
    for future in futures:
        error = None if future.cancelled() else future.exception()
        if isinstance(error, GraphInterrupt) and error.args:
            found.extend(error.args[0])
    return found


def _stops_others(error: BaseException | None) -> bool:
    """A task failure that ends the step at once. Not an interrupt or another bubble-up, and
    not an invalid resume value: that is raised once the others finish, so a task answered in
    the same resume is not cut off after its side effects."""
    return (
        error is not None
        and not isinstance(error, (GraphBubbleUp, asyncio.CancelledError))
        and not is_invalid_resume(error)
    )


class _Step:
    """One superstep's shared work: the tasks not yet taken, the results, the caller's progress."""

    __slots__ = ("fn", "pending", "results", "started", "finished")

    def __init__(self, fn: Callable[[Any], Any], tasks: list[Any]) -> None:
        self.fn = fn
        self.pending: queue.SimpleQueue = queue.SimpleQueue()
        self.results: queue.SimpleQueue = queue.SimpleQueue()
        for task in tasks:
            self.pending.put((contextvars.copy_context(), task))
        self.started = 0  # tasks the calling thread has started
        self.finished = False

    def work(self) -> None:
        while (item := _take(self.pending)) is not None:
            context, task = item
            try:
                outcome = context.run(self.fn, task)
            except BaseException as exc:  # never leave the caller waiting for this result
                outcome = exc
            self.results.put((task, outcome))


class _Workers:
    """Runs a step's sync tasks; the calling thread runs them itself while that keeps moving.

    Under the GIL, extra threads only pay off when tasks block (I/O, model calls); for quick
    tasks they cost thread switches. So one helper watches the caller: when the caller has
    been inside the same task for WATCH_INTERVAL, it wakes more helpers and they all take the
    remaining tasks (up to as many threads as langgraph's executor would use). Each task runs
    in a copy of the caller's context, so config and callbacks follow it into any thread.
    Helper threads are shared by every run in the process and started once, on demand.
    """

    WATCH_INTERVAL = 0.001
    _jobs: queue.SimpleQueue = queue.SimpleQueue()
    _threads: list[threading.Thread] = []
    _lock = threading.Lock()

    def __init__(self, helpers: int) -> None:
        self.helpers = max(helpers, 0)
        with self._lock:
            while len(self._threads) < self.helpers:
                thread = threading.Thread(
                    target=self._help, name=f"superstep-{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                thread.start()

    @classmethod
    def _help(cls) -> None:
        while True:
            watch, step, helpers = cls._jobs.get()
            if watch and not cls._caller_stuck(step, helpers):
                continue
            step.work()

    @classmethod
    def _caller_stuck(cls, step: _Step, helpers: int) -> bool:
        """Wait until the step ends (False) or the caller stalls with tasks left (True)."""
        seen = -1
        while not step.finished:
            time.sleep(cls.WATCH_INTERVAL)
            if step.started == seen and not step.pending.empty():
                for _ in range(helpers - 1):
                    cls._jobs.put((False, step, 0))
                return True
            seen = step.started
        return False

    def run(self, fn: Callable[[Any], Any], tasks: list[Any]) -> Iterator[tuple[Any, Any]]:
        """Yield (task, fn(task)) as each task finishes, in completion order."""
        step = _Step(fn, tasks)
        if self.helpers:
            self._jobs.put((True, step, min(self.helpers, len(tasks) - 1)))
        done = 0
        try:
            while (item := _take(step.pending)) is not None:
                context, task = item
                step.started += 1
                yield task, context.run(fn, task)
                done += 1
                while (result := _take(step.results)) is not None:
                    yield result
                    done += 1
            while done < len(tasks):
                yield step.results.get()
                done += 1
        finally:
            step.finished = True


def _take(q: queue.SimpleQueue) -> Any:
    if q.empty():  # the common miss, without an exception raised and caught
        return None
    try:
        return q.get_nowait()
    except queue.Empty:  # another thread took it first
        return None


def _being_cancelled() -> bool:
    """Whether the running asyncio task is being cancelled (its caller cancelled the run), as
    opposed to a task's code raising CancelledError of its own."""
    current = asyncio.current_task()
    return current is not None and current.cancelling() > 0
