"""Where the studio finds its assets and keeps its own files (recent list, autosaves)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path


def _assets_dir() -> Path:
    """The wheel's copy (studio/assets), else the source tree's assets/ folder."""
    bundled = Path(__file__).resolve().parent / "assets"
    return bundled if bundled.is_dir() else Path(__file__).resolve().parent.parent / "assets"


ASSETS_DIR = _assets_dir()
ICONS_DIR = ASSETS_DIR / "icons"
HOME_ENV = "SUPERSTEP_STUDIO_HOME"
"""Overrides the studio's folder (tests point it at a temporary directory)."""
ORGANIZATION, APPLICATION = "Superstep", "Superstep Studio"
"""The app's names, which Qt's data folder is named after."""


def studio_home() -> Path:
    """The folder holding recent files and autosaves; created on first use."""
    base = os.environ.get(HOME_ENV)
    if base:
        home = Path(base)
    else:
        from PySide6.QtCore import QCoreApplication, QStandardPaths

        if QCoreApplication.instance() is None:  # a saved test in pytest: the studio's folder
            QCoreApplication.setOrganizationName(ORGANIZATION)
            QCoreApplication.setApplicationName(APPLICATION)
        location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
        home = Path(location or Path.home() / ".superstep-studio")
    home.mkdir(parents=True, exist_ok=True)
    return home


def settings():  # -> QSettings
    """The studio's settings file (studio.ini in its folder): layout, language."""
    from PySide6.QtCore import QSettings

    return QSettings(str(studio_home() / "studio.ini"), QSettings.Format.IniFormat)


def icon_path(name: str) -> Path:
    """The SVG for `name` (a node kind, `start`, `end`, `note`, `middleware`), or the generic one."""
    path = ICONS_DIR / f"{name}.svg"
    return path if path.exists() else ICONS_DIR / "function.svg"


@lru_cache(maxsize=64)
def icon_pixmap(name: str, size: int = 32):  # -> QPixmap
    """The icon rendered once at `size` pixels: painting a cached pixmap is far cheaper than SVG."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QPainter, QPixmap
    from PySide6.QtSvg import QSvgRenderer

    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    renderer = QSvgRenderer(str(icon_path(name)))
    painter = QPainter(pixmap)
    renderer.render(painter)
    painter.end()
    return pixmap


def icon(name: str):  # -> QIcon
    from PySide6.QtGui import QIcon

    return QIcon(str(icon_path(name)))
