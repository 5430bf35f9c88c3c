"""A dock's panel in a scroll area whose minimum height is capped, so that docks can never add
up past a 1280×720 screen: a 720-line projector once saw the window grow to 785 lines after
lesson_07_conflict's run (the trace's error text), as the docks' minimum heights summed."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QFrame, QScrollArea, QWidget

MIN_HEIGHT_CAP = 124
"""The most minimum height a dock's panel asks for: two tab groups in the right column and the
bottom row then fit 720 lines with the menus, both toolbar rows and an interrupt bar."""


class DockScroll(QScrollArea):
    """A panel in a dock: its own minimum width, at most MIN_HEIGHT_CAP of minimum height; a
    panel taller than its dock (checkpoints, chat, a run's error in the trace) scrolls there
    instead of pushing the window taller, and only then. Frameless: it looks like the bare panel."""

    def __init__(self, panel: QWidget) -> None:
        super().__init__()
        self.setObjectName(f"{panel.objectName() or 'panel'}Scroll")
        self.setFrameShape(QFrame.Shape.NoFrame)
        # sized here, not by QScrollArea's widgetResizable: that gives a panel with a wrapped
        # label (its layout has a height for width) its preferred height, not its minimum, so
        # the Deep agent's panel scrolled by 277 px in a dock taller than its minimum
        self.setWidgetResizable(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # widths fit
        self.setWidget(panel)
        panel.installEventFilter(self)

    def _fit_panel(self) -> None:
        """The panel fills the dock, and scrolls only below its own minimum height."""
        panel, port = self.widget(), self.viewport().size()
        if panel is not None:
            panel.resize(port.width(), max(port.height(), panel.minimumSizeHint().height()))

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._fit_panel()
        return super().viewportEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self._fit_panel()  # its minimum may have changed (a row shown, a longer text)
        return super().eventFilter(watched, event)

    def minimumSizeHint(self) -> QSize:
        panel = self.widget().minimumSizeHint()
        bar = self.verticalScrollBar().sizeHint().width()
        return QSize(panel.width() + bar, min(panel.height(), MIN_HEIGHT_CAP))


def scrolled(panel: QWidget) -> QWidget:
    """The panel in a DockScroll, unless it scrolls itself (the inspector is a QScrollArea)."""
    return panel if isinstance(panel, QAbstractScrollArea) else DockScroll(panel)
