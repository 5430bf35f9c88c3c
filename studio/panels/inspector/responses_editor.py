"""The scripted model's responses (`scriptedResponsesEditor`): a list of AI messages, each
with its text and tool calls (name, JSON args, id); the model replies with them in order."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from graphspec.model import ScriptedMessage, ScriptedToolCall
from studio.i18n import translate
from studio.panels.inspector.host import Host, buttons, code_field


def summary(i: int, message: ScriptedMessage) -> str:
    calls = ", ".join(f"{c.name}({json.dumps(c.args)})" for c in message.tool_calls)
    text = message.content.replace("\n", " ")[:40]
    return (
        f"{i + 1}. " + " · ".join(p for p in (text and f"“{text}”", calls and f"→ {calls}") if p)
        or f"{i + 1}. (empty)"
    )


class ResponsesEditor(QWidget):
    """`tool_names` gives the names of the tools the model may call, as they are now: a new tool
    call calls the first one this response does not call yet."""

    def __init__(self, host: Host, owner: str, get: Callable[[], list[ScriptedMessage]],
                 put: Callable[[list[ScriptedMessage], str | bool], bool],
                 tool_names: Callable[[], list[str]] = list) -> None:  # fmt: skip
        super().__init__()
        self.setObjectName("scriptedResponsesEditor")
        self.host, self.get, self.put, self.tool_names = host, get, put, tool_names
        self.key = (owner, "response")
        responses = get()
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(
            QLabel(
                translate(
                    "panels.inspector.responses_editor",
                    "Scripted responses (the model's replies, in order)",
                )
            )
        )
        self.list = QListWidget()
        self.list.setObjectName("responsesList")
        self.list.addItems([summary(i, m) for i, m in enumerate(responses)])
        self.list.setMaximumHeight(22 * max(len(responses), 1) + 8)
        box.addWidget(self.list)
        box.addWidget(buttons(("responseAdd", "Add response", self._add),
                              ("responseRemove", "Remove", self._remove)))  # fmt: skip
        row = min(host.memory.get(self.key, 0), len(responses) - 1)
        if row >= 0:
            self.list.setCurrentRow(row)
            box.addWidget(self._detail(row, responses[row]))
        self.list.currentRowChanged.connect(self._selected)

    def _selected(self, row: int) -> None:
        if row >= 0 and row != self.host.memory.get(self.key):
            self.host.memory[self.key] = row
            self.host.rebuild()  # show the chosen response's fields

    def _detail(self, row: int, message: ScriptedMessage) -> QWidget:
        page = QWidget()
        box = QVBoxLayout(page)
        box.setContentsMargins(12, 0, 0, 0)
        box.addWidget(
            QLabel(
                translate("panels.inspector.responses_editor", "Response {value}: text").format(
                    value=row + 1
                )
            )
        )
        box.addWidget(code_field("responseContent", "text", message.content,
                                 lambda t: self._change(row, f"responses[{row}].content", content=t), self.host.say))  # fmt: skip
        box.addWidget(QLabel(translate("panels.inspector.responses_editor", "Tool calls")))
        self.calls = QTableWidget(0, 3)
        self.calls.setObjectName("toolCallsTable")
        self.calls.setHorizontalHeaderLabels(
            [
                translate("panels.inspector.responses_editor", "tool"),
                translate("panels.inspector.responses_editor", "args (JSON)"),
                translate("panels.inspector.responses_editor", "id"),
            ]
        )
        self.calls.horizontalHeader().setStretchLastSection(True)
        self.calls.verticalHeader().hide()
        for call in message.tool_calls:
            r = self.calls.rowCount()
            self.calls.insertRow(r)
            for c, text in enumerate((call.name, json.dumps(call.args), call.id)):
                self.calls.setItem(r, c, QTableWidgetItem(text))
        self.calls.setMaximumHeight(24 + 26 * max(len(message.tool_calls), 1) + 4)
        self.calls.itemChanged.connect(lambda _i: self._calls_changed(row))
        box.addWidget(self.calls)
        box.addWidget(buttons(("toolCallAdd", "Add tool call", lambda: self._add_call(row)),
                              ("toolCallRemove", "Remove call", lambda: self._remove_call(row))))  # fmt: skip
        return page

    def _change(self, row: int, merge: str | bool, **changes: Any) -> bool:
        responses = list(self.get())
        if not 0 <= row < len(responses):
            return False
        try:
            responses[row] = ScriptedMessage.model_validate(
                {**responses[row].model_dump(), **changes}
            )
        except ValueError as exc:
            self.host.say(
                translate("panels.inspector.responses_editor", "response {value}: {exc}").format(
                    value=row + 1, exc=exc
                )
            )
            return False
        return self.put(responses, merge)

    def _calls_changed(self, row: int) -> None:
        calls = []
        for r in range(self.calls.rowCount()):
            name, args, ident = (
                self.calls.item(r, c).text() if self.calls.item(r, c) else "" for c in range(3)
            )
            try:
                parsed = json.loads(args) if args.strip() else {}
            except ValueError as exc:
                self.host.say(
                    translate(
                        "panels.inspector.responses_editor",
                        "response {value}, tool call {value2}: args are not JSON ({exc})",
                    ).format(value=row + 1, value2=r + 1, exc=exc)
                )
                return
            if not isinstance(parsed, dict):
                self.host.say(
                    translate(
                        "panels.inspector.responses_editor",
                        "response {value}, tool call {value2}: args must be a JSON object",
                    ).format(value=row + 1, value2=r + 1)
                )
                return
            calls.append({"name": name.strip(), "args": parsed, "id": ident.strip()})
        self._change(row, False, tool_calls=calls)

    def _add(self) -> None:
        responses = [*self.get(), ScriptedMessage(content="")]
        self.host.memory[self.key] = len(responses) - 1
        self.put(responses, False)

    def _remove(self) -> None:
        responses = list(self.get())
        row = self.list.currentRow()
        if 0 <= row < len(responses):
            del responses[row]
            self.host.memory[self.key] = max(row - 1, 0)
            self.put(responses, False)

    def _add_call(self, row: int) -> None:
        called = {c.name for c in self.get()[row].tool_calls}
        names = self.tool_names() or ["tool"]
        name = next((n for n in names if n not in called), names[0])
        calls = [*self.get()[row].tool_calls, ScriptedToolCall(name=name, args={})]
        self._change(row, False, tool_calls=calls)

    def _remove_call(self, row: int) -> None:
        calls = list(self.get()[row].tool_calls)
        r = self.calls.currentRow()
        if 0 <= r < len(calls):
            del calls[r]
            self._change(row, False, tool_calls=calls)
