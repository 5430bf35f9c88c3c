"""The state-schema editor (objectName `stateSchemaEditor`): keys, types, reducers, each key's
default (what reading it gives before anything writes it) and input/output/private flags.

Choosing a type gives the key that type's empty value as its default (unless it has one of its
own that fits), so a counter drawn from scratch runs on `{}`; `messages` also takes the
add_messages reducer, as a conversation needs."""

from __future__ import annotations

import json
from typing import Any, get_args

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from graphspec.model import Reducer, StateKey, StateType
from graphspec.state_types import STATE_TYPES
from studio import edits
from studio.editor import Editor
from studio.edits.base import unique_id
from studio.i18n import translate
from studio.item_menu import SEPARATOR, Entries, Entry, item_menu

COLUMNS = ["Key", "Type", "Reducer", "Input", "Output", "Private", "Default", "Description"]
NAME, TYPE, REDUCER, INPUT, OUTPUT, PRIVATE, DEFAULT, DESCRIPTION = range(8)
TYPES, REDUCERS = get_args(StateType), get_args(Reducer)


def typed(key: StateKey, type_: str) -> StateKey:
    """`key` as a key of type `type_`: its default becomes that type's empty value unless it had
    one of its own that fits, and a `messages` key takes the add_messages reducer (and gives it
    back when it becomes another type)."""
    new = STATE_TYPES[type_]
    changes: dict[str, Any] = {"type": type_}
    if key.default is None or key.default == STATE_TYPES[key.type].zero():
        changes["default"] = new.zero()
    elif not new.fits(key.default):
        changes["default"] = None
    if type_ == "messages" and key.reducer == "none":
        changes["reducer"] = "add_messages"
    elif type_ != "messages" and key.type == "messages" and key.reducer == "add_messages":
        changes["reducer"] = "none"  # it came with the type: it goes with it
    return StateKey.model_validate({**key.model_dump(), **changes})


