"""The problems panel (objectName `problemsPanel`): validator findings; click one to select it.
A finding the studio can fix by itself (`studio.quick_fixes`) has a Fix button (`quickFix_<row>`)
in its row."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QHeaderView, QPushButton, QTreeWidget, QTreeWidgetItem

from studio.i18n import translate
from studio.item_menu import Entries, Entry, copy_entry, item_menu
from studio.plain import plain_tip
from studio.quick_fixes import quick_fix

COLORS = {"error": "#C62828", "warning": "#B26A00"}


class ProblemsPanel(QTreeWidget):
    element_chosen = Signal(str)
    fix_chosen = Signal(object)
    """A Fix button was clicked: the fix's apply(editor)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("problemsPanel")
        self.setHeaderLabels(
            [
                "",
                translate("panels.problems_panel", "Element"),
                translate("panels.problems_panel", "Problem"),
                "",
            ]
        )
        self.setRootIsDecorated(False)
        self.setAlternatingRowColors(True)
        self.setColumnWidth(0, 70)
        self.setColumnWidth(1, 150)
        header = self.header()
        header.setStretchLastSection(False)  # the problem's text takes the room, not the Fix
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        self.itemClicked.connect(self._chosen)
        self.itemActivated.connect(self._chosen)
        item_menu(self, self._row_menu)

    def show_findings(self, findings: list) -> None:
        self.clear()
        for f in findings:
            text = f.message + (f"  Fix: {f.fix}" if getattr(f, "fix", None) else "")
            item = QTreeWidgetItem([f.severity, f.element_id or f.path, text])
            item.setForeground(0, QBrush(QColor(COLORS.get(f.severity, "#333"))))
            item.setData(0, Qt.ItemDataRole.UserRole, f.element_id)
            item.setToolTip(2, plain_tip(f"{f.path}: {text}"))
            self.addTopLevelItem(item)
            fix = quick_fix(f)
            if fix is not None:
                label, apply = fix
                button = QPushButton(translate("panels.problems_panel", "Fix"))
                button.setObjectName(f"quickFix_{self.topLevelItemCount() - 1}")
                button.setToolTip(plain_tip(label))
                button.clicked.connect(lambda _=False, a=apply: self.fix_chosen.emit(a))
                self.setItemWidget(item, 3, button)

    def _row_menu(self, index) -> Entries:
        item = self.itemFromIndex(index)
        if item is None:
            return []
        element = item.data(0, Qt.ItemDataRole.UserRole)
        return [
            Entry("problemShowAction", translate("panels.problems_panel", "Show it on the canvas"), lambda: self._chosen(item),
                  enabled=bool(element), tip=translate("panels.problems_panel", "Select the element and show it in the inspector")),
            copy_entry("problemCopyAction", translate("panels.problems_panel", "Copy problem"),
                       f"{item.text(0)}: {item.text(1)}: {item.text(2)}"),
        ]  # fmt: skip

    def _chosen(self, item: QTreeWidgetItem) -> None:
        element = item.data(0, Qt.ItemDataRole.UserRole)
        if element:
            self.element_chosen.emit(element)
