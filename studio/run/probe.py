"""Drive the studio's real run path from a script and time it (bench/studio.py, its smoke
test): a QTimer probe of the event loop's longest stall, waiting on the event loop, a main
window, the Run button and a click on a thread, as a user would."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

PROBE_MS = 5


class StallProbe:
    """A fast QTimer; the longest gap between two ticks is the longest the GUI could not react."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setInterval(PROBE_MS)
        self.timer.timeout.connect(self._tick)
        self.last = 0.0
        self.worst = 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        if self.last:
            self.worst = max(self.worst, now - self.last)
        self.last = now

    def start(self) -> None:
        self.last, self.worst = 0.0, 0.0
        self.timer.start()

    def stop(self) -> float:
        """The worst stall in ms (the gap beyond the probe's own interval)."""
        self.timer.stop()
        return max(0.0, self.worst * 1000 - PROBE_MS)


def wait_until(app, done, timeout: float) -> None:
    end = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() > end:
            raise TimeoutError("the studio did not finish in time")
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)


def new_window(app):
    from studio.main_window import MainWindow

    win = MainWindow()
    win.resize(1280, 720)
    win.show()
    app.processEvents()
    return win


def open_spec(app, win, path: Path) -> None:
    assert win.open_path(path)
    wait_until(app, lambda: not win.runner.session.busy, 30)


def studio_run(app, path: Path, steps: int) -> tuple[float, float]:
    """(seconds from the Run click to the finished run shown, worst stall in ms)."""
    win = new_window(app)
    try:
        open_spec(app, win, path)
        runner = win.runner
        runner.input_panel.set_value({"count": 0, "limit": steps})
        button = win.findChild(QPushButton, "runButton")
        probe = StallProbe()
        probe.start()
        start = time.perf_counter()
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)
        wait_until(
            app, lambda: not runner.session.busy and runner.state in ("finished", "failed"), 600
        )
        elapsed = time.perf_counter() - start
        stall = probe.stop()
        if runner.state != "finished" or runner.view.values.get("count") != steps:
            raise RuntimeError(f"the studio run ended {runner.state}: {runner.last_failure}")
        return elapsed, stall
    finally:
        win.runner.close()
        win.close()
        win.deleteLater()
        app.processEvents()


def studio_history(app, path: Path, thread: str, size: int) -> tuple[float, float, float]:
    """(seconds to open the spec until the thread is listed, seconds from a click on the thread
    until its history shows, worst stall in ms)."""
    win = new_window(app)
    try:
        runner = win.runner
        probe = StallProbe()
        probe.start()
        start = time.perf_counter()
        assert win.open_path(path)
        wait_until(app, lambda: thread in runner.thread_list.ids, 30)
        listed = time.perf_counter() - start
        view = runner.thread_list.list
        row = runner.thread_list.ids.index(thread)
        rect = view.visualRect(runner.thread_list.model.index(row, 0))
        start = time.perf_counter()
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        wait_until(app, lambda: runner.view is not None and runner.view.thread_id == thread
                   and runner.history.model.rowCount() > 0 and not runner.session.busy, 60)  # fmt: skip
        shown = time.perf_counter() - start
        stall = probe.stop()
        total = runner.history.total
        if total != size + 2:  # the input checkpoint, __start__'s and one per superstep
            raise RuntimeError(f"the history says {total} checkpoints, expected {size + 2}")
        return listed, shown, stall
    finally:
        win.runner.close()
        win.close()
        win.deleteLater()
        app.processEvents()