class StatePanel(QWidget):
    def __init__(self, editor: Editor) -> None:
        super().__init__()
        self.setObjectName("stateSchemaEditor")
        self.editor = editor
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("stateTable")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setVisible(False)
        self.table.setColumnWidth(NAME, 110)
        for col in (INPUT, OUTPUT, PRIVATE):
            self.table.setColumnWidth(col, 52)
        self.table.itemChanged.connect(self._item_changed)
        item_menu(self.table, self._row_menu)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.table)
        row = QHBoxLayout()
        for name, text, slot in (("addKeyButton", translate("panels.state_panel", "Add key"), self.add_key),
                                 ("removeKeyButton", "Remove", self.remove_key),
                                 ("keyUpButton", "Up", lambda: self.move_key(-1)),
                                 ("keyDownButton", "Down", lambda: self.move_key(1))):  # fmt: skip
            button = QPushButton(text)
            button.setObjectName(name)
            button.clicked.connect(slot)
            row.addWidget(button)
        row.addStretch()
        layout.addLayout(row)
        editor.document.changed.connect(
            lambda f: self.refresh() if f & {"state", "inputs"} else None
        )
        editor.document.reset.connect(self.refresh)
        self.refresh()

    @property
    def keys(self) -> list[StateKey]:
        return list(self.editor.document.spec.state)

    def refresh(self) -> None:
        spec = self.editor.document.spec
        self.table.blockSignals(True)
        self.table.setRowCount(len(spec.state))
        for r, key in enumerate(spec.state):
            self.table.setItem(r, NAME, QTableWidgetItem(key.name))
            self.table.setCellWidget(r, TYPE, self._combo(TYPES, key.type, r, "type"))
            self.table.setCellWidget(r, REDUCER, self._combo(REDUCERS, key.reducer, r, "reducer"))
            for col, value in ((INPUT, key.input), (OUTPUT, key.output)):
                item = QTableWidgetItem()
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked if value else Qt.CheckState.Unchecked)
                self.table.setItem(r, col, item)
            private = QTableWidgetItem(
                translate("panels.state_panel", "yes") if not (key.input or key.output) else ""
            )
            private.setFlags(Qt.ItemFlag.ItemIsEnabled)
            private.setToolTip(
                translate("panels.state_panel", "a key that is neither input nor output is private")
            )
            self.table.setItem(r, PRIVATE, private)
            default = QTableWidgetItem("" if key.default is None else json.dumps(key.default))
            default.setToolTip(StateKey.model_fields["default"].description or "")
            if key.managed:
                default.setFlags(Qt.ItemFlag.ItemIsEnabled)  # the runtime fills it in
            self.table.setItem(r, DEFAULT, default)
            self.table.setItem(r, DESCRIPTION, QTableWidgetItem(key.description))
        self.table.blockSignals(False)

    def _combo(self, values: tuple[str, ...], current: str, row: int, field: str) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(f"state_{field}_{row}")
        combo.addItems(list(values))
        combo.setCurrentText(current)
        if field == "type":
            combo.currentTextChanged.connect(lambda text: self.set_type(row, text))
        else:
            combo.currentTextChanged.connect(lambda text: self.set_key(row, **{field: text}))
        return combo

    # -------------------------------------------------------------- edits

    def set_key(self, row: int, **changes: Any) -> bool:
        keys = self.keys
        if not 0 <= row < len(keys):
            return False
        try:
            keys[row] = StateKey.model_validate({**keys[row].model_dump(), **changes})
        except ValueError as exc:
            self.editor.failed.emit(str(exc).splitlines()[0])
            self.refresh()
            return False
        ok = self.editor.push(
            edits.SetStateKeysEdit,
            keys,
            translate("panels.state_panel", "Change state key {name}").format(name=keys[row].name),
        )
        if not ok:
            self.refresh()
        return ok

    def set_type(self, row: int, type_: str) -> bool:
        """The key's type, with the default and reducer that type needs (see the module)."""
        keys = self.keys
        if not 0 <= row < len(keys):
            return False
        new = typed(keys[row], type_)
        return self.set_key(row, **new.model_dump(exclude={"name"}))

    def _item_changed(self, item: QTableWidgetItem) -> None:
        row, col = item.row(), item.column()
        if col == NAME:
            self.set_key(row, name=item.text().strip())
        elif col == DESCRIPTION:
            self.set_key(row, description=item.text())
        elif col in (INPUT, OUTPUT):
            self.set_key(
                row,
                **{
                    "input" if col == INPUT else "output": item.checkState()
                    == Qt.CheckState.Checked
                },
            )
        elif col == DEFAULT:
            self.set_default(self.keys[row].name, item.text())

    def set_default(self, name: str, text: str) -> bool:
        """Set (or clear, with empty text) the key's default: JSON, or else the text itself."""
        try:
            value = json.loads(text) if text.strip() else None
        except ValueError:
            value = text
        rows = [i for i, k in enumerate(self.keys) if k.name == name]
        return bool(rows) and self.set_key(rows[0], default=value)

    def _row_menu(self, index) -> Entries:
        row, count = index.row(), len(self.keys)
        if not 0 <= row < count:
            return []
        return [
            Entry("stateRemoveKeyAction", translate("panels.state_panel", "Remove {name}").format(name=self.keys[row].name), self.remove_key),
            Entry("stateKeyUpAction", translate("panels.state_panel", "Move up"), lambda: self.move_key(-1), enabled=row > 0),
            Entry("stateKeyDownAction", translate("panels.state_panel", "Move down"), lambda: self.move_key(1),
                  enabled=row < count - 1),
            SEPARATOR,
            Entry("stateAddKeyAction", translate("panels.state_panel", "Add key"), self.add_key),
        ]  # fmt: skip

    def add_key(self) -> bool:
        name = unique_id("key", {k.name for k in self.keys})
        return self.editor.push(
            edits.SetStateKeysEdit,
            [*self.keys, StateKey(name=name)],
            translate("panels.state_panel", "Add state key {name}").format(name=name),
        )

    def remove_key(self) -> bool:
        row = self.table.currentRow()
        keys = self.keys
        if not 0 <= row < len(keys):
            return False
        gone = keys.pop(row)
        return self.editor.push(
            edits.SetStateKeysEdit,
            keys,
            translate("panels.state_panel", "Remove state key {name}").format(name=gone.name),
        )

    def move_key(self, delta: int) -> bool:
        row = self.table.currentRow()
        keys = self.keys
        if not (0 <= row < len(keys) and 0 <= row + delta < len(keys)):
            return False
        keys[row], keys[row + delta] = keys[row + delta], keys[row]
        ok = self.editor.push(
            edits.SetStateKeysEdit, keys, translate("panels.state_panel", "Reorder state keys")
        )
        self.table.setCurrentCell(row + delta, NAME)
        return ok
