"""Regenerate the README screenshots offscreen: python docs/screenshots.py [start-page]

docs/start-page.png       the start page at 1280×720 (templates gallery with its thumbnails)
docs/template-open.png    the fan-out/join template open and laid out, its join node selected
docs/agent-middleware.png an agent with three middleware, selected, inspector showing them
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("SUPERSTEP_STUDIO_HOME", tempfile.mkdtemp(prefix="studio-shots-"))
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from studio.app import application  # noqa: E402
from studio.main_window import MainWindow  # noqa: E402


def settle(app, window, seconds: float = 0.6) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end or window.validator.busy:
        app.processEvents()
        time.sleep(0.02)
    window.view.minimap.refresh()
    app.processEvents()


def main() -> None:
    app = application()
    window = MainWindow()
    window.resize(1280, 720)  # the smallest screen the window is made to fit
    window.show()
    while window.start_page.thumbnails.pending:  # drawn one per event-loop turn
        app.processEvents()
    settle(app, window)
    window.grab().save(str(ROOT / "docs" / "start-page.png"))
    if sys.argv[1:] == ["start-page"]:
        window.close()
        return
    window.resize(1440, 900)

    window.open_path(ROOT / "templates" / "fanout_join.json", bundled=True)
    window.editor.auto_layout()  # the template's own positions let the three searches overlap
    window.view.fit()
    window.scene.select_ids(["combine"])
    settle(app, window)
    window.grab().save(str(ROOT / "docs" / "template-open.png"))

    window.open_path(ROOT / "docs" / "agent_with_middleware.json")
    window.scene.select_ids(["assistant"])
    settle(app, window)
    window.grab().save(str(ROOT / "docs" / "agent-middleware.png"))
    window.close()


if __name__ == "__main__":
    main()
