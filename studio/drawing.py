"""Export the drawing: PNG (raster, 2x for sharp docs), SVG (QtSvg) and gallery thumbnails,
without the selection."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene

from studio.i18n import translate

MARGIN = 30


def _source(scene: QGraphicsScene) -> QRectF:
    return scene.itemsBoundingRect().adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)


def _render(scene: QGraphicsScene, painter: QPainter, target: QRectF, source: QRectF) -> None:
    selected = scene.selectedItems()
    scene.clearSelection()
    painter.fillRect(target, QColor("#FFFFFF"))
    scene.render(painter, target, source, Qt.AspectRatioMode.KeepAspectRatio)
    for item in selected:
        item.setSelected(True)


def export_png(scene: QGraphicsScene, path: Path, scale: float = 2.0) -> None:
    source = _source(scene)
    size = QSize(max(1, int(source.width() * scale)), max(1, int(source.height() * scale)))
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(QColor("#FFFFFF"))
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    _render(scene, painter, QRectF(0, 0, size.width(), size.height()), source)
    painter.end()
    if not image.save(str(path), "PNG"):
        raise OSError(f"cannot write {path}")


def export_svg(scene: QGraphicsScene, path: Path, title: str = "") -> None:
    source = _source(scene)
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(source.size().toSize())
    generator.setViewBox(QRectF(0, 0, source.width(), source.height()))
    generator.setTitle(title or translate("drawing", "Superstep graph"))
    painter = QPainter(generator)
    _render(scene, painter, QRectF(0, 0, source.width(), source.height()), source)
    painter.end()
    if not Path(path).exists():
        raise OSError(f"cannot write {path}")


def thumbnail_image(scene: QGraphicsScene, width: int, height: int) -> QImage:
    """The whole drawing scaled into width × height (centred, aspect kept), on white."""
    image = QImage(QSize(width, height), QImage.Format.Format_ARGB32)
    image.fill(QColor("#FFFFFF"))
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    source = _source(scene)
    scale = min(width / source.width(), height / source.height())
    target = QRectF(0, 0, source.width() * scale, source.height() * scale)
    target.moveCenter(QRectF(0, 0, width, height).center())  # render() itself aligns top-left
    _render(scene, painter, target, source)
    painter.end()
    return image
