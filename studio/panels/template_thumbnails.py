"""Thumbnails of the templates for the start page's gallery.

Each is the template's graph drawn by the canvas scene (laid out as it opens), rendered once
and cached as a PNG under the studio's home (`thumbnails/<sha256 of the template file>.png`), so
an edited template gets a new one. Rendering needs the GUI thread (QGraphicsScene is not
thread-safe), so `ThumbnailQueue` draws one missing thumbnail per event-loop turn while the page
shows a placeholder: the window paints and answers clicks in between. It starts once the page
has painted, and pauses while the page is hidden (the studio opened on a graph draws none).
"""

from __future__ import annotations

import hashlib
import os
from collections import deque
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QSize, QTimer
from PySide6.QtGui import QColor, QIcon, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QWidget

from graphspec.io import read_spec
from studio.canvas.layout import laid_out
from studio.canvas.scene import GraphScene
from studio.document import GraphDocument
from studio.drawing import thumbnail_image
from studio.paths import studio_home

SIZE = QSize(104, 72)
"""As shown in the gallery; drawn at twice that for high-density screens."""


LOOK_VERSION = b"1"
"""Part of the cache key: bump it when the canvas draws cards differently, to redraw them all."""


def cache_path(template: Path) -> Path:
    key = hashlib.sha256(LOOK_VERSION + b"\n" + Path(template).read_bytes()).hexdigest()[:32]
    return studio_home() / "thumbnails" / f"{key}.png"


def render(template: Path, out: Path) -> None:
    """Draw the template's graph into `out` (written beside and renamed: never half a PNG)."""
    document = GraphDocument(laid_out(read_spec(template)))
    scene = GraphScene(document, read_only=True)
    document.setParent(scene)
    try:
        image = thumbnail_image(scene, SIZE.width() * 2, SIZE.height() * 2)
    finally:
        scene.deleteLater()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f"{out.stem}.{os.getpid()}.tmp.png")
    if not image.save(str(tmp), "PNG"):
        raise OSError(f"cannot write {tmp}")
    os.replace(tmp, out)


def placeholder() -> QIcon:
    """A light card with a dashed outline: the thumbnail is on its way."""
    pixmap = QPixmap(SIZE * 2)
    pixmap.fill(QColor("#F4F6F9"))
    painter = QPainter(pixmap)
    pen = QPen(QColor("#C5CBD5"), 2)
    pen.setDashPattern([4, 4])
    painter.setPen(pen)
    painter.drawRoundedRect(pixmap.rect().adjusted(2, 2, -3, -3), 10, 10)
    painter.end()
    return QIcon(pixmap)


def _icon(png: Path) -> QIcon | None:
    image = QImage(str(png))
    return None if image.isNull() else QIcon(QPixmap.fromImage(image))


class ThumbnailQueue(QObject):
    """Hands each template's thumbnail to a callback: at once when cached, else once drawn."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._waiting: deque[tuple[Path, Path, Callable[[QIcon], None]]] = deque()
        self._timer = QTimer(self, singleShot=True, interval=0, timeout=self._draw_next)
        self._page = parent if isinstance(parent, QWidget) else None
        """The page showing the thumbnails: its paints start the drawing (none: at once)."""
        if self._page is not None:
            self._page.installEventFilter(self)

    def request(self, template: Path, ready: Callable[[QIcon], None]) -> bool:
        """True when the cached thumbnail was handed over now; False when it is queued."""
        try:
            cached = cache_path(template)
        except OSError:
            return False  # an unreadable template keeps its placeholder
        icon = _icon(cached) if cached.exists() else None
        if icon is not None:
            ready(icon)
            return True
        self._waiting.append((template, cached, ready))  # the cache as of now, not of when drawn
        if self._page is None:
            self._timer.start()
        return False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self._waiting and not self._timer.isActive():
            self._timer.start()  # the page is on screen: draw the next one after this paint
        return False

    @property
    def pending(self) -> int:
        return len(self._waiting)

    def _draw_next(self) -> None:
        if not self._waiting or (self._page is not None and not self._page.isVisible()):
            return  # hidden meanwhile: its next paint goes on
        template, out, ready = self._waiting.popleft()
        try:
            render(template, out)
            icon = _icon(out)
        except Exception:  # a template that cannot be drawn keeps its placeholder
            icon = None
        if icon is not None:
            ready(icon)
        if self._waiting:
            self._timer.start()
