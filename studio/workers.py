"""Run slow work (validation, layout of big graphs) on a worker thread and get the result back
on the GUI thread, with or without a running qasync loop."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Signal

_EXECUTOR = ThreadPoolExecutor(max_workers=2, thread_name_prefix="studio-worker")


class _Relay(QObject):
    """Lives on the GUI thread; a signal emitted from a worker is queued to it."""

    finished = Signal(object, object, object)  # callback, result, error


_relay: _Relay | None = None


def _deliver(callback: Callable[[Any, BaseException | None], None], result: Any, error: Any) -> None:
    callback(result, error)


def run_in_thread(work: Callable[[], Any], done: Callable[[Any, BaseException | None], None]) -> Future:
    """Call `work()` on a worker thread, then `done(result, error)` on the GUI thread.

    Must be called from the GUI thread (the first call creates the relay there).
    """
    global _relay
    if _relay is None:
        _relay = _Relay()
        _relay.finished.connect(_deliver)
    relay = _relay

    def finish(future: Future) -> None:
        error = future.exception()
        relay.finished.emit(done, None if error else future.result(), error)

    future = _EXECUTOR.submit(work)
    future.add_done_callback(finish)
    return future
