"""Regenerate docs/breakpoints-dock.png offscreen: python docs/breakpoints_screenshot.py

The react_agent template in the Debug workspace with a few breakpoints (a plain one disabled, one
on the agent's weather tool with a condition, one on the 2nd model call, pause on any error),
its run paused at the tool call: the Breakpoints dock shows the list and the waiting call's input.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("SUPERSTEP_STUDIO_HOME", tempfile.mkdtemp(prefix="studio-shots-"))
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


from graphspec.breakpoints import kept  # noqa: E402
from graphspec.model import Breakpoint  # noqa: E402
from studio.app import application  # noqa: E402
from studio.main_window import MainWindow  # noqa: E402
from studio.workspaces import HORIZONTAL, VERTICAL  # noqa: E402

OUT = ROOT / "docs" / "breakpoints-dock.png"


def wait(app, until, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not until():
        if time.monotonic() > end:
            raise SystemExit("timed out waiting for the run to pause")
        app.processEvents()
        time.sleep(0.02)


def settle(app, seconds: float = 0.6) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def main() -> None:
    app = application()
    window = MainWindow()
    window.resize(1440, 1000)
    window.show()
    window.open_path(ROOT / "templates" / "react_agent.json", bundled=True)
    window.choose_workspace("debug")
    points = [
        Breakpoint(node="assistant", enabled=False),
        Breakpoint(node="assistant", inside=["tools"], tool="get_weather",
                   condition="city == 'Paris'"),
        Breakpoint(node="assistant", inside=["model"], hit=2),
        Breakpoint(at="error", node="*"),
    ]  # fmt: skip
    window.editor.set_breakpoints(kept(points), "Breakpoints for the screenshot")
    runner = window.runner
    runner.input_panel.editor.setPlainText(json.dumps(window.document.spec.inputs[0].value))
    runner.run()
    wait(app, lambda: runner.held is not None)
    dock = window.dock("breakpointsDock")  # taller than the workspace gives it, to show it all
    window.resizeDocks([dock], [600], VERTICAL)
    window.resizeDocks([dock], [760], HORIZONTAL)
    settle(app)
    window.view.fit()  # the graph, with its paused agent marked, in the smaller canvas
    settle(app)
    window.grab().save(str(OUT))
    print(f"wrote {OUT}")
    runner.stop()
    wait(app, lambda: not runner.session.busy)
    window.close()


if __name__ == "__main__":
    main()
