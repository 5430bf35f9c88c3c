"""A chat model's settings: provider (`modelProviderCombo`), model name (`modelNameEdit`),
params (`modelParamsTable`) and, for the offline `scripted` provider, its responses."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from graphspec.model import ModelSettings
from graphspec.providers import PROVIDER_PACKAGES, installed
from studio.i18n import translate
from studio.panels.inspector.host import Host, buttons, json_value, line_edit
from studio.panels.inspector.responses_editor import ResponsesEditor


def available_providers() -> list[str]:
    """`scripted` (offline) and the langchain providers whose package is installed here."""
    if not installed("langchain"):
        return ["scripted"]
    return ["scripted", *sorted(p for p, pkg in PROVIDER_PACKAGES.items() if installed(pkg))]


class ModelForm(QWidget):
    """Edits one ModelSettings; `put(settings, field)` commits (field names what was typed, so
    typing in one field merges into one undo step)."""

    def __init__(self, host: Host, owner: str, get: Callable[[], ModelSettings],
                 put: Callable[[ModelSettings, str | bool], bool],
                 tool_names: Callable[[], list[str]] = list) -> None:  # fmt: skip
        super().__init__()
        self.setObjectName("modelForm")
        self.host, self.get, self.put = host, get, put
        model = get()
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.provider = QComboBox()
        self.provider.setObjectName("modelProviderCombo")
        choices = available_providers()
        for name in choices:
            self.provider.addItem(name, name)
        if model.provider not in choices:  # saved elsewhere: keep it visible, say it is missing
            self.provider.addItem(
                translate("panels.inspector.model_form", "{provider} (not installed)").format(
                    provider=model.provider
                ),
                model.provider,
            )
        self.provider.setCurrentIndex(self.provider.findData(model.provider))
        self.provider.setToolTip(translate("panels.inspector.model_form", "scripted replies offline from the responses below; the others are "
                                 "the langchain providers installed here"))  # fmt: skip
        self.provider.activated.connect(
            lambda _i: self._set(False, provider=self.provider.currentData())
        )
        form.addRow(translate("panels.inspector.model_form", "Provider"), self.provider)
        name = line_edit("modelNameEdit", model.model, lambda t: self._set("model", model=t.strip()),
                         host.say, "e.g. gpt-4o-mini" if model.provider != "scripted" else "optional")  # fmt: skip
        form.addRow(translate("panels.inspector.model_form", "Model"), name)
        self.params = QTableWidget(0, 2)
        self.params.setObjectName("modelParamsTable")
        self.params.setHorizontalHeaderLabels(
            [
                translate("panels.inspector.model_form", "param"),
                translate("panels.inspector.model_form", "value (JSON)"),
            ]
        )
        self.params.horizontalHeader().setStretchLastSection(True)
        self.params.verticalHeader().hide()
        for key, value in model.params.items():
            self._param_row(key, json.dumps(value))
        self.params.setMaximumHeight(24 + 26 * max(len(model.params), 1) + 4)
        self.params.itemChanged.connect(lambda _item: self._params_changed())
        box = QVBoxLayout()
        box.addWidget(self.params)
        box.addWidget(buttons(("modelParamAdd", "Add param", self._add_param),
                              ("modelParamRemove", "Remove", self._remove_param)))  # fmt: skip
        form.addRow(translate("panels.inspector.model_form", "Params"), box)
        if model.provider == "scripted":
            form.addRow(ResponsesEditor(host, owner, lambda: self.get().responses,
                                        lambda r, f: self._set(f, responses=r), tool_names))  # fmt: skip

    def _set(self, merge: str | bool, **changes: Any) -> bool:
        data = self.get().model_dump()
        data.update(changes)
        try:
            model = ModelSettings.model_validate(data)
        except ValueError as exc:
            self.host.say(translate("panels.inspector.model_form", "model: {exc}").format(exc=exc))
            return False
        return self.put(model, merge)

    def _param_row(self, key: str, value: str) -> None:
        row = self.params.rowCount()
        self.params.insertRow(row)
        self.params.setItem(row, 0, QTableWidgetItem(key))
        self.params.setItem(row, 1, QTableWidgetItem(value))

    def _params_changed(self) -> None:
        params: dict[str, Any] = {}
        for row in range(self.params.rowCount()):
            key = (self.params.item(row, 0).text() if self.params.item(row, 0) else "").strip()
            value = self.params.item(row, 1).text() if self.params.item(row, 1) else ""
            if key:
                params[key] = json_value(value)
        if params != self.get().params:
            self._set(False, params=params)

    def _add_param(self) -> None:
        taken = set(self.get().params)
        key = next(f"param_{i}" for i in range(1, 1000) if f"param_{i}" not in taken)
        self._set(False, params={**self.get().params, key: 0})

    def _remove_param(self) -> None:
        row = self.params.currentRow()
        keys = list(self.get().params)
        if 0 <= row < len(keys):
            self._set(False, params={k: v for k, v in self.get().params.items() if k != keys[row]})
