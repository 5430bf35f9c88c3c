"""The problems panel (objectName `problemsPanel`): validator findings; click one to select it."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from studio.plain import plain_tip

COLORS = {"error": "#C62828", "warning": "#B26A00"}


class ProblemsPanel(QTreeWidget):
    element_chosen = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("problemsPanel")
        self.setHeaderLabels(["", "Element", "Problem"])
        self.setRootIsDecorated(False)
        self.setAlternatingRowColors(True)
        self.setColumnWidth(0, 70)
        self.setColumnWidth(1, 150)
        self.itemClicked.connect(self._chosen)
        self.itemActivated.connect(self._chosen)

    def show_findings(self, findings: list) -> None:
        self.clear()
        for f in findings:
            text = f.message + (f"  Fix: {f.fix}" if getattr(f, "fix", None) else "")
            item = QTreeWidgetItem([f.severity, f.element_id or f.path, text])
            item.setForeground(0, QBrush(QColor(COLORS.get(f.severity, "#333"))))
            item.setData(0, Qt.ItemDataRole.UserRole, f.element_id)
            item.setToolTip(2, plain_tip(f"{f.path}: {text}"))
            self.addTopLevelItem(item)

    def _chosen(self, item: QTreeWidgetItem) -> None:
        element = item.data(0, Qt.ItemDataRole.UserRole)
        if element:
            self.element_chosen.emit(element)
