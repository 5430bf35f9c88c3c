"""A custom middleware: its name, where its hooks may jump (`can_jump_to`) and each hook's
code. A new hook starts as a function that changes nothing, named after the middleware and
the hook (create_agent names each hook's middleware after its function, so names stay unique)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QWidget,
)

from graphspec.model import CodeRef, CustomMiddleware, HookName, call_text
from studio.i18n import translate
from studio.panels.inspector.host import Host, code_field, line_edit
from studio.panels.inspector.tools_editor import function_of

HOOKS: tuple[str, ...] = get_args(HookName)
JUMPS = ("end", "tools", "model")
NODE_HOOK = "def {name}(state, runtime):\n    return None  # or a dict of state updates\n"
WRAP_HOOK = "def {name}(request, handler):\n    return handler(request)\n"


def new_hook(mw_name: str, hook: str) -> CodeRef:
    name = f"{mw_name}_{hook}"
    template = WRAP_HOOK if hook.startswith("wrap_") else NODE_HOOK
    return CodeRef(code=template.format(name=name), function=name)


class HooksForm(QWidget):
    def __init__(self, host: Host, get: Callable[[], CustomMiddleware],
                 put: Callable[[dict[str, Any], str | bool], bool]) -> None:  # fmt: skip
        super().__init__()
        self.setObjectName("customMiddlewareForm")
        self.host, self.get, self.put = host, get, put
        mw = get()
        form = QFormLayout(self)
        form.setContentsMargins(12, 0, 0, 0)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(
            translate("panels.inspector.hooks_form", "Name"),
            line_edit("customName", mw.name, lambda t: put({"name": t.strip()}, False), host.say),
        )
        if mw.import_path is not None:  # the program's own object: its hooks are in its code
            made = CodeRef(import_path=mw.import_path, call=mw.call)
            built = translate("panels.inspector.hooks_form", "  (built with its settings)")
            source = QLabel(call_text(made) + (built if mw.build else ""))
            source.setWordWrap(True)
            source.setObjectName("middlewareImportPath")
            form.addRow(translate("panels.inspector.hooks_form", "From the program"), source)
            form.addRow(
                translate("panels.inspector.hooks_form", "Hooks"),
                QLabel(", ".join(mw.overrides) or translate("panels.inspector.hooks_form", "none")),
            )
            return
        jumps = QWidget()
        row = QHBoxLayout(jumps)
        row.setContentsMargins(0, 0, 0, 0)
        for target in JUMPS:
            box = QCheckBox(target)
            box.setObjectName(f"canJump_{target}")
            box.setChecked(target in mw.can_jump_to)
            box.toggled.connect(lambda on, t=target: self._jump(t, on))
            row.addWidget(box)
        row.addStretch(1)
        form.addRow(translate("panels.inspector.hooks_form", "Can jump to"), jumps)
        for hook, ref in mw.hooks.items():
            title = QWidget()
            line = QHBoxLayout(title)
            line.setContentsMargins(0, 0, 0, 0)
            line.addWidget(QLabel(hook))
            remove = QPushButton(translate("panels.inspector.hooks_form", "Remove"))
            remove.setObjectName(f"hookRemove_{hook}")
            remove.clicked.connect(lambda _=False, h=hook: self._remove(h))
            line.addWidget(remove)
            form.addRow(title)
            if ref.code is not None:
                form.addRow(code_field(f"hook_{hook}", "python", ref.code,
                                       lambda t, h=hook: self._code(h, t), host.say))  # fmt: skip
            else:
                form.addRow(
                    translate("panels.inspector.hooks_form", "Import"),
                    QLabel(ref.import_path or ""),
                )
        missing = [h for h in HOOKS if h not in mw.hooks]
        if missing:
            add = QWidget()
            line = QHBoxLayout(add)
            line.setContentsMargins(0, 0, 0, 0)
            self.choice = QComboBox()
            self.choice.setObjectName("hookAddCombo")
            self.choice.addItems(missing)
            line.addWidget(self.choice, 1)
            button = QPushButton(translate("panels.inspector.hooks_form", "Add hook"))
            button.setObjectName("hookAdd")
            button.clicked.connect(lambda: self._add(self.choice.currentText()))
            line.addWidget(button)
            form.addRow(add)

    def _hooks(self) -> dict[str, CodeRef]:
        return dict(self.get().hooks)

    def _jump(self, target: str, on: bool) -> None:
        jumps = [
            t
            for t in JUMPS
            if (t in self.get().can_jump_to and t != target) or (t == target and on)
        ]
        self.put({"can_jump_to": jumps}, False)

    def _add(self, hook: str) -> None:
        self.put({"hooks": {**self._hooks(), hook: new_hook(self.get().name, hook)}}, False)

    def _remove(self, hook: str) -> None:
        self.put({"hooks": {h: r for h, r in self._hooks().items() if h != hook}}, False)

    def _code(self, hook: str, code: str) -> None:
        ref = self._hooks().get(hook)
        if ref is None:
            return
        new = CodeRef(code=code, function=function_of(code, ref.function))
        self.put({"hooks": {**self._hooks(), hook: new}}, f"hooks.{hook}")
