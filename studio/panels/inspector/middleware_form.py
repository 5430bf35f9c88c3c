"""An agent's middleware, in order (`middlewareList`): add (here or by dropping from the
palette on the agent), remove, reorder by drag or Up/Down; below, the selected one's settings
(prebuilt) or hooks (custom)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from graphspec.model import PREBUILT_MIDDLEWARE, CustomMiddleware, PrebuiltMiddleware
from studio.canvas.looks import middleware_look
from studio.edits import unique_id
from studio.i18n import translate
from studio.panels.inspector.hooks_form import HooksForm
from studio.panels.inspector.host import Host, buttons
from studio.panels.inspector.settings_form import SettingsForm


class MiddlewareEditor(QWidget):
    def __init__(self, host: Host, owner: str, get: Callable[[], list[Any]], tools: Callable[[], list[str]],
                 put: Callable[[list[Any], str | bool, str], bool]) -> None:  # fmt: skip
        super().__init__()
        self.setObjectName("middlewareEditor")
        self.host, self.get, self.put = host, get, put
        self.key = (owner, "middleware")
        middleware = get()
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.list = QListWidget()
        self.list.setObjectName("middlewareList")
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.list.setDefaultDropAction(Qt.DropAction.MoveAction)
        no_hooks = translate("panels.inspector.middleware_form", "no hooks")
        for i, mw in enumerate(middleware):
            look = middleware_look(mw)
            item = QListWidgetItem(f"{i + 1}. {look.name}  —  {', '.join(look.hooks) or no_hooks}")
            item.setData(Qt.ItemDataRole.UserRole, i)
            item.setToolTip(
                translate(
                    "panels.inspector.middleware_form",
                    "drag to reorder: middleware run in this order (after_* hooks in reverse)",
                )
            )
            self.list.addItem(item)
        self.list.setMaximumHeight(22 * max(len(middleware), 1) + 8)
        self.list.model().rowsMoved.connect(lambda *_: self._dragged())
        box.addWidget(self.list)
        add = QWidget()
        line = QHBoxLayout(add)
        line.setContentsMargins(0, 0, 0, 0)
        self.choice = QComboBox()
        self.choice.setObjectName("middlewareAddCombo")
        for name in [*PREBUILT_MIDDLEWARE, "custom"]:
            self.choice.addItem(name.replace("_", " "), name)
        line.addWidget(self.choice, 1)
        button = QPushButton(translate("panels.inspector.middleware_form", "Add"))
        button.setObjectName("middlewareAdd")
        button.clicked.connect(lambda: self._add(self.choice.currentData()))
        line.addWidget(button)
        box.addWidget(add)
        box.addWidget(buttons(("middlewareUp", "Up", lambda: self._move(-1)),
                              ("middlewareDown", "Down", lambda: self._move(1)),
                              ("middlewareRemove", "Remove", self._remove)))  # fmt: skip
        row = min(host.memory.get(self.key, 0), len(middleware) - 1)
        if row >= 0:
            self.list.setCurrentRow(row)
            box.addWidget(self._detail(row, middleware[row], tools()))
        self.list.currentRowChanged.connect(self._selected)

    def _selected(self, row: int) -> None:
        if row >= 0 and row != self.host.memory.get(self.key):
            self.host.memory[self.key] = row
            self.host.rebuild()

    def _current(self, row: int) -> Callable[[], Any]:
        return lambda: self.get()[row]

    def _detail(self, row: int, mw: Any, tools: list[str]) -> QWidget:
        if isinstance(mw, PrebuiltMiddleware):
            return SettingsForm(self.host, self._current(row), tools,
                                lambda settings: self._change(row, False, settings=settings))  # fmt: skip
        return HooksForm(
            self.host,
            self._current(row),
            lambda changes, merge: self._change(row, merge, **changes),
        )

    def _change(self, row: int, merge: str | bool, **changes: Any) -> bool:
        middleware = list(self.get())
        if not 0 <= row < len(middleware):
            return False
        old = middleware[row]
        try:
            middleware[row] = type(old).model_validate({**old.model_dump(), **changes})
        except ValueError as exc:
            self.host.say(
                translate("panels.inspector.middleware_form", "middleware {name}: {exc}").format(
                    name=old.name, exc=exc
                )
            )
            return False
        what = ", ".join(changes)
        return self.put(middleware, merge if isinstance(merge, bool) else f"middleware[{row}].{merge}",
                        f"Change {what} of {old.name}")  # fmt: skip

    def _add(self, name: str) -> None:
        middleware = list(self.get())
        if name == "custom":
            mw: Any = CustomMiddleware(
                kind="custom", name=unique_id("custom", {m.name for m in middleware})
            )
        else:
            mw = PrebuiltMiddleware(kind="prebuilt", name=name)
        self.host.memory[self.key] = len(middleware)
        self.put([*middleware, mw], False, f"Add {mw.name}")

    def _remove(self) -> None:
        middleware = list(self.get())
        row = self.list.currentRow()
        if 0 <= row < len(middleware):
            gone = middleware.pop(row)
            self.host.memory[self.key] = max(row - 1, 0)
            self.put(middleware, False, f"Remove {gone.name}")

    def _reorder(self, order: list[int]) -> None:
        middleware = self.get()
        if sorted(order) == list(range(len(middleware))) and order != sorted(order):
            row = (
                order.index(self.host.memory.get(self.key, 0))
                if self.host.memory.get(self.key, 0) in order
                else 0
            )
            self.host.memory[self.key] = row
            self.put(
                [middleware[i] for i in order],
                False,
                translate("panels.inspector.middleware_form", "Reorder middleware"),
            )

    def _dragged(self) -> None:
        self._reorder(
            [self.list.item(r).data(Qt.ItemDataRole.UserRole) for r in range(self.list.count())]
        )

    def _move(self, delta: int) -> None:
        row = self.list.currentRow()
        order = list(range(self.list.count()))
        if 0 <= row < len(order) and 0 <= row + delta < len(order):
            order[row], order[row + delta] = order[row + delta], order[row]
            self.host.memory[self.key] = row
            self._reorder(order)
            self.host.memory[self.key] = row + delta
