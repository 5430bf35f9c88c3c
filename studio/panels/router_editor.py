"""The router of a conditional edge, and a node's `goto` destinations, as forms and lists.

`RouterEditor` (objectName `routerEditor`): the kind (`routerKindCombo`: expression, Python
function, Send fan-out), its fields, and the routes as a list editor (`routerTargetsEditor`: one
row per route, the router's result and the node it goes to, END included). `TargetsEditor`
(`gotoDestinationsEditor`) lists the nodes a node's `Command(goto=...)` may go to.

Both read the current spec by id at each commit (the inspector keeps a form while the user
types in it, so a captured element could be stale) and push edits through the editor; each
change is one undo entry. They redraw themselves after a change of their own. Switching a router to Send fan-out, which
goes to one node, first asks before the other routes are dropped (`dropRoutesQuestion`).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from graphspec.model import CodeRouter, ConditionalEdge, ExpressionRouter, SendRouter
from studio import edits
from studio.canvas.looks import END, routes, shown
from studio.edits.base import updated
from studio.edits.edge_edits import path_map_of
from studio.i18n import QT_TRANSLATE_NOOP, translate

KINDS = [
    ("expression", QT_TRANSLATE_NOOP("panels.router_editor", "Expression")),
    ("code", QT_TRANSLATE_NOOP("panels.router_editor", "Python function")),
    ("send", QT_TRANSLATE_NOOP("panels.router_editor", "Send fan-out")),
]


def _targets(spec, exclude: str = "") -> list[str]:
    return [n.id for n in spec.nodes if n.id != exclude] + [END]


class TargetRow(QWidget):
    """One route: the result (optional) and a combo of where it goes, with a remove button."""

    def __init__(
        self, index: int, result: str | None, target: str, choices: list[str], owner
    ) -> None:
        super().__init__()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.result: QLineEdit | None = None
        if result is not None:
            self.result = QLineEdit(shown(result))
            self.result.setObjectName(f"routeResult_{index}")
            self.result.setPlaceholderText(translate("panels.router_editor", "result"))
            self.result.setToolTip(
                translate("panels.router_editor", "What the router returns for this route")
            )
            self.result.editingFinished.connect(owner.commit_rows)
            row.addWidget(self.result, 1)
            row.addWidget(QLabel("→"))
        self.target = QComboBox()
        self.target.setObjectName(f"routeTarget_{index}")
        for choice in choices if target in choices else [*choices, target]:
            self.target.addItem(shown(choice), choice)
        self.target.setCurrentIndex(self.target.findData(target))
        self.target.currentIndexChanged.connect(lambda _i: owner.commit_rows())
        row.addWidget(self.target, 1)
        remove = QToolButton()
        remove.setText("✕")
        remove.setObjectName(f"routeRemove_{index}")
        remove.setToolTip(translate("panels.router_editor", "Remove this route"))
        remove.clicked.connect(lambda: owner.remove_row(index))
        row.addWidget(remove)

    def pair(self) -> tuple[str, str]:
        target = self.target.currentData()
        result = self.result.text().strip() if self.result is not None else target
        return ({"END": END, "START": "__start__"}.get(result, result) or target, target)


class _ListBase(QWidget):
    """Rows of targets with an Add button; subclasses say what the rows are and how to save."""

    with_results = False
    add_name = "addTarget"

    def __init__(self, editor, name: str, error: QLabel | None = None) -> None:
        super().__init__()
        self.editor = editor
        self.setObjectName(name)
        self.error = error
        self.rows: list[TargetRow] = []
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.render()

    def pairs(self) -> list[tuple[str, str]]:
        raise NotImplementedError

    def source(self) -> str:
        raise NotImplementedError

    def save(self, pairs: list[tuple[str, str]]) -> bool:
        raise NotImplementedError

    def render(self) -> None:
        while self.box.count():
            widget = self.box.takeAt(0).widget()
            if widget is not None:
                widget.hide()
                widget.deleteLater()  # not now: we may be in one of its signals
        self.rows = []
        spec = self.editor.document.spec
        choices = _targets(spec, self.source())
        for i, (result, target) in enumerate(self.pairs()):
            row = TargetRow(i, result if self.with_results else None, target, choices, self)
            self.rows.append(row)
            self.box.addWidget(row)
        add = QPushButton(
            translate("panels.router_editor", "Add route")
            if self.with_results
            else translate("panels.router_editor", "Add destination")
        )
        add.setObjectName(self.add_name)
        add.clicked.connect(self.add_row)
        self.box.addWidget(add)

    def _changed(self, pairs: list[tuple[str, str]]) -> None:
        if self.error is not None:
            self.error.clear()
        self.save(pairs)
        QTimer.singleShot(0, self, self.render)  # shows the spec as it is now (saved, or refused)

    def commit_rows(self) -> None:
        pairs = [row.pair() for row in self.rows]
        if pairs != self.pairs():
            self._changed(pairs)

    def add_row(self) -> None:
        used = {t for _r, t in self.pairs()}
        free = [t for t in _targets(self.editor.document.spec, self.source()) if t not in used]
        if not free:
            if self.error is not None:
                self.error.setText(
                    translate("panels.router_editor", "every node is already a target")
                )
            return
        self._changed([*self.pairs(), (free[0], free[0])])

    def remove_row(self, index: int) -> None:
        pairs = self.pairs()
        if 0 <= index < len(pairs):
            self._changed(pairs[:index] + pairs[index + 1 :])


class RouteList(_ListBase):
    """The routes of a conditional edge: its path map, in order."""

    with_results = True
    add_name = "routerAddTarget"

    def __init__(self, editor, edge_id: str, error: QLabel | None = None) -> None:
        self.edge_id = edge_id
        super().__init__(editor, "routerTargetsEditor", error)

    def edge(self) -> ConditionalEdge | None:
        return next(
            (e for e in self.editor.document.spec.conditional_edges if e.id == self.edge_id), None
        )

    def source(self) -> str:
        edge = self.edge()
        return edge.source if edge else ""

    def pairs(self) -> list[tuple[str, str]]:
        edge = self.edge()
        return routes(edge) if edge is not None and not isinstance(edge.router, SendRouter) else []

    def save(self, pairs: list[tuple[str, str]]) -> bool:
        edge = self.edge()
        if edge is None:
            return False
        results = [r for r, _t in pairs]
        if len(set(results)) != len(results):
            if self.error is not None:
                self.error.setText(
                    translate(
                        "panels.router_editor", "two routes have the same result: give each its own"
                    )
                )
            return False
        new = edge.model_copy(update={"path_map": path_map_of(pairs)})
        return self.editor.push(edits.SetEdgeEdit, "conditional_edges", new)


class TargetsEditor(_ListBase):
    """A node's goto destinations (where its Command(goto=...) may send the run)."""

    add_name = "gotoAddDestination"

    def __init__(self, editor, node_id: str, error: QLabel | None = None) -> None:
        self.node_id = node_id
        super().__init__(editor, "gotoDestinationsEditor", error)

    def source(self) -> str:
        return self.node_id

    def pairs(self) -> list[tuple[str, str]]:
        node = self.editor.document.spec.node(self.node_id)
        return [(t, t) for t in getattr(node, "destinations", [])]

    def save(self, pairs: list[tuple[str, str]]) -> bool:
        return self.editor.set_node(
            self.node_id, destinations=list(dict.fromkeys(t for _r, t in pairs))
        )


