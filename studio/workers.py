"""Run slow work (validation, layout of big graphs) on a worker thread and get the result back
on the GUI thread, with or without a running qasync loop."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Signal

_EXECUTOR = ThreadPoolExecutor(max_workers=2, thread_name_prefix="studio-worker")


class _Relay(QObject):
    """Lives on the GUI thread; a signal emitted from a worker is queued to it."""

    finished = Signal(object, object, object)  # callback, result, error


_relay: _Relay | None = None


def _deliver(
    callback: Callable[[Any, BaseException | None], None], result: Any, error: Any
) -> None:
    callback(result, error)


def _relay_to(done: Callable[[Any, BaseException | None], None]) -> Callable[[Future], None]:
    """A future's done-callback handing its outcome to `done` on the GUI thread (the first call,
    from the GUI thread, creates the relay there)."""
    global _relay
    if _relay is None:
        _relay = _Relay()
        _relay.finished.connect(_deliver)
    relay = _relay

    def finish(future: Future) -> None:
        error = future.exception()
        relay.finished.emit(done, None if error else future.result(), error)

    return finish


def run_in_thread(
    work: Callable[[], Any], done: Callable[[Any, BaseException | None], None]
) -> Future:
    """Call `work()` on a worker thread, then `done(result, error)` on the GUI thread.

    Must be called from the GUI thread (the first call creates the relay there).
    """
    finish = _relay_to(done)
    future = _EXECUTOR.submit(work)
    future.add_done_callback(finish)
    return future


def run_on_daemon(
    work: Callable[[], Any], done: Callable[[Any, BaseException | None], None], name: str
) -> Future:
    """As `run_in_thread`, on a daemon thread of its own: for work that waits on others (a
    server's reply), which must neither hold the shared workers nor keep the process alive
    after the window closes. Must be called from the GUI thread."""
    future: Future = Future()
    future.add_done_callback(_relay_to(done))

    threading.Thread(target=_run_into, args=(future, work, ()), name=name, daemon=True).start()
    return future


class DaemonExecutor:
    """Runs jobs in order on one daemon thread. ThreadPoolExecutor joins its threads when the
    interpreter exits, so a job stuck in a node would keep the process alive after the window
    closes; a daemon thread does not."""

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._open = threading.Event()
        self._open.set()
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    def hold(self) -> Callable[[], None]:
        """Jobs wait, in order, until the returned function is called."""
        self._open.clear()
        return self._open.set

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future:
        future: Future = Future()
        self._jobs.put((future, fn, args))
        return future

    def shutdown(self, wait: bool = True) -> None:
        """No more jobs after those queued; `wait` joins the thread once they are done."""
        self._jobs.put(None)
        if wait:
            self._thread.join()

    def _work(self) -> None:
        while (item := self._jobs.get()) is not None:
            self._open.wait()
            _run_into(*item)


def _run_into(future: Future, fn: Callable[..., Any], args: tuple) -> None:
    if not future.set_running_or_notify_cancel():
        return
    try:
        future.set_result(fn(*args))
    except BaseException as exc:  # the job's own error, kept on its future
        future.set_exception(exc)
