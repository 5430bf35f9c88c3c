"""Slides from a lecture: the phase on screen as PNG or SVG, and a superstep's phases as a
numbered image sequence (`step<N>-<i>-<phase>.png`), drawn from whichever view shows: the
drawn canvas or the compiled runtime view, the phase's marks included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.drawing import export_png, export_svg


def shown_scene(window: Any) -> Any:
    view = window.compiled_view
    return view.compiled if view.isVisible() else window.scene


def export_step(window: Any, path: Path) -> Path:
    """The current phase as `path` (.svg: vector, else PNG)."""
    path = Path(path)
    scene = shown_scene(window)
    for stage in (window.lecture.player.canvas_stage, window.lecture.player.compiled_stage):
        stage.settle()  # the checkpoint's drop, at its end
    if path.suffix.lower() == ".svg":
        export_svg(scene, path, window.document.spec.name)
    else:
        export_png(scene, path)
    return path


def export_phases(window: Any, player: Any, folder: Path) -> list[Path]:
    """Each phase of the shown phase's superstep as a PNG in `folder`; the phase on screen
    is shown again after."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    current = player.index
    written = []
    try:
        for number, index in enumerate(player.phases_of_step(), 1):
            player.show_phase(index)
            phase = player.phase
            written.append(
                export_step(window, folder / f"step{phase.step}-{number}-{phase.kind}.png")
            )
    finally:
        if current >= 0:
            player.show_phase(current)
    return written