class RouterEditor(QWidget):
    """Kind, fields and routes of one conditional edge's router."""

    def __init__(self, editor, edge_id: str, error: QLabel | None = None) -> None:
        super().__init__()
        self.setObjectName("routerEditor")
        self.editor = editor
        self.edge_id = edge_id
        self.error = error
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.kind: QComboBox | None = None
        self.render()

    def edge(self) -> ConditionalEdge | None:
        return next(
            (e for e in self.editor.document.spec.conditional_edges if e.id == self.edge_id), None
        )

    def render(self) -> None:
        """The fields below the kind; the kind combo itself stays (it keeps the keyboard focus
        while the user steps through kinds, and the inspector keeps this form meanwhile)."""
        while self.form.rowCount() > (1 if self.kind is not None else 0):
            self.form.removeRow(self.form.rowCount() - 1)
        edge = self.edge()
        if edge is None:
            return
        if self.kind is None:
            self.kind = kind = QComboBox()
            kind.setObjectName("routerKindCombo")
            for value, text in KINDS:
                kind.addItem(translate("panels.router_editor", text), value)
            kind.setToolTip(
                translate(
                    "panels.router_editor",
                    "Expression: a safe rule over the state. Python function: your code "
                    "(runs when the spec is trusted). Send fan-out: one task per item, each with its own input.",
                )
            )
            kind.currentIndexChanged.connect(lambda _i: self.set_kind(kind.currentData()))
            self.form.addRow(translate("panels.router_editor", "Router"), kind)
        self.kind.blockSignals(True)
        self.kind.setCurrentIndex(self.kind.findData(edge.router.kind))
        self.kind.blockSignals(False)
        router = edge.router
        if isinstance(router, ExpressionRouter):
            self._line("routerExpressionEdit", translate("panels.router_editor", "Rule"), router.expression,
                       lambda t: self.set_router(kind="expression", expression=t),
                       translate("panels.router_editor", "returns a route's result, e.g. 'b' if total > 5 else END"))  # fmt: skip
        elif isinstance(router, CodeRouter):
            self._line("routerFunctionEdit", translate("panels.router_editor", "Function"), router.function or "",
                       lambda t: self.set_router(function=t))  # fmt: skip
            code = QPlainTextEdit(router.code or "")
            code.setObjectName("routerCodeEdit")
            code.setMaximumHeight(120)
            original = router.code or ""

            def focus_out(event, base=code.focusOutEvent) -> None:
                if code.toPlainText() != original:
                    self.set_router(code=code.toPlainText())
                base(event)

            code.focusOutEvent = focus_out
            self.form.addRow(translate("panels.router_editor", "Code"), code)
        elif isinstance(router, SendRouter):
            target = QComboBox()
            target.setObjectName("routerSendTarget")
            for choice in _targets(self.editor.document.spec, edge.source)[:-1]:
                target.addItem(choice, choice)
            if target.findData(router.target) < 0:
                target.addItem(router.target, router.target)
            target.setCurrentIndex(target.findData(router.target))
            target.currentIndexChanged.connect(
                lambda _i: self.set_router(target=target.currentData())
            )
            self.form.addRow(translate("panels.router_editor", "Send to"), target)
            self._line("routerSendOver", translate("panels.router_editor", "For each item of"), router.over, lambda t: self.set_router(over=t),
                       translate("panels.router_editor", "an expression giving a list, e.g. subjects"))  # fmt: skip
            text = "; ".join(f"{k} = {v}" for k, v in router.input.items())
            self._line("routerSendInput", translate("panels.router_editor", "Task input"), text, self._set_input,
                       translate("panels.router_editor", "key = expression; … (item is the element), e.g. subject = item"))  # fmt: skip
        if not isinstance(router, SendRouter):
            self.form.addRow(
                translate("panels.router_editor", "Routes"),
                RouteList(self.editor, self.edge_id, self.error),
            )

    def _line(self, name: str, label: str, value: str, commit, hint: str = "") -> QLineEdit:
        edit = QLineEdit(value)
        edit.setObjectName(name)
        edit.setPlaceholderText(hint)
        edit.setToolTip(hint)
        shown_value = {"v": value}

        def finished() -> None:
            if edit.text() != shown_value["v"]:
                shown_value["v"] = edit.text()
                if self.error is not None:
                    self.error.clear()
                commit(edit.text().strip())

        edit.editingFinished.connect(finished)
        self.form.addRow(label, edit)
        return edit

    def set_router(self, **changes: Any) -> bool:
        edge = self.edge()
        if edge is None:
            return False
        try:
            router = updated(edge.router, **changes)
        except Exception as exc:  # a bad value (empty rule, bad name): say why, keep the spec
            if self.error is not None:
                self.error.setText(
                    translate("panels.router_editor", "router: {short}").format(short=_short(exc))
                )
            return False
        return self.editor.push(
            edits.SetEdgeEdit, "conditional_edges", edge.model_copy(update={"router": router})
        )

    def _set_input(self, text: str) -> bool:
        try:
            values = _assignments(text)
        except ValueError as exc:
            if self.error is not None:
                self.error.setText(
                    translate("panels.router_editor", "task input: {exc}").format(exc=exc)
                )
            return False
        return self.set_router(input=values)

    def set_kind(self, kind: str) -> None:
        """A new router of another kind, keeping the routes where they make sense."""
        edge = self.edge()
        if edge is None or edge.router.kind == kind:
            return
        pairs = routes(edge)
        first = pairs[0][1] if pairs else END
        if kind == "expression":
            rule = "END" if first == END else repr(pairs[0][0] if pairs else first)
            router: Any = ExpressionRouter(kind="expression", expression=rule)
        elif kind == "code":
            name = f"route_{edge.source.strip('_')}"
            back = '"__end__"' if first == END else repr(pairs[0][0] if pairs else first)
            router = CodeRouter(
                kind="code", function=name, code=f"def {name}(state):\n    return {back}\n"
            )
        else:
            target = next((t for _r, t in pairs if t != END), None) or next(
                (n.id for n in self.editor.document.spec.nodes if n.id != edge.source), None
            )
            if target is None:
                if self.error is not None:
                    self.error.setText(
                        translate("panels.router_editor", "add the node to send to first")
                    )
                QTimer.singleShot(0, self, self.render)
                return
            router = SendRouter(kind="send", target=target, over="[]", input={})
            dropped = list(dict.fromkeys(shown(t) for _r, t in pairs if t != target))
            if dropped:
                self._ask_to_drop(edge, router, dropped)
                return
        self._switch(edge, router)

    def _switch(self, edge: ConditionalEdge, router: Any) -> None:
        path_map = None if router.kind == "send" else edge.path_map
        new = edge.model_copy(update={"router": router, "path_map": path_map})
        self.editor.push(edits.SetEdgeEdit, "conditional_edges", new)
        QTimer.singleShot(0, self, self.render)

    def _ask_to_drop(self, edge: ConditionalEdge, router: SendRouter, dropped: list[str]) -> None:
        """Send fan-out goes to one node: ask before the routes elsewhere go (not modal to the
        app: the window waits, the answer switches or keeps the router as it was)."""
        box = QMessageBox(self.window())
        box.setObjectName("dropRoutesQuestion")
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(translate("panels.router_editor", "Switch to Send fan-out"))
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(translate("panels.router_editor", "A Send fan-out sends every task to {shown}. Its routes to {join} would be dropped.").format(shown=shown(router.target), join=', '.join(dropped)))  # fmt: skip
        switch = box.addButton(
            translate("panels.router_editor", "Drop the routes and switch"),
            QMessageBox.ButtonRole.AcceptRole,
        )
        box.addButton(
            translate("panels.router_editor", "Keep the routes"), QMessageBox.ButtonRole.RejectRole
        )
        box.setDefaultButton(switch)

        def answered(_result: int) -> None:
            current = self.edge()
            if box.clickedButton() is switch and current is not None:
                self._switch(current, router)
            else:
                QTimer.singleShot(0, self, self.render)  # the kind combo shows the kind again
            box.deleteLater()

        box.finished.connect(answered)
        box.open()


def _assignments(text: str) -> dict[str, str]:
    out = {}
    for part in text.replace("\n", ";").split(";"):
        if part.strip():
            key, sep, value = part.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise ValueError(
                    translate("panels.router_editor", "{strip!r}: write key = expression").format(
                        strip=part.strip()
                    )
                )
            out[key.strip()] = value.strip()
    return out


def _short(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            return "; ".join(e["msg"] for e in exc.errors(include_url=False))
        except Exception:
            pass
    return str(exc)


__all__ = ["RouterEditor", "RouteList", "TargetsEditor"]
