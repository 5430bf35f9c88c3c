"""Drive the timeline from a script and time it (bench/timeline.py): a long run through the Run
button with the timeline behind its tab, then the dock opened, scrubbed, zoomed, as a user would."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

from studio.run.probe import new_window, open_spec, wait_until


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def long_run(app: Any, path: Path, value: dict) -> tuple[Any, list, float]:
    """(the window, every trace event of the run, seconds from the Run click to finished)."""
    win = new_window(app)
    open_spec(app, win, path)
    runner = win.runner
    events: list = []
    runner.session.stepped.connect(lambda report: events.extend(report.events))
    win.dock("traceDock").raise_()  # the timeline behind its tab while the run goes
    runner.input_panel.set_value(value)
    button = win.findChild(QPushButton, "runButton")
    took = timed(lambda: (QTest.mouseClick(button, Qt.MouseButton.LeftButton),
                          wait_until(app, lambda: not runner.session.busy
                                     and runner.state in ("finished", "failed"), 900)))  # fmt: skip
    if runner.state != "finished":
        raise RuntimeError(f"the studio run ended {runner.state}: {runner.last_failure}")
    return win, events, took


def open_timeline(app: Any, win: Any) -> float:
    """Seconds to bring the timeline dock to the front and paint it."""
    dock = win.dock("timelineDock")

    def show() -> None:
        dock.show()
        dock.raise_()
        dock.widget().repaint()
        win.timeline_dock.view.viewport().repaint()
        app.processEvents()

    return timed(show)


def scrub(win: Any, index: int) -> float:
    """Seconds to scrub to step `index` with the slider and repaint the timeline."""
    dock = win.timeline_dock

    def move() -> None:
        dock.panel.slider.setValue(index)
        dock.view.viewport().repaint()

    return timed(move)


def channels_after(app: Any, win: Any, index: int, channel: str) -> float:
    """Seconds from a scrub until the Channels dock shows `channel` as that step left it."""
    dock, runner = win.timeline_dock, win.runner
    wanted = str(dock.timeline.state_after(index)[channel][0])

    def shown() -> bool:
        row = runner.channels.row_text(channel)
        return row is not None and row[2].endswith(wanted)

    return timed(lambda: (scrub(win, index), wait_until(app, shown, 30)))


def paints(win: Any, index: int) -> tuple[float, float]:
    """Seconds to paint the whole run fitted, and zoomed in to single bars around `index`."""
    view = win.timeline_dock.view
    fitted = timed(lambda: (view.fit(), view.viewport().repaint()))
    for _ in range(30):
        view.zoom(1.5)
    view.ensure_visible(index)
    return fitted, timed(view.viewport().repaint)
