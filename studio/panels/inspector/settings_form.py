"""A prebuilt middleware's settings (`middlewareSettingsForm`), one field per constructor
parameter (`graphspec.middleware_settings`); required ones are marked with *. An empty field
means the constructor's default. `interrupt_on` is a checkbox per tool of the agent."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from graphspec.middleware_settings import Setting, settings_for
from graphspec.model import PrebuiltMiddleware
from studio.i18n import translate
from studio.panels.inspector.host import Host, code_field, line_edit

REQUIRED_STYLE = "font-weight: bold"


def _shown(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value)


class SettingsForm(QWidget):
    def __init__(self, host: Host, get: Callable[[], PrebuiltMiddleware], tools: list[str],
                 put: Callable[[dict[str, Any]], bool]) -> None:  # fmt: skip
        super().__init__()
        self.setObjectName("middlewareSettingsForm")
        self.host, self.get, self.put = host, get, put
        mw = get()
        form = QFormLayout(self)
        form.setContentsMargins(12, 0, 0, 0)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        settings = settings_for(mw.name)
        if not settings:
            form.addRow(QLabel(translate("panels.inspector.settings_form", "No settings.") if mw.name != "tool_error_to_message"
                               else translate("panels.inspector.settings_form", "The engine has no class for this middleware yet.")))  # fmt: skip
        for setting in settings:
            label = QLabel(setting.name.replace("_", " ") + (" *" if setting.required else ""))
            label.setObjectName(f"settingLabel_{setting.name}")
            tip = (
                "required" if setting.required else f"default: {_shown(setting.default) or 'none'}"
            )
            label.setToolTip(tip)
            if setting.required:
                label.setStyleSheet(REQUIRED_STYLE)
            field = self._field(setting, tools)
            field.setToolTip(tip)
            form.addRow(label, field)
        if any(s.required for s in settings):
            note = QLabel(translate("panels.inspector.settings_form", "* required"))
            note.setStyleSheet("color: #6B7280")
            form.addRow(note)

    def _set(self, name: str, value: Any) -> bool:
        before = self.get().settings
        settings = dict(before)
        if value is None or value == "":
            settings.pop(name, None)
        else:
            settings[name] = value
        if settings == before:
            return True
        return self.put(settings)

    def _field(self, s: Setting, tools: list[str]) -> QWidget:
        name = f"setting_{s.name}"
        value = self.get().settings.get(s.name)
        say = self.host.say
        if s.name == "interrupt_on" and tools:
            return self._tool_checks(s, tools, value if isinstance(value, dict) else {})
        if s.kind == "bool":
            box = QCheckBox()
            box.setObjectName(name)
            box.setChecked(bool(s.default if value is None else value))
            box.toggled.connect(lambda on: self._set(s.name, None if on == s.default else on))
            return box
        if s.kind == "choice":
            combo = QComboBox()
            combo.setObjectName(name)
            combo.addItems(list(s.choices))
            combo.setCurrentText(str(value if value is not None else s.default))
            combo.activated.connect(
                lambda _i: self._set(
                    s.name, None if combo.currentText() == s.default else combo.currentText()
                )
            )
            return combo
        if s.kind in ("int", "float"):

            def number(text: str) -> bool:
                text = text.strip()
                if not text:
                    return self._set(s.name, None)
                try:
                    parsed = int(text) if s.kind == "int" else float(text)
                except ValueError:
                    say(
                        translate(
                            "panels.inspector.settings_form", "{name} {name2}: give a{value}"
                        ).format(
                            name=self.get().name,
                            name2=s.name,
                            value="n integer" if s.kind == "int" else " number",
                        )
                    )
                    return False
                return self._set(s.name, parsed)

            return line_edit(name, _shown(value), number, say, _shown(s.default) or "none")
        if s.kind == "tools":
            return line_edit(name, ", ".join(value or []),
                             lambda t: self._set(s.name, [x.strip() for x in t.split(",") if x.strip()] or None),
                             say, translate("panels.inspector.settings_form", "all tools; or names, comma-separated"))  # fmt: skip
        if s.kind in ("str", "model"):
            hint = (
                '"provider:model", e.g. scripted:summary'
                if s.kind == "model"
                else _shown(s.default)[:60]
            )
            if s.kind == "str" and isinstance(s.default, str) and "\n" in s.default:
                return code_field(
                    name, "text", value or "", lambda t: self._set(s.name, t or None), say
                )
            return line_edit(name, _shown(value), lambda t: self._set(s.name, t or None), say, hint)

        def parsed(text: str) -> None:
            self._set(s.name, json.loads(text) if text.strip() else None)

        field = code_field(name, "json", _shown(value), parsed, say)
        field.editor.setMaximumHeight(56)
        field.editor.setPlaceholderText(
            _shown(s.default)
            or translate("panels.inspector.settings_form", 'JSON, e.g. {"messages": 40}')
        )
        return field

    def _tool_checks(self, s: Setting, tools: list[str], value: dict[str, Any]) -> QWidget:
        page = QWidget()
        page.setObjectName(f"setting_{s.name}")
        box = QVBoxLayout(page)
        box.setContentsMargins(0, 0, 0, 0)
        for tool in tools:
            check = QCheckBox(
                translate("panels.inspector.settings_form", "review {tool}").format(tool=tool)
            )
            check.setObjectName(f"interrupt_on_{tool}")
            check.setChecked(value.get(tool, False) is not False)

            def toggled(on: bool, tool: str = tool) -> None:
                current = dict(self.get().settings.get(s.name) or {})
                if on:
                    current[tool] = (
                        current.get(tool) if current.get(tool) not in (None, False) else True
                    )
                else:
                    current.pop(tool, None)
                self._set(s.name, current or None)

            check.toggled.connect(toggled)
            box.addWidget(check)
        return page
