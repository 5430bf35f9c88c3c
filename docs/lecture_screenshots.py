"""Regenerate the lecture mode's screenshots offscreen, at 1280×720: python docs/lecture_screenshots.py

docs/lecture-compiled-view.png   the fan-out/join template's compiled runtime view after a run
docs/lecture-plan.png            lesson 3, step 2's Plan: why step fires again (versions seen)
docs/lecture-execute.png         lesson 5, step 1's Execute: pending writes beside their channels
docs/lecture-barrier.png         lesson 6, step 1's Barrier: the reducer merges three writes
docs/lecture-compiled-<phase>.png lesson 6's step 1, each phase on the compiled view
docs/lecture-<concept>.png       a LastValue conflict, Send packets, Command goto, an interrupt,
                                 a subgraph's namespace, each at its phase
docs/lecture-1280-lesson<N>.png  lessons 6 (reducer), 7 (conflict) and 12 (namespaces) on the
                                 drawn canvas, at the phase of their concept

Each shot prints the smallest graph text it shows, in screen pixels: every text item's font
pixel size and every card's painted font, times the view's scale (studio.lecture.readable).

With --lang zh_CN, the studio in Chinese: docs/lecture-1280-lesson6-zh.png (the reducer),
lesson7-zh (the conflict), lesson12-zh (namespaces) and docs/start-page-zh.png.
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
from studio.lecture.readable import smallest_text  # noqa: E402
from studio.main_window import MainWindow  # noqa: E402

SHOTS = [  # (file, lesson template, compiled view?, phase kind, step)
    ("lecture-plan.png", "lesson_03_why_fired", False, "plan", 2),
    ("lecture-execute.png", "lesson_05_barrier", False, "execute", 1),
    ("lecture-barrier.png", "lesson_06_reducer", False, "barrier", 1),
    ("lecture-compiled-plan.png", "lesson_06_reducer", True, "plan", 1),
    ("lecture-compiled-execute.png", "lesson_06_reducer", True, "execute", 1),
    ("lecture-compiled-barrier.png", "lesson_06_reducer", True, "barrier", 1),
    ("lecture-conflict.png", "lesson_07_conflict", True, "barrier", 1),
    ("lecture-send.png", "lesson_08_send", True, "plan", 1),
    ("lecture-command.png", "lesson_09_command", False, "execute", 1),
    ("lecture-interrupt.png", "lesson_10_interrupt", False, "execute", 2),
    ("lecture-namespace.png", "lesson_12_subgraph", False, "execute", 2),
    ("lecture-1280-lesson6.png", "lesson_06_reducer", False, "barrier", 1),
    ("lecture-1280-lesson7.png", "lesson_07_conflict", False, "barrier", 1),
    ("lecture-1280-lesson12.png", "lesson_12_subgraph", False, "execute", 2),
]


LANG_SHOTS = [(name.removesuffix(".png"), *rest) for name, *rest in SHOTS
              if name.startswith("lecture-1280-")]  # fmt: skip
"""The 1280×720 lesson shots, as file stems: shot again in another language."""


def pump(app, window, seconds: float = 0.3) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end or window.runner.session.busy:
        app.processEvents()
        time.sleep(0.02)


def open_lesson(app, window, stem: str, compiled: bool) -> None:
    window.open_path(ROOT / "templates" / f"{stem}.json", bundled=True)
    window.actions_by_name["compiled_view"].setChecked(compiled)
    window.actions_by_name["lecture_mode"].setChecked(True)
    pump(app, window)


def play_to(app, window, kind: str, step: int) -> None:
    player = window.lecture.player
    for _ in range(40):
        phase = player.phase
        if phase is not None and (phase.kind, phase.step) == (kind, step):
            return pump(app, window)
        player.next_phase()
        pump(app, window)
    raise RuntimeError(f"never reached step {step} {kind}")


def in_language(app, language: str) -> None:
    """The lesson shots and the start page in `language` (suffix `-zh` for zh_CN)."""
    from studio.i18n import install

    install(language)
    suffix = "-" + language.split("_")[0]
    window = MainWindow()
    window.resize(1280, 720)
    window.show()
    while window.start_page.thumbnails.pending:  # drawn one per event-loop turn
        app.processEvents()
    pump(app, window, 0.6)
    window.grab().save(str(ROOT / "docs" / f"start-page{suffix}.png"))
    shots = [(f"{stem}{suffix}.png", *rest) for stem, *rest in LANG_SHOTS]
    shoot(app, window, shots)


def shoot(app, window, shots) -> None:
    for name, stem, compiled, kind, step in shots:
        open_lesson(app, window, stem, compiled)
        play_to(app, window, kind, step)
        assert (window.width(), window.height()) == (1280, 720), name
        for stage in (window.lecture.player.canvas_stage, window.lecture.player.compiled_stage):
            stage.settle()  # the new checkpoint's drop at its end
        pump(app, window, 0.05)
        window.grab().save(str(ROOT / "docs" / name))
        view = window.compiled_view if compiled else window.view
        px, text = smallest_text(view)
        print(
            f"{name}: smallest graph text {px:.1f} px ({text!r}), zoom {view.transform().m11():.2f}"
        )
    window.close()


def main() -> None:
    app = application()
    if sys.argv[1:2] == ["--lang"]:
        return in_language(app, sys.argv[2])
    window = MainWindow()
    window.resize(1280, 720)
    window.show()
    pump(app, window)
    window.open_path(ROOT / "templates" / "fanout_join.json", bundled=True)
    window.actions_by_name["compiled_view"].setChecked(True)
    window.runner.run()
    pump(app, window, 0.8)
    window.grab().save(str(ROOT / "docs" / "lecture-compiled-view.png"))
    shoot(app, window, SHOTS)


if __name__ == "__main__":
    main()
