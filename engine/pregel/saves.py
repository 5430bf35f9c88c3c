"""Background checkpoint saves for durability="async": in order, batched per saver.

One daemon thread serves every run in the process. It takes whatever saves are queued and runs
consecutive ones for the same saver inside `saver.batch()`, so a graph that steps faster than
its storage commits pays one commit for several supersteps instead of one per save. Each save
still gets its own future; a failed batch fails every save in it (none of them was stored).
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

_Job = tuple[Any, Callable[..., Any], tuple, Future]


class BackgroundSaves:
    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        threading.Thread(target=self._work, name="superstep-saves", daemon=True).start()

    def submit(self, saver: Any, method: Callable[..., Any], *args: Any) -> Future:
        future: Future = Future()
        self._jobs.put((saver, method, args, future))
        return future

    def _work(self) -> None:
        while True:  # the batch is let go once run: waiting for the next, the thread holds no
            _run_all(self._take())  # saver, values or error of a run that is over

    def _take(self) -> list[_Job]:
        """The next save, and every save queued behind it."""
        jobs = [self._jobs.get()]
        while True:
            try:
                jobs.append(self._jobs.get_nowait())
            except queue.Empty:
                return jobs


def _run_all(jobs: list[_Job]) -> None:
    for _, group in itertools.groupby(jobs, key=lambda job: id(job[0])):
        _run_batch(list(group))


def _run_batch(jobs: list[_Job]) -> None:
    saver = jobs[0][0]
    try:
        with saver.batch():
            for _, method, args, _future in jobs:
                method(*args)
    except BaseException as exc:  # every save of the batch was rolled back
        for *_, future in jobs:
            future.set_exception(exc)
    else:
        for *_, future in jobs:
            future.set_result(None)


_saves: BackgroundSaves | None = None
_lock = threading.Lock()


def background_saves() -> BackgroundSaves:
    global _saves
    with _lock:
        if _saves is None:
            _saves = BackgroundSaves()
    return _saves
