"""Start the studio: `superstep studio [SPEC] [--screenshot PNG --quit]`, on a qasync loop."""

from __future__ import annotations

import asyncio
import os
import sys
import traceback
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QApplication

from graphspec.import_refs import split_target  # the importer itself loads when a program opens
from graphspec.templates import TEMPLATES_DIR, resolve
from studio.i18n import install_chosen, translate
from studio.paths import APPLICATION, ORGANIZATION
from studio.startup import collector_paused

UNSEEN_PLATFORMS = ("offscreen", "minimal")
"""Qt platforms that show nothing on a screen: a dialog there is one nobody can answer."""


def _keep_running(window_ref: list) -> None:
    """A bug in a slot must not take the user's drawing down: report it and carry on."""

    def hook(kind, value, tb) -> None:
        traceback.print_exception(kind, value, tb)
        if window_ref:
            window_ref[0].statusBar().showMessage(
                translate("app", "Internal error: {name__}: {value}").format(
                    name__=kind.__name__, value=value
                ),
                10000,
            )

    sys.excepthook = hook


def application():  # -> QApplication
    """The QApplication, created on first use (scripts outside studio/ need no Qt import)."""
    return QApplication.instance() or QApplication(sys.argv[:1])


def run(
    spec: str | None = None,
    screenshot_path: str | None = None,
    quit_after: bool = False,
    *,
    trust: bool = False,
    steps: int = 0,
    run_input: str | None = None,
    run_context: str | None = None,
    size: tuple[int, int] | None = None,
) -> int:
    """Open the window (on SPEC, a program or a project when given). `trust` is the user's
    consent to import a program without the prompt; `steps` supersteps run on a new thread once
    it is open, from `run_input` (JSON text) when given, with `run_context` (JSON text) as the
    run context. With `quit_after`, the exit status says whether it opened and stepped (the
    reason on stderr when not)."""
    headless = sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if screenshot_path and headless:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # a picture needs no screen
    app = application()
    app.setApplicationName(APPLICATION)
    app.setOrganizationName(ORGANIZATION)
    install_chosen()  # the saved language, else the system locale's (studio/i18n.py)
    with collector_paused():  # the window's modules and widgets: see studio/startup.py
        from studio.main_window import MainWindow

        window = MainWindow()
    if size is not None:
        window.resize(*size)
    _keep_running([window])
    # opening the document's checkpoint database and listing its threads wait for the first
    # paint: with the GIL, their thread would take its time from the window's
    window.add_lazy("runSessionJobs", window.runner.session.hold())
    opened = True
    # no one answers a dialog of a run that quits, pictures or has no screen: it says instead
    unattended = quit_after or bool(screenshot_path) or app.platformName() in UNSEEN_PLATFORMS
    module, attr = split_target(spec) if spec else ("", None)
    if module.endswith(".py") or Path(module).name == "langgraph.json":  # asks before running it
        from studio.python_open import open_python

        opened = open_python(window, Path(module), attr, trusted=trust, ask=not unattended)
    elif spec:
        path = resolve(spec)
        bundled = path.resolve().parent == TEMPLATES_DIR.resolve()
        with collector_paused():
            opened = window.open_path(path, bundled=bundled)
    window.show()

    problems: list[str] = []
    if not opened:
        problems.append(f"cannot open {spec}: " + "; ".join(window.load_errors or
                                                            ["it was not opened"]))  # fmt: skip

    async def after_start(closed: asyncio.Event) -> None:
        await asyncio.sleep(0.3)  # let the first paint and the validator run
        while window.validator.busy:
            await asyncio.sleep(0.05)
        if opened and steps:
            await step_new_thread(window, steps, problems, run_input, run_context)
        if screenshot_path:
            window.view.minimap.refresh()
            await asyncio.sleep(0.05)
            window.grab().save(screenshot_path)
            print(f"screenshot: {screenshot_path}")
        if quit_after:
            window.close()
            closed.set()

    serve(app, after_start)
    for problem in problems if unattended else ():
        print(f"superstep studio: {problem}", file=sys.stderr)
    return 1 if problems and unattended else 0


def serve(app: Any, first: Any = None) -> None:
    """Run the app's event loop (an asyncio loop on Qt's, as the studio's jobs expect) until its
    last window closes; `first(closed)` is a coroutine started once it runs (setting `closed`
    ends the loop)."""
    import qasync

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    closed = asyncio.Event()
    app.aboutToQuit.connect(closed.set)
    app.lastWindowClosed.connect(closed.set)
    with loop:
        if first is not None:
            loop.create_task(first(closed))
        loop.run_until_complete(closed.wait())


async def step_new_thread(window: Any, steps: int, problems: list[str],
                          run_input: str | None = None, context: str | None = None) -> None:  # fmt: skip
    """Step `steps` supersteps on a new thread, as the Step button does, each to its end, and
    stop where the button is disabled: at the end, or at an interrupt waiting for its answer
    (stepping on would start the input again and drop the question). From the Design workspace
    the window turns to Debug, where the thread's channels, checkpoints and trace are large
    (Teach, a run's workspace too, stays)."""
    runner = window.runner
    if window.workspaces.current.name == "design":  # the stepped thread is what is asked to see
        window.choose_workspace("debug")
    runner.new_thread()
    if run_input is not None:
        runner.input_panel.editor.setPlainText(run_input)
    if context is not None:  # the Run input dock's Context field
        runner.input_panel.context_editor.setText(context)
    for _ in range(steps):
        runner.step()
        if not runner.session.busy:  # refused to start: the status line says why
            problems.append(f"cannot step: {runner.status.text()}")
            return
        while runner.session.busy:
            await asyncio.sleep(0.02)
        if runner.state == "failed":
            failure = runner.last_failure
            problems.append("a step failed: " + (failure.message if failure else runner.state))
            return
        if runner.state in ("finished", "interrupted"):
            return
