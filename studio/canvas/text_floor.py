"""Text that never shrinks below a size on screen (lecture mode, for a projector).

The scene's `text_floor` is that size in screen pixels (0: off, text scales with the zoom as
usual). An item painting at level of detail `lod` draws its text at `floor / lod` scene pixels
or more (`floored`), shortening what no longer fits its card, and keeps in `drawn` the
(scene pixel size, text) of each text it painted, so a view can measure what it shows.
"""

from __future__ import annotations

import math

from PySide6.QtGui import QFont, QGuiApplication


def _dpi() -> float:
    screen = QGuiApplication.primaryScreen()
    return screen.logicalDotsPerInchY() if screen is not None else 96.0


def font_px(font: QFont) -> float:
    """The font's size in pixels at scale 1 (a point is 1/72 inch at the screen's dpi)."""
    return float(font.pixelSize()) if font.pixelSize() > 0 else font.pointSizeF() * _dpi() / 72


def at_least(font: QFont, px: float) -> QFont:
    """`font`, or a copy as large as `px` pixels when it is smaller."""
    if px <= 0 or font_px(font) >= px:
        return font
    bigger = QFont(font)
    bigger.setPointSizeF(px * 72 / _dpi())
    return bigger


_made: dict[tuple[str, int], QFont] = {}


def floored(font: QFont, floor: float, lod: float) -> QFont:
    """`font` as painted at level of detail `lod` under a floor of `floor` screen pixels."""
    if floor <= 0 or lod <= 0:
        return font
    quarters = math.ceil(floor / lod * 4)  # a quarter pixel apart, never under: one a zoom step
    key = (font.key(), quarters)
    made = _made.get(key)
    if made is None:
        made = _made[key] = at_least(font, quarters / 4)
    return made


def floor_of(item) -> float:
    """The text floor of the item's scene, in screen pixels (0 when off or unplaced)."""
    scene = item.scene()
    return getattr(scene, "text_floor", 0.0) if scene is not None else 0.0
