"""The inspector (objectName `inspector`): the properties of the selected element.

Each field commits when editing finishes (Enter or focus out) through the editor, so every
change is one undoable edit; typing again in the same field merges into it. Bad values are
refused with a message in `inspectorError` and the field shows the spec's value again.
Agents, model and tools nodes get their own forms (`studio.panels.inspector`).

The form is rebuilt after each change of the shown element, a moment later rather than inside
the signal: a click that ends an edit (focus out) still reaches the widget it was aimed at.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QWidget,
)

from graphspec.model import (
    AgentNode,
    ConditionalEdge,
    FunctionNode,
    NodeChannels,
    SetStateNode,
    call_text,
)
from studio import edits
from studio.canvas.looks import END, START, shown
from studio.editor import Editor
from studio.edits.base import updated
from studio.i18n import translate
from studio.panels.code_editor import CodeEditor, CodeField, parse_assignments
from studio.panels.inspector.host import FINDING_PATH, Host, read_only
from studio.panels.router_editor import RouterEditor, TargetsEditor
from studio.plain import plain_label


class InspectorPanel(QScrollArea):
    open_subgraph = Signal(str)

    def __init__(self, editor: Editor) -> None:
        super().__init__()
        self.setObjectName("inspector")
        self.setWidgetResizable(True)
        self.editor = editor
        self.ids: list[str] = []
        self._shown: Any = None
        self.findings: list[Any] = []
        """The validator's latest findings (see show_findings)."""
        self._built_for: list[str] | None = None
        """The selection the form was last built for (its scroll position is kept for it)."""
        self.error = plain_label()
        self.error.setObjectName("inspectorError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #C62828")
        editor.failed.connect(lambda message: self.error.setText(message))
        self.host = Host(editor, self._say, self._rebuild_soon)
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(0)
        self._soon.timeout.connect(self.refresh)
        self._force = False
        editor.document.changed.connect(lambda _f: self._soon.start())
        editor.document.reset.connect(lambda: (self.host.memory.clear(), self.show_ids([])))
        self.show_ids([])

    def _say(self, message: str) -> None:
        self.error.setText(message)

    def _refused(self, message: str) -> None:
        """A field's text not saved (Python or an expression that does not parse): said here
        and on the status bar, which stays when a click elsewhere shows another element."""
        self._say(message)
        self.editor.failed.emit(message)

    def _rebuild_soon(self) -> None:
        self._force = True
        self._soon.start()

    @property
    def spec(self):
        return self.editor.document.spec

    # -------------------------------------------------------------- building the form

    def show_ids(self, ids: list[str]) -> None:
        self.ids = list(ids)
        self._build()

    def refresh(self) -> None:
        """Rebuild when the shown element changed (undo, canvas edit), unless we are typing in
        a code or text editor (it commits as you type; rebuilding would move the cursor). The
        field that had the focus has it again in the new form."""
        force, self._force = self._force, False
        if not force and self._element() is self._shown:
            return
        focus = QApplication.focusWidget()
        inside = (
            focus is not None and self.widget() is not None and self.widget().isAncestorOf(focus)
        )
        if inside and isinstance(focus, QPlainTextEdit) and not force:
            return
        self._build()
        name = focus.objectName() if inside and focus is not None else ""
        again = self.widget().findChild(QWidget, name) if name else None
        if again is not None:
            again.setFocus()

    def commit_pending(self) -> None:
        """Commit whatever is being typed (called before a run, so it runs what is shown)."""
        for editor in self.widget().findChildren(CodeEditor) if self.widget() else []:
            editor.commit()

    def _element(self) -> Any:
        if len(self.ids) != 1:
            return None if self.ids else self.spec
        eid = self.ids[0]
        spec = self.spec
        found = spec.node(eid) or next((e for e in spec.edges if e.id == eid), None)
        found = found or next((e for e in spec.conditional_edges if e.id == eid), None)
        found = found or next((n for n in spec.view.notes if n.id == eid), None)
        if isinstance(found, AgentNode):
            return (found, spec.agent(found.agent))
        return found or eid

    def _build(self) -> None:
        element = self._element()
        # the same element drawn again after an edit stays where the user had scrolled to
        keep = self.verticalScrollBar().value() if self.ids == self._built_for else 0
        self._built_for = list(self.ids)
        self._shown = element
        page = QWidget()
        self.form = QFormLayout(page)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.error = self._error_label()
        if element is None:
            self.form.addRow(
                QLabel(
                    translate("panels.inspector_panel", "{len} elements selected").format(
                        len=len(self.ids)
                    )
                )
            )
        elif element is self.spec:
            self._graph_fields()
        elif isinstance(element, tuple):
            self._node_fields(element[0])
            if element[1] is not None:
                from studio.panels.inspector.agent_form import agent_form  # on first use

                agent_form(self.host, self.form, element[1].id)
            else:
                self.form.addRow(
                    plain_label(
                        translate(
                            "panels.inspector_panel", "No agent {agent!r}: fix the agent field."
                        ).format(agent=element[0].agent)
                    )
                )
            self._node_json(element[0])
        elif isinstance(element, str):
            self.form.addRow(
                plain_label(element.replace("entry:", "START → ").replace("finish:", "→ END "))
            )
        elif hasattr(element, "kind") and element.id and self.spec.node(element.id) is element:
            self._node_fields(element)
            self._node_json(element)
        elif isinstance(element, ConditionalEdge):
            self._conditional_fields(element)
        elif hasattr(element, "sources"):
            self._edge_fields(element)
        else:
            self._note_fields(element)
        self.form.addRow(self.error)
        old = self.takeWidget()
        if old is not None:
            old.hide()
            old.deleteLater()  # not now: we may be inside one of its fields' signals
        self.setWidget(page)
        self._show_problems()
        self.verticalScrollBar().setValue(keep)

    def show_findings(self, findings: list[Any]) -> None:
        """The validator's latest findings: those about a part of the form show beside it."""
        self.findings = findings
        self._show_problems()

    def _show_problems(self) -> None:
        for label in self.widget().findChildren(QLabel, "elementProblem") if self.widget() else []:
            path = label.property(FINDING_PATH)
            texts = [f"{f.severity}: {f.message}" for f in self.findings
                     if f.file is None and (f.path == path or f.path.startswith(f"{path}."))]  # fmt: skip
            label.setText("\n".join(texts))
            label.setVisible(bool(texts))

    def _error_label(self) -> QLabel:
        label = plain_label()
        label.setObjectName("inspectorError")
        label.setWordWrap(True)
        label.setStyleSheet("color: #C62828")
        return label

    def _title(self, text: str) -> None:
        label = plain_label(text)
        font = label.font()
        font.setBold(True)
        label.setFont(font)
        label.setObjectName("inspectorTitle")
        self.form.addRow(label)

    def _description(self, name: str) -> str:
        """The spec's description of the shown element's field `name` (its docstring in
        graphspec.model), or "" when the field has none."""
        shown = self._shown[0] if isinstance(self._shown, tuple) else self._shown
        field = getattr(type(shown), "model_fields", {}).get(name)
        return (field.description or "") if field is not None else ""

    def _line(self, name: str, label: str, value: str, commit) -> QLineEdit:
        edit = QLineEdit(value)
        edit.setObjectName(f"inspector_{name}")
        edit.setCursorPosition(0)  # a text longer than the field shows its start, not its end
        edit.setToolTip(self._description(name))

        shown = {"value": value}

        def finished() -> None:
            text = edit.text()
            if text != shown["value"]:
                self.error.clear()
                if commit(text):
                    shown["value"] = text
                else:
                    self.error.setText(
                        self.error.text()
                        or translate("panels.inspector_panel", "{label}: not accepted").format(
                            label=label
                        )
                    )

        edit.editingFinished.connect(finished)
        self.form.addRow(label, edit)
        return edit

    def _code(self, name: str, label: str, mode: str, value: str, commit) -> CodeEditor:
        editor = CodeEditor(mode, value, f"inspector_{name}")
        editor.setToolTip(self._description(name))
        editor.committed.connect(commit)
        editor.refused.connect(lambda message: self._refused(f"{label}: {message}"))
        self.form.addRow(label, CodeField(editor))
        return editor

    # -------------------------------------------------------------- per element

    def _graph_fields(self) -> None:
        self._title(translate("panels.inspector_panel", "Graph"))
        push = self.editor.push
        self._line(
            "name",
            translate("panels.inspector_panel", "Name"),
            self.spec.name,
            lambda t: push(edits.SetSpecFieldEdit, "name", t),
        )
        self._line("description", translate("panels.inspector_panel", "Description"), self.spec.description,
                   lambda t: push(edits.SetSpecFieldEdit, "description", t))  # fmt: skip
        limit = str(self.spec.recursion_limit or "")
        self._line("recursion_limit", translate("panels.inspector_panel", "Recursion limit"), limit,
                   lambda t: push(edits.SetSpecFieldEdit, "recursion_limit", int(t) if t.strip() else None))  # fmt: skip

    def _node_fields(self, node: Any) -> None:
        nid = node.id
        setn = self.editor.set_node
        self._title(
            translate("panels.inspector_panel", "{replace} node").format(
                replace=node.kind.replace("_", " ")
            )
        )
        self._line(
            "id",
            translate("panels.inspector_panel", "Id"),
            nid,
            lambda t: self._rename(nid, t.strip()),
        )
        self._line(
            "label",
            translate("panels.inspector_panel", "Label"),
            node.label,
            lambda t: setn(nid, label=t),
        )
        self._line(
            "description",
            translate("panels.inspector_panel", "Description"),
            node.description,
            lambda t: setn(nid, description=t),
        )
        if isinstance(node, FunctionNode):
            if node.code is not None:
                self._line(
                    "function",
                    translate("panels.inspector_panel", "Function"),
                    node.function or "",
                    lambda t: setn(nid, function=t),
                )
                self._code(
                    "code",
                    translate("panels.inspector_panel", "Code"),
                    "python",
                    node.code,
                    lambda t: setn(nid, code=t),
                )
            elif node.call is not None:  # a library call made it: shown, changed in the code
                self.form.addRow(
                    translate("panels.inspector_panel", "Call"),
                    read_only("inspector_call", call_text(node), self._description("call")),
                )
            else:
                self._line(
                    "import_path",
                    translate("panels.inspector_panel", "Import"),
                    node.import_path or "",
                    lambda t: setn(nid, import_path=t),
                )
        elif isinstance(node, SetStateNode):
            text = "\n".join(f"{k} = {v}" for k, v in node.values.items())
            self._code(
                "values",
                translate("panels.inspector_panel", "Values"),
                "assignments",
                text,
                lambda t: setn(nid, values=parse_assignments(t)),
            )
            self._code(
                "goto",
                translate("panels.inspector_panel", "Goto"),
                "expression",
                node.goto or "",
                lambda t: setn(nid, goto=t.strip() or None),
            )
        elif node.kind == "model":
            from studio.panels.inspector.model_form import ModelForm  # on first use

            current = lambda: self.spec.node(nid)  # noqa: E731  (the node as it is now)
            tools = lambda: [t.name for n in self.spec.nodes if n.kind == "tools" for t in n.tools]  # noqa: E731
            self.form.addRow(ModelForm(self.host, nid, lambda: current().model,
                                       lambda m, _merge: setn(nid, model=m), tools))  # fmt: skip
            self._code(
                "system_prompt",
                translate("panels.inspector_panel", "System prompt"),
                "text",
                node.system_prompt,
                lambda t: setn(nid, system_prompt=t),
            )
        elif node.kind == "interrupt":
            self._line(
                "prompt",
                translate("panels.inspector_panel", "Prompt"),
                node.prompt,
                lambda t: setn(nid, prompt=t),
            )
            self._code(
                "payload",
                translate("panels.inspector_panel", "Payload"),
                "expression",
                node.payload or "",
                lambda t: setn(nid, payload=t.strip() or None),
            )
            self._line(
                "resume_key",
                translate("panels.inspector_panel", "Answer key"),
                node.resume_key,
                lambda t: setn(nid, resume_key=t),
            )
        elif node.kind == "subgraph":
            self._line(
                "subgraph",
                translate("panels.inspector_panel", "Subgraph"),
                node.subgraph,
                lambda t: setn(nid, subgraph=t),
            )
            button = QPushButton(translate("panels.inspector_panel", "Open inner graph"))
            button.setObjectName("openSubgraphButton")
            button.clicked.connect(lambda: self.open_subgraph.emit(nid))
            self.form.addRow(button)
        elif node.kind == "tools":
            from studio.panels.inspector.tools_editor import ToolsEditor  # on first use

            at = next(i for i, n in enumerate(self.spec.nodes) if n.id == nid)
            self.form.addRow(translate("panels.inspector_panel", "Tools"), ToolsEditor(self.host, nid, lambda: self.spec.node(nid).tools,
                                                  lambda tools, _merge: setn(nid, tools=tools),
                                                  f"$.nodes[{at}].tools"))  # fmt: skip
        if self.spec.pregel and isinstance(node, FunctionNode):
            self._wiring_fields(node)
        elif node.kind in ("function", "set_state", "agent"):  # where a Command(goto=...) may go
            self.form.addRow(
                translate("panels.inspector_panel", "Goto destinations"),
                TargetsEditor(self.editor, nid, self.error),
            )

    def _wiring_fields(self, node: FunctionNode) -> None:
        """A node of a graph built by hand: the channels that run it and those it writes."""
        nid, wiring = node.id, node.channels or NodeChannels()

        def rewire(**change: Any) -> bool:
            current = (self.spec.node(nid).channels or NodeChannels()).model_dump()
            return self.editor.set_node(nid, channels=NodeChannels(**{**current, **change}))

        def names(text: str) -> list[str]:
            return [n.strip() for n in text.split(",") if n.strip()]

        self._line("subscribe_only", translate("panels.inspector_panel", "Subscribe only"), wiring.subscribe_only or "",
                   lambda t: rewire(subscribe_only=t.strip() or None))  # fmt: skip
        self._line("subscribe_to", translate("panels.inspector_panel", "Subscribe to"), ", ".join(wiring.subscribe_to),
                   lambda t: rewire(subscribe_to=names(t)))  # fmt: skip
        self._line("write_to", translate("panels.inspector_panel", "Write to"), ", ".join(wiring.write_to),
                   lambda t: rewire(write_to=names(t)))  # fmt: skip

    def _node_json(self, node: Any) -> None:
        def commit(data: dict[str, Any]) -> bool:
            changes = {k: v for k, v in data.items() if k not in ("id", "kind")}
            return self.editor.set_node(node.id, **changes)

        self._json(node.model_dump(mode="json", exclude_defaults=True), commit)

    def _rename(self, old: str, new: str) -> bool:
        if not self.editor.rename(old, new):
            return False
        self.ids = [new]
        return True

    def _edge_fields(self, edge: Any) -> None:
        self._title(
            translate("panels.inspector_panel", "join edge")
            if len(edge.sources) > 1
            else translate("panels.inspector_panel", "edge")
        )
        self.form.addRow(translate("panels.inspector_panel", "Id"), plain_label(edge.id))

        def set_edge(**changes: Any) -> bool:
            return self.editor.push(
                edits.SetEdgeEdit, "edges", updated(edge, **changes), merge=True
            )

        self._line("sources", translate("panels.inspector_panel", "Sources"), ", ".join(map(shown, edge.sources)),
                   lambda t: set_edge(sources=[typed(s) for s in t.split(",") if s.strip()]))  # fmt: skip
        self._line(
            "target",
            translate("panels.inspector_panel", "Target"),
            shown(edge.target),
            lambda t: set_edge(target=typed(t)),
        )
        self._line(
            "edge_label",
            translate("panels.inspector_panel", "Label"),
            edge.label,
            lambda t: set_edge(label=t),
        )

    def _conditional_fields(self, edge: ConditionalEdge) -> None:
        self._title(translate("panels.inspector_panel", "conditional edge"))
        self.form.addRow(translate("panels.inspector_panel", "Id"), plain_label(edge.id))

        def set_edge(**changes: Any) -> bool:
            return self.editor.push(
                edits.SetEdgeEdit, "conditional_edges", updated(edge, **changes), merge=True
            )

        self._line(
            "source",
            translate("panels.inspector_panel", "After"),
            shown(edge.source),
            lambda t: set_edge(source=typed(t)),
        )
        self.form.addRow(RouterEditor(self.editor, edge.id, self.error))  # kind, rule and routes
        self._json(edge.model_dump(mode="json", exclude_defaults=True),
                   lambda d: set_edge(**{k: v for k, v in d.items() if k != "id"}))  # fmt: skip

    def _note_fields(self, note: Any) -> None:
        self._title(translate("panels.inspector_panel", "note"))
        text = QPlainTextEdit(note.text)
        text.setObjectName("inspector_note")
        text.setMaximumHeight(120)
        original = note.text

        def focus_out(event, base=text.focusOutEvent) -> None:
            if text.toPlainText() != original:
                self.editor.push(edits.SetNoteTextEdit, note.id, text.toPlainText())
            base(event)

        text.focusOutEvent = focus_out
        self.form.addRow(translate("panels.inspector_panel", "Text"), text)

    def _json(self, data: dict[str, Any], commit) -> None:
        """Every field as JSON, for what the form above does not show."""
        box = CodeEditor("json", json.dumps(data, indent=2, ensure_ascii=False), "inspector_json")
        apply = QPushButton(translate("panels.inspector_panel", "Apply JSON"))
        apply.setObjectName("inspector_applyJson")

        def applied() -> None:
            try:
                value = json.loads(box.toPlainText())
            except ValueError as exc:
                self.error.setText(
                    translate("panels.inspector_panel", "not JSON: {exc}").format(exc=exc)
                )
                return
            if not isinstance(value, dict):
                self.error.setText(translate("panels.inspector_panel", "give a JSON object"))
                return
            self.error.clear()
            commit(value)

        apply.clicked.connect(applied)
        self.form.addRow(translate("panels.inspector_panel", "All fields"), CodeField(box))
        self.form.addRow(apply)


def typed(text: str) -> str:
    """A node name as typed: START and END (as drawn) stand for __start__ and __end__."""
    name = text.strip()
    return {"START": START, "END": END}.get(name, name)
