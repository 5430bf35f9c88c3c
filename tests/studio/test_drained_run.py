"""A graph whose own code drains its run (`runtime.control.request_drain(...)`, a graceful
shutdown) stops at the superstep boundary with its checkpoint saved: langgraph raises
GraphDrained there and `invoke(None, config)` carries on. The studio said "Run failed —
GraphDrained" with a traceback through its own runner; it now says the run drained and why,
and Continue runs on from the checkpoint."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.cli.program_scripts import DRAINING
from tests.studio.code_programs import open_program

pytestmark = pytest.mark.gui


def _click(qtbot, runner, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not runner.session.busy, timeout=20000)


def test_a_drained_run_pauses_at_its_checkpoint_and_continues(qtbot, window, tmp_path):
    path = tmp_path / "draining.py"
    path.write_text(DRAINING, encoding="utf-8")
    open_program(qtbot, window, path)
    runner = window.runner
    runner.new_thread()
    runner.input_panel.editor.setPlainText('{"count": 0}')
    _click(qtbot, runner, runner.run_button)
    assert runner.state != "failed" and runner.last_failure is None
    assert runner.status.text() == (
        "Drained after the superstep (maintenance): its checkpoint is saved; Continue runs on"
    )
    assert runner.view.values == {"count": 1} and runner.view.next == ("second",)
    assert runner.continue_button.isEnabled()
    _click(qtbot, runner, runner.continue_button)
    assert runner.state == "finished"
    assert runner.view.values == {"count": 11}
