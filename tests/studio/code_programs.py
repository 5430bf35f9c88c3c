"""Opening programs in the studio as a developer does, and the oracle they are checked against:
the same program's graph invoked on real langgraph."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt


def open_program(qtbot, window, path: Path, name: str | None = None) -> None:
    """File → Open on a program, the user agreeing to run it (the prompt is tested elsewhere)."""
    from studio.python_open import open_python

    assert open_python(window, path, name, trusted=True), window.load_errors
    qtbot.waitUntil(lambda: not window.validator.busy and not window.runner.session.busy,
                    timeout=10000)  # fmt: skip


def stop_from_dialog(qtbot, window) -> list[str]:
    """Once the "still running" dialog of a program's code shows, click its stop button; the
    list gets the dialog's text as it was then."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QProgressDialog, QPushButton

    said: list[str] = []

    def stop_it() -> None:
        dialog = window.findChild(QProgressDialog, "mainBlockProgress")
        if dialog is None or not dialog.isVisible():
            QTimer.singleShot(50, stop_it)
            return
        said.append(dialog.labelText())
        qtbot.mouseClick(dialog.findChild(QPushButton), Qt.MouseButton.LeftButton)

    QTimer.singleShot(100, stop_it)
    return said


def step_to_end(qtbot, window, value: Any, limit: int = 200, until: str = "") -> int:
    """Step a new thread from `value` superstep by superstep (the Step button) to its end (or a
    breakpoint, with `until="breakpoint"`); the number of Step clicks it took."""
    runner = window.runner
    runner.new_thread()
    runner.input_panel.editor.setPlainText(json.dumps(value))
    for count in range(1, limit + 1):
        qtbot.mouseClick(runner.step_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not runner.session.busy, timeout=20000)
        assert runner.state != "failed", runner.last_failure and runner.last_failure.traceback
        if runner.state in ("finished", "interrupted", until):
            return count
    raise AssertionError(f"not finished after {limit} steps: {runner.state}")


def langgraph_graph(path: Path, name: str) -> Any:
    """The program's graph on real langgraph: compiled if a builder, called if a factory."""
    from graphspec.importer import load_module

    value = getattr(load_module(str(path)), name)
    if callable(value) and not hasattr(value, "invoke") and not hasattr(value, "compile"):
        value = value()
    return value.compile() if hasattr(value, "compile") and not hasattr(value, "invoke") else value


def final_state_on_langgraph(path: Path, name: str, value: Any) -> Any:
    from langgraph.checkpoint.memory import InMemorySaver

    graph = langgraph_graph(path, name)
    if graph.checkpointer is None:
        graph = graph.copy({"checkpointer": InMemorySaver()})
    graph.invoke(value, {"configurable": {"thread_id": "oracle"}})
    return graph.get_state({"configurable": {"thread_id": "oracle"}}).values
