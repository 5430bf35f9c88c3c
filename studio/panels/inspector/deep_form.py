"""The deep agent part of an agent's inspector (`deepAgentForm`): whether create_deep_agent
builds the agent, where its files live (state, the graph's store, or a folder under a root),
which tools wait for a human's review, and its subagents (add, remove, and for the selected one
its name, description and system prompt; its tools and model are the agent's unless the file
says otherwise)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLabel,
    QListWidget,
    QVBoxLayout,
    QWidget,
)

from graphspec.deep_agent_spec import DeepAgent, SubAgentSpec
from graphspec.model import call_text
from studio.edits import unique_id
from studio.i18n import QT_TRANSLATE_NOOP, translate
from studio.panels.inspector.host import (
    Host,
    buttons,
    code_field,
    indented_form,
    line_edit,
    read_only,
    select_row,
)
from studio.panels.inspector.tools_editor import _first_error

BACKENDS = {
    "state": QT_TRANSLATE_NOOP("panels.inspector.deep_form", "in the graph state"),
    "store": QT_TRANSLATE_NOOP("panels.inspector.deep_form", "in the graph's store"),
    "folder": QT_TRANSLATE_NOOP("panels.inspector.deep_form", "in a folder"),
}


class DeepAgentForm(QWidget):
    def __init__(self, host: Host, owner: str, get: Callable[[], DeepAgent | None],
                 put: Callable[[DeepAgent | None, str | bool, str], bool]) -> None:  # fmt: skip
        super().__init__()
        self.setObjectName("deepAgentForm")
        self.host, self.get, self.put, self.owner = host, get, put, owner
        self.key = (owner, "subagent")
        deep = get()
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        toggle = QCheckBox(
            translate(
                "panels.inspector.deep_form",
                "Deep agent: files, subagents (deepagents' create_deep_agent)",
            )
        )
        toggle.setObjectName("deepAgentToggle")
        toggle.setChecked(deep is not None)
        toggle.toggled.connect(self._toggle)
        box.addWidget(toggle)
        if deep is not None:
            box.addWidget(self._settings(deep))

    def _toggle(self, on: bool) -> None:
        self.put(
            DeepAgent() if on else None,
            False,
            translate("panels.inspector.deep_form", "{value} deep agent").format(
                value="Make" if on else "Unmake"
            ),
        )

    def _settings(self, deep: DeepAgent) -> QWidget:
        page, form = indented_form()
        backend = QComboBox()
        backend.setObjectName("deepAgentBackend")
        for value, text in BACKENDS.items():
            backend.addItem(translate("panels.inspector.deep_form", text), value)
        backend.setCurrentIndex(list(BACKENDS).index(deep.backend))
        # arrowing through the choices is one edit, not one per choice passed
        backend.activated.connect(lambda i: self._change("backend", backend.itemData(i),
                                                         "Change files backend", "deep.backend"))  # fmt: skip
        form.addRow(translate("panels.inspector.deep_form", "Files"), backend)
        root = line_edit("deepAgentRoot", deep.root or "",
                         lambda t: self._change("root", t.strip() or None, translate("panels.inspector.deep_form", "Change folder")),
                         self.host.say, translate("panels.inspector.deep_form", "the folder, relative to the graph file"))  # fmt: skip
        root.setEnabled(deep.backend == "folder")
        form.addRow(translate("panels.inspector.deep_form", "Folder"), root)
        reviewed = ", ".join(name for name, on in deep.interrupt_on.items() if on)
        form.addRow(translate("panels.inspector.deep_form", "Review"), line_edit("deepAgentReview", reviewed, self._review, self.host.say,
                                        translate("panels.inspector.deep_form", "tools a human approves first, e.g. write_file")))  # fmt: skip
        form.addRow(
            QLabel(
                translate("panels.inspector.deep_form", "Subagents (reached through the task tool)")
            )
        )
        form.addRow(self._subagents(deep))
        return page

    def _review(self, text: str) -> bool:
        names = [n.strip() for n in text.replace(";", ",").split(",") if n.strip()]
        return self._change(
            "interrupt_on",
            dict.fromkeys(names, True),
            translate("panels.inspector.deep_form", "Change reviewed tools"),
        )

    def _change(self, field: str, value: Any, text: str, merge: str | bool = False) -> bool:
        deep = self.get()
        if deep is None:
            return False
        try:
            new = DeepAgent.model_validate({**deep.model_dump(), field: value})
        except ValueError as exc:
            self.host.say(
                translate("panels.inspector.deep_form", "deep agent {owner}: {first_error}").format(
                    owner=self.owner, first_error=_first_error(exc)
                )
            )
            return False
        return self.put(new, merge, f"{text} of {self.owner}")

    # ------------------------------------------------------------------ subagents

    def _subagents(self, deep: DeepAgent) -> QWidget:
        page = QWidget()
        box = QVBoxLayout(page)
        box.setContentsMargins(0, 0, 0, 0)
        self.list = QListWidget()
        self.list.setObjectName("subagentsList")
        for sub in deep.subagents:
            self.list.addItem(sub.name)
        self.list.setMaximumHeight(22 * max(len(deep.subagents), 1) + 8)
        box.addWidget(self.list)
        box.addWidget(buttons(("subagentAdd", "Add subagent", self._add),
                              ("subagentRemove", "Remove", self._remove)))  # fmt: skip
        row = min(self.host.memory.get(self.key, 0), len(deep.subagents) - 1)
        if row >= 0:
            self.list.setCurrentRow(row)
            box.addWidget(self._detail(row, deep.subagents[row]))
        self.list.currentRowChanged.connect(lambda row: select_row(self.host, self.key, row))
        return page

    def _detail(self, row: int, sub: SubAgentSpec) -> QWidget:
        page, form = indented_form()
        say = self.host.say
        form.addRow(translate("panels.inspector.deep_form", "Name"), line_edit("subagentName", sub.name,
                                      lambda t: self._edit(row, name=t.strip()), say))  # fmt: skip
        form.addRow(translate("panels.inspector.deep_form", "Description"), line_edit("subagentDescription", sub.description,
                                             lambda t: self._edit(row, description=t), say,
                                             translate("panels.inspector.deep_form", "when to use it: the agent's model reads this")))  # fmt: skip
        if sub.runnable is not None:  # a compiled subagent: its own graph, made in the code
            form.addRow(translate("panels.inspector.deep_form", "Runs"), read_only("subagentRunnable", call_text(sub.runnable),
                                          translate("panels.inspector.deep_form", "the graph the program made for it")))  # fmt: skip
            return page
        form.addRow(translate("panels.inspector.deep_form", "Prompt"), code_field("subagentPrompt", "text", sub.system_prompt,
                                         lambda t: self._edit(row, system_prompt=t), say))  # fmt: skip
        own = [part for part, has in (("tools", sub.tools), ("model", sub.model)) if has]
        form.addRow(QLabel(translate("panels.inspector.deep_form", "Its own {join} (set in the file)").format(join=' and '.join(own)) if own
                           else translate("panels.inspector.deep_form", "It uses the agent's tools and model")))  # fmt: skip
        return page

    def _edit(self, row: int, **changes: Any) -> bool:
        deep = self.get()
        if deep is None or not 0 <= row < len(deep.subagents):
            return False
        subs = list(deep.subagents)
        try:
            subs[row] = SubAgentSpec.model_validate({**subs[row].model_dump(), **changes})
        except ValueError as exc:
            self.host.say(
                translate("panels.inspector.deep_form", "subagent {name}: {first_error}").format(
                    name=subs[row].name, first_error=_first_error(exc)
                )
            )
            return False
        return self._change(
            "subagents", subs, translate("panels.inspector.deep_form", "Change subagent")
        )

    def _add(self) -> None:
        deep = self.get()
        if deep is None:
            return
        name = unique_id("helper", {s.name for s in deep.subagents})
        subs = [
            *deep.subagents,
            SubAgentSpec(
                name=name,
                description=translate("panels.inspector.deep_form", "Say what it is for."),
            ),
        ]
        self.host.memory[self.key] = len(subs) - 1
        self._change("subagents", subs, translate("panels.inspector.deep_form", "Add subagent"))

    def _remove(self) -> None:
        deep = self.get()
        row = self.list.currentRow()
        if deep is not None and 0 <= row < len(deep.subagents):
            subs = [s for i, s in enumerate(deep.subagents) if i != row]
            self.host.memory[self.key] = max(row - 1, 0)
            self._change(
                "subagents", subs, translate("panels.inspector.deep_form", "Remove subagent")
            )


__all__ = ["DeepAgentForm"]
