"""The Threads dock: the database's threads, rename and delete."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QMessageBox,
    QWidget,
)

from studio.i18n import QT_TRANSLATE_NOOP, translate
from studio.item_menu import SEPARATOR, Entries, Entry, copy_entry, item_menu
from studio.run.widgets import (
    button,
    rows_view,
    vbox,
)


class ThreadsPanel(QWidget):
    """The database's threads: name, created, last step, status; rename and delete."""

    chosen = Signal(str)  # thread id
    renamed = Signal(str, str)  # thread id, new name
    delete_requested = Signal(str)  # thread id, after the user confirmed
    COLUMNS = [
        QT_TRANSLATE_NOOP("headers", "Name"),
        QT_TRANSLATE_NOOP("headers", "Created"),
        QT_TRANSLATE_NOOP("headers", "Last step"),
        QT_TRANSLATE_NOOP("headers", "Status"),
    ]
    NAME_WIDTH = 120
    """The widest the Name column grows to fit a name."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("threadsPanel")
        self.model = QStandardItemModel(0, len(self.COLUMNS))
        self.model.setHorizontalHeaderLabels([translate("headers", c) for c in self.COLUMNS])
        self.model.itemChanged.connect(self._edited)
        self.list = rows_view("threadList", self.model, QAbstractItemView.SelectionMode.SingleSelection,
                               QAbstractItemView.EditTrigger.EditKeyPressed)  # fmt: skip
        self.list.setRootIsDecorated(False)
        for col, width in enumerate((self.NAME_WIDTH, 130, 64)):
            self.list.setColumnWidth(col, width)
        self.list.clicked.connect(lambda index: self._clicked(index))
        item_menu(self.list, self._row_menu)
        self.rename = button(
            "renameThreadButton",
            translate("run.threads_panel", "Rename"),
            self._rename,
            tip=translate(
                "run.threads_panel", "Change the name shown (the checkpoints keep their thread id)"
            ),
        )
        self.delete = button(
            "deleteThreadButton",
            translate("run.threads_panel", "Delete"),
            self._delete,
            tip=translate("run.threads_panel", "Delete the thread and all its checkpoints"),
        )
        layout = vbox(self)
        layout.addWidget(self.list)
        row = QHBoxLayout()
        row.addWidget(self.rename)
        row.addWidget(self.delete)
        row.addStretch()
        layout.addLayout(row)
        self.ids: list[str] = []
        self.confirm_box: QMessageBox | None = None
        self._filling = False

    def show_threads(self, rows: list[tuple[str, str, str, str, str]], current: str) -> None:
        """rows: (thread id, name, created, last step, status)."""
        self._filling = True
        self.model.removeRows(0, self.model.rowCount())
        self.ids = [r[0] for r in rows]
        for thread_id, name, created, step, status in rows:
            items = [QStandardItem(text) for text in (name, created, step, status)]
            for c, item in enumerate(items):
                item.setEditable(c == 0)
                item.setToolTip(
                    translate("run.threads_panel", "thread id {thread_id}").format(
                        thread_id=thread_id
                    )
                )
            self.model.appendRow(items)
        self._filling = False
        # name and date as wide as they are (a long name to a bound): both in view in a narrow
        # dock (Debug's at 1280×720), where fixed widths cut the date
        for col in (0, 1):
            self.list.resizeColumnToContents(col)
        self.list.setColumnWidth(0, min(self.list.columnWidth(0), self.NAME_WIDTH))
        if current in self.ids:
            self.list.setCurrentIndex(self.model.index(self.ids.index(current), 0))
        self._set_buttons()

    def _set_buttons(self) -> None:
        ok = self.current() is not None
        self.rename.setEnabled(ok)
        self.delete.setEnabled(ok)

    def current(self) -> str | None:
        row = self.list.currentIndex().row()
        return self.ids[row] if 0 <= row < len(self.ids) else None

    def _clicked(self, index: QModelIndex) -> None:
        self._set_buttons()
        if 0 <= index.row() < len(self.ids):
            self.chosen.emit(self.ids[index.row()])

    def _row_menu(self, index: QModelIndex) -> Entries:
        if not 0 <= index.row() < len(self.ids):
            return []
        thread_id = self.ids[index.row()]
        self._set_buttons()
        return [
            Entry("threadShowAction", translate("run.threads_panel", "Show this thread"), lambda: self.chosen.emit(thread_id),
                  tip=translate("run.threads_panel", "Its checkpoints and channels; Run, Step and Continue go on it")),
            Entry("threadRenameAction", translate("run.threads_panel", "Rename"), self._rename, tip=self.rename.toolTip()),
            Entry("threadDeleteAction", translate("run.threads_panel", "Delete…"), self._delete, tip=self.delete.toolTip()),
            SEPARATOR,
            copy_entry("threadCopyIdAction", translate("run.threads_panel", "Copy thread id"), thread_id),
        ]  # fmt: skip

    def _rename(self) -> None:
        row = self.list.currentIndex().row()
        if 0 <= row < len(self.ids):
            self.list.edit(self.model.index(row, 0))

    def _edited(self, item: QStandardItem) -> None:
        if self._filling or item.column() != 0 or not 0 <= item.row() < len(self.ids):
            return
        name = " ".join(item.text().split())[:80]  # one line, bounded
        self.renamed.emit(self.ids[item.row()], name)

    def _delete(self) -> None:
        thread_id = self.current()
        if thread_id is None:
            return
        box = QMessageBox(QMessageBox.Icon.Warning, translate("run.threads_panel", "Delete thread"),
                          translate("run.threads_panel", "Delete thread {thread_id} and all its checkpoints?").format(thread_id=thread_id),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, self)  # fmt: skip
        box.setObjectName("deleteThreadDialog")
        box.setTextFormat(Qt.TextFormat.PlainText)  # thread ids are user text
        box.accepted.connect(lambda: self.delete_requested.emit(thread_id))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): nothing blocks
        self.confirm_box = box
