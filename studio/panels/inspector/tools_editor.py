"""An agent's or tools node's tools (`toolsEditor`): add, remove, and for the selected tool its
name, description, return_direct and code. The function a tool runs is the one its code
defines (the first `def`, unless the code still defines the one named before)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QCheckBox, QLabel, QListWidget, QVBoxLayout, QWidget

from graphspec.code_checks import defined_names
from graphspec.model import ToolSpec, call_text
from studio.edits import unique_id
from studio.i18n import translate
from studio.panels.inspector.host import (
    Host,
    buttons,
    code_field,
    indented_form,
    line_edit,
    problem_label,
    read_only,
    select_row,
)

NEW_TOOL = '''def {name}(text: str) -> str:
    """Say what the tool does: the model reads this."""
    return text
'''


def function_of(code: str, current: str | None) -> str | None:
    """The function a tool's code defines: `current` if still defined, else the first def."""
    import ast

    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return current  # kept as typed; the validator reports the syntax error
    if current and current in defined_names(tree):
        return current
    first = next(
        (s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))), None
    )
    return first or current


class ToolsEditor(QWidget):
    """`path` is the JSON path of the tools list (`$.agents[0].tools`): the selected tool's
    findings (a name export refuses, code that does not parse) show under its fields."""

    def __init__(self, host: Host, owner: str, get: Callable[[], list[ToolSpec]],
                 put: Callable[[list[ToolSpec], str | bool], bool], path: str = "") -> None:  # fmt: skip
        super().__init__()
        self.setObjectName("toolsEditor")
        self.host, self.get, self.put, self.path = host, get, put, path
        self.key = (owner, "tool")
        tools = get()
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.list = QListWidget()
        self.list.setObjectName("toolsList")
        direct = translate("panels.inspector.tools_editor", "  (returns directly)")
        for tool in tools:
            self.list.addItem(f"{tool.name}{direct if tool.return_direct else ''}")
        self.list.setMaximumHeight(22 * max(len(tools), 1) + 8)
        box.addWidget(self.list)
        box.addWidget(
            buttons(("toolAdd", "Add tool", self._add), ("toolRemove", "Remove", self._remove))
        )
        row = min(host.memory.get(self.key, 0), len(tools) - 1)
        if row >= 0:
            self.list.setCurrentRow(row)
            box.addWidget(self._detail(row, tools[row]))
        else:
            box.addWidget(QLabel(translate("panels.inspector.tools_editor", "No tools yet.")))
        self.list.currentRowChanged.connect(lambda row: select_row(self.host, self.key, row))

    def _detail(self, row: int, tool: ToolSpec) -> QWidget:
        page, form = indented_form()
        say = self.host.say
        if tool.call is not None:  # the tool a library call made, as it is: changed in the code
            form.addRow(
                translate("panels.inspector.tools_editor", "Name"), read_only("toolName", tool.name)
            )
            form.addRow(
                translate("panels.inspector.tools_editor", "Description"),
                read_only("toolDescription", tool.description),
            )
            form.addRow(translate("panels.inspector.tools_editor", "Call"), read_only("toolCall", call_text(tool), translate(
                "panels.inspector.tools_editor", "the call that makes the tool (its name and description are the tool's)")))  # fmt: skip
            if self.path:
                form.addRow(problem_label(f"{self.path}[{row}]"))
            return page
        form.addRow(
            translate("panels.inspector.tools_editor", "Name"),
            line_edit(
                "toolName", tool.name, lambda t: self._change(row, False, name=t.strip()), say
            ),
        )
        form.addRow(translate("panels.inspector.tools_editor", "Description"), line_edit("toolDescription", tool.description,
                                             lambda t: self._change(row, False, description=t), say,
                                             translate("panels.inspector.tools_editor", "what the model is told the tool does")))  # fmt: skip
        direct = QCheckBox(
            translate("panels.inspector.tools_editor", "return directly (its result ends the turn)")
        )
        direct.setObjectName("toolReturnDirect")
        direct.setChecked(tool.return_direct)
        direct.toggled.connect(lambda on: self._change(row, False, return_direct=on))
        form.addRow("", direct)
        if tool.import_path is not None:
            form.addRow(translate("panels.inspector.tools_editor", "Import"), line_edit("toolImport", tool.import_path,
                                            lambda t: self._change(row, False, import_path=t.strip()), say))  # fmt: skip
        else:
            form.addRow(translate("panels.inspector.tools_editor", "Code"), code_field("toolCode", "python", tool.code or "",
                                           lambda t: self._code(row, t), say))  # fmt: skip
        if self.path:
            form.addRow(problem_label(f"{self.path}[{row}]"))
        return page

    def _code(self, row: int, code: str) -> bool:
        tools = self.get()
        if not 0 <= row < len(tools):
            return False
        return self._change(
            row, f"tools[{row}].code", code=code, function=function_of(code, tools[row].function)
        )

    def _change(self, row: int, merge: str | bool, **changes: Any) -> bool:
        tools = list(self.get())
        if not 0 <= row < len(tools):
            return False
        try:
            tools[row] = ToolSpec.model_validate(
                {**tools[row].model_dump(exclude_none=True), **changes}
            )
        except ValueError as exc:
            self.host.say(
                translate("panels.inspector.tools_editor", "tool {name}: {first_error}").format(
                    name=tools[row].name, first_error=_first_error(exc)
                )
            )
            return False
        return self.put(tools, merge)

    def _add(self) -> None:
        tools = list(self.get())
        name = unique_id("my_tool", {t.name for t in tools})  # `tool` is a name export refuses
        tools.append(ToolSpec(name=name, code=NEW_TOOL.format(name=name), function=name))
        self.host.memory[self.key] = len(tools) - 1
        self.put(tools, False)

    def _remove(self) -> None:
        tools = list(self.get())
        row = self.list.currentRow()
        if 0 <= row < len(tools):
            del tools[row]
            self.host.memory[self.key] = max(row - 1, 0)
            self.put(tools, False)


def _first_error(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        first = errors(include_url=False)[0]
        return f"{'.'.join(str(p) for p in first['loc']) or 'value'}: {first['msg']}"
    return str(exc)
