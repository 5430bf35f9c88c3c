"""`superstep studio SPEC --steps N` opens on the stepped thread: the window turns from the Design
workspace (palette and inspector large) to Debug, where the thread's channels, checkpoints and
trace are large; it left the window in Design, the run's panels small behind the inspector's
tabs. A teacher's Teach workspace, also made for showing a run, stays as it is."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtWidgets import QApplication

from graphspec.templates import TEMPLATES_DIR
from studio.app import step_new_thread

pytestmark = pytest.mark.gui


def stepped(window, steps: int) -> list[str]:
    """Step as `--steps` does, with Qt's events handled while the coroutine waits."""
    problems: list[str] = []

    async def main() -> None:
        async def pump() -> None:
            while True:
                QApplication.processEvents()
                await asyncio.sleep(0.005)

        pumping = asyncio.ensure_future(pump())
        try:
            await asyncio.wait_for(step_new_thread(window, steps, problems), timeout=30)
        finally:
            pumping.cancel()

    asyncio.run(main())
    return problems


@pytest.mark.parametrize(("before", "after"), [("design", "debug"), ("teach", "teach")])
def test_stepping_at_start_shows_a_run_workspace(qtbot, window, before, after):
    assert window.open_path(TEMPLATES_DIR / "fanout_join.json", bundled=True)
    window.choose_workspace(before)
    assert stepped(window, 2) == []
    assert window.runner.thread_id == "run-1"
    assert window.workspaces.current.name == after
    assert window.workspace_chooser.currentData() == after
    history = window.dock_named("historyDock")
    assert history.isVisible() and not history.visibleRegion().isEmpty()  # in front
