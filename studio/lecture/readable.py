"""Lecture mode's rule for text: nothing on the canvas or the compiled view is drawn smaller
than READABLE_PX screen pixels (at 1280×720, from the back of a room).

A view's zoom and its text size pull against each other: a graph fitted to the space may be
zoomed to half size. So text is drawn in scene units at `floor = READABLE_PX / zoom` or more
(cards shorten or wrap it to their room), the view fitted again around the bigger text, and
that repeated until the fit keeps the text readable; never below LECTURE_MIN_ZOOM (where the
canvas would turn into its overview), where readable text wins over fitting and the view
centres on what the phase is about. `drawn_text` measures what a view shows: each text's font
pixel size times the view's scale.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsSimpleTextItem, QGraphicsView

from studio.canvas.text_floor import font_px

READABLE_PX = 14.0
LECTURE_MIN_ZOOM = 0.5
"""Above the canvas's overview (0.4): cards keep their text, and a 14 px title fits a header."""
LECTURE_MAX_ZOOM = 2.0
FIT_MARGIN = 24.0


def drawn_text(view: QGraphicsView) -> list[tuple[float, str]]:
    """(screen pixels, text) of every text the view shows: text items by their font, the
    canvas's cards by the fonts their last paint used (`drawn`), each times the view's scale."""
    scale = view.transform().m11()
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    out = []
    for item in view.scene().items(shown):
        if not item.isVisible() or item.opacity() == 0:
            continue
        if isinstance(item, QGraphicsSimpleTextItem):
            if item.text().strip():
                px = font_px(item.font()) * item.sceneTransform().m11()
                out.append((px * scale, item.text()))
        else:
            out.extend((px * scale, text) for px, text in getattr(item, "drawn", ()))
    return out


def smallest_text(view: QGraphicsView) -> tuple[float, str]:
    """The smallest text the view shows, in screen pixels, and which (inf when none)."""
    return min(drawn_text(view), default=(float("inf"), ""))


def close_above(drawn: float, wanted: float) -> bool:
    """Text drawn at a floor of `drawn` scene pixels serves `wanted` (no redraw for less
    than half a pixel more)."""
    return wanted <= drawn < wanted + 0.5


def _fit_zoom(view: QGraphicsView, rect: QRectF) -> float:
    port = view.viewport().rect()
    if rect.isEmpty() or port.isEmpty():
        return 1.0
    zoom = min(port.width() / rect.width(), port.height() / rect.height())
    return max(LECTURE_MIN_ZOOM, min(LECTURE_MAX_ZOOM, zoom))


def _clamp(value: float, low: float, high: float, half: float) -> float:
    """A view centre near `value` whose half-width `half` stays within low..high (centred on
    them when they are narrower)."""
    if high - low <= 2 * half:
        return (low + high) / 2
    return max(low + half, min(high - half, value))


def fit_readable(view: QGraphicsView, readable_px: float, redraw: Callable[[float], Any],
                 focus: Callable[[], QRectF | None]) -> float:  # fmt: skip
    """Fit the view's items with their text at least `readable_px` on screen: `redraw(floor)`
    draws the text that needs it at `floor` scene pixels or more. Returns the zoom set."""
    scene = view.scene()

    def bounds() -> QRectF:
        return scene.itemsBoundingRect().adjusted(-FIT_MARGIN, -FIT_MARGIN, FIT_MARGIN, FIT_MARGIN)

    zoom = _fit_zoom(view, bounds())
    for _ in range(5):
        redraw(readable_px / zoom)
        fitted = _fit_zoom(view, bounds())
        if fitted >= zoom:  # the text drawn for `zoom` is larger still at `fitted`
            zoom = fitted
            break
        zoom = fitted
    else:
        redraw(readable_px / zoom)
    rect = bounds()
    scene.setSceneRect(scene.sceneRect().united(rect.adjusted(-400, -400, 400, 400)))
    view.resetTransform()
    view.scale(zoom, zoom)
    port = view.viewport().rect()
    if rect.width() * zoom <= port.width() + 1 and rect.height() * zoom <= port.height() + 1:
        view.centerOn(rect.center())
    else:  # too big to fit readable: what the phase is about (else the top left), with as
        # much of the drawing around it as the view holds (no empty margin past its edges)
        target = focus()
        at = target.center() if target is not None and not target.isEmpty() else rect.topLeft()
        half_w, half_h = port.width() / zoom / 2, port.height() / zoom / 2
        view.centerOn(_clamp(at.x(), rect.left(), rect.right(), half_w),
                      _clamp(at.y(), rect.top(), rect.bottom(), half_h))  # fmt: skip
    return zoom
