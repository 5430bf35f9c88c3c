"""The run input dock and the interrupt panel above the canvas."""

from __future__ import annotations

import json
import pprint
from typing import Any

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from engine._constants import DEFAULT_INTERRUPT_ID
from studio.i18n import translate
from studio.plain import line_label, plain_label, set_line
from studio.run.widgets import (
    MONO,
    button,
    combo,
    json_object,
    pretty,
    vbox,
)

SHOWN_LIMIT = 20000
"""Characters of a script's input shown as Python (a long conversation is cut there)."""
PAYLOAD_LINES = 6
"""The most lines an interrupt's payload box shows before it scrolls."""
ONE_LINE = 80
"""An interrupt payload this short (as one line of JSON) is shown on one line."""
RAISED_ID = DEFAULT_INTERRUPT_ID
"""The id of a node's raised NodeInterrupt (or GraphInterrupt). An answer never reaches a raised
one: the node runs again, and raises again, until its state has changed."""


def exact_json(value: Any) -> str | None:
    """`value` as indented JSON text when parsing that text gives `value` back, else None (it
    holds messages, models, tuples...: what a script gives is Python objects)."""
    try:
        text = json.dumps(value, indent=2, ensure_ascii=False)
        return text if json.loads(text) == value else None
    except (TypeError, ValueError, RecursionError):
        return None


def as_python(value: Any) -> str:
    """A readable repr: one entry of a state a line."""
    text = pprint.pformat(value, width=60, sort_dicts=False)
    return text if len(text) <= SHOWN_LIMIT else text[: SHOWN_LIMIT - 1] + "…"


class RunInputPanel(QWidget):
    """The run's input as JSON, prefilled from the spec's saved inputs; or, for a graph a
    program's script ran, the script's own input (a ScriptInput), first: shown as JSON when JSON
    holds it, else as Python, read-only, and given to the run as the live object until another
    input replaces it (typed, a saved one chosen, a thread's last)."""

    refused = Signal(str)
    """The input or the context is not what a run takes: why."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("runInputPanel")
        self.chooser = combo("runInputChooser", self._chosen)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("runInputEditor")
        self.editor.setFont(MONO)
        # three lines at least (not Qt's 70 px): the Design workspace gives the rest of the left
        # column to the palette, whose node kinds then all show at 1280×720
        self.editor.setMinimumHeight(self.editor.fontMetrics().lineSpacing() * 3 + 10)
        # one line cut at the dock's edge (all of it in its tooltip and, through `refused`, in
        # the status bar): three wrapped lines pushed the context over the editor at 1280×720
        self.error = line_label()
        self.error.setObjectName("runInputError")
        self.error.setStyleSheet("color: #C62828")
        layout = vbox(self)
        row = QHBoxLayout()
        row.addWidget(QLabel(translate("run.input_panels", "Saved input")))
        row.addWidget(self.chooser, 1)
        layout.addLayout(row)
        # whose input it is, in a few words (the dock is narrow at 1280x720: wrapped, they take
        # two lines); all of it in the tooltip
        self.script_note = plain_label()
        self.script_note.setWordWrap(True)
        self.script_note.setObjectName("runInputScriptNote")
        self.script_note.setStyleSheet("color: #5A6270")
        layout.addWidget(self.script_note)
        layout.addWidget(self.editor)
        # one line beside its label: a context is a few settings, and the dock stays short
        self.context_editor = QLineEdit()
        self.context_editor.setObjectName("runContextEditor")
        self.context_editor.setFont(MONO)
        self.context_editor.setPlaceholderText(
            translate("run.input_panels", 'optional JSON, e.g. {"user_id": "1"}')
        )
        self.context_editor.setToolTip(
            translate("run.input_panels", "The run's Runtime.context, as JSON (empty: none)")
        )
        context_row = QHBoxLayout()
        context_row.addWidget(QLabel(translate("run.input_panels", "Context")))
        context_row.addWidget(self.context_editor, 1)
        layout.addLayout(context_row)
        # the way to type another input over one shown as Python (read-only), beside the error
        # line, which is empty then: no row of its own
        self.type_another = button("runInputTypeButton",
                                   translate("run.input_panels", "Type another"), self._type_another,
                                   translate("run.input_panels", "Replace the script's input with one typed as JSON"))  # fmt: skip
        error_row = QHBoxLayout()
        error_row.addWidget(self.error, 1)
        error_row.addWidget(self.type_another)
        layout.addLayout(error_row)
        self.inputs: list[Any] = []
        self.any_value = False
        self.script: Any = None
        """The script's own input (graphspec.program_script.ScriptInput), first in the chooser."""
        self._script_text: str | None = None
        """The text showing the script's input while it is the input: another text replaces it."""
        self.editor.textChanged.connect(self._edited)
        self._show_script(False)

    def set_inputs(self, inputs: list[Any], any_value: bool = False, script: Any = None) -> None:
        """The saved inputs to choose from; with `any_value` the input may be any JSON value
        (a graph from code: an @entrypoint takes a string, a list...), else a state object.
        `script` (a ScriptInput: a program's script ran the graph) comes first, chosen."""
        self.inputs = list(inputs)
        self.any_value = any_value
        self.script = script
        names = [i.name for i in self.inputs]
        if script is not None:
            names.insert(0, translate("run.input_panels", "the script's input"))
        self.chooser.blockSignals(True)
        self.chooser.clear()
        self.chooser.addItems(names or [translate("run.input_panels", "(none)")])
        self.chooser.blockSignals(False)
        self._chosen(0)

    @property
    def script_chosen(self) -> bool:
        """The input is the script's own, the live object (nothing replaced it)."""
        return self._script_text is not None

    def _chosen(self, index: int) -> None:
        if self.script is not None:
            if index == 0:
                self._show_script(True)
                return
            index -= 1
        value = self.inputs[index].value if 0 <= index < len(self.inputs) else {}
        self.editor.setPlainText(json.dumps(value, indent=2, ensure_ascii=False))

    def _show_script(self, shown: bool) -> None:
        """Show the script's input (JSON when JSON holds it, else Python, read-only), or stop
        showing it: the editor's text is then the input."""
        text = exact_json(self.script.value) if shown else None
        objects = shown and text is None
        self._script_text = None
        if shown:
            self._script_text = text = as_python(self.script.value) if objects else text
            self.editor.setPlainText(text)
            self._show_error("")
            self.script_note.setText(self._short(objects))
            self.script_note.setToolTip(self._about(objects))
        self.editor.setReadOnly(objects)
        self.type_another.setVisible(objects)
        self.script_note.setVisible(shown)

    def _short(self, objects: bool) -> str:
        runs = self.script.runs
        if runs > 1:
            return (translate("run.input_panels", "The script's own input (Python objects), of its first of {runs} runs")
                    if objects else translate("run.input_panels", "The script's own input, of its first of {runs} runs")).format(runs=runs)  # fmt: skip
        return (translate("run.input_panels", "The script's own input (Python objects)")
                if objects else translate("run.input_panels", "The script's own input"))  # fmt: skip

    def _about(self, objects: bool) -> str:
        """What the script's input is and how runs use it (a second line when it ran the graph
        several times: the input shown is its first run's)."""
        text = (translate("run.input_panels", "The script's own input, Python objects shown read-only: Run and Step use these objects.")
                if objects else translate("run.input_panels", "The script's own input: Run and Step start from it; edit it to run another."))  # fmt: skip
        if self.script.runs > 1:
            text += "\n" + translate("run.input_panels", "The script ran this graph {runs} times: this is its first run's input.").format(runs=self.script.runs)  # fmt: skip
        return text

    def _edited(self) -> None:
        if self._script_text is not None and self.editor.toPlainText() != self._script_text:
            self._show_script(False)  # typed over, or set: that text is the input now

    def _type_another(self) -> None:
        """Start from the script's input written as JSON (messages and models as their fields)."""
        try:
            text = pretty(self.script.value)
        except (TypeError, ValueError, RecursionError):  # objects that refer to themselves
            text = "{}"
        self.editor.setReadOnly(False)
        self.editor.setPlainText(text)
        self.editor.setFocus()

    def show_context(self, value: Any = None) -> None:
        """The run context a graph was handed over with (empty: none)."""
        self.context_editor.setText("" if value is None else json.dumps(value, default=str))

    def context(self) -> tuple[bool, Any]:
        """(valid, the context: None when empty); an invalid one shows why."""
        text = self.context_editor.text().strip()
        if not text:
            return True, None
        try:
            return True, json.loads(text)
        except ValueError as exc:
            self._show_error(
                translate("run.input_panels", "The context is not JSON: {exc}").format(exc=exc)
            )
            return False, None

    def set_value(self, value: Any) -> None:
        """Show `value` as the input (a thread's last input), whatever saved input is chosen."""
        self.editor.setPlainText(json.dumps(value, indent=2, ensure_ascii=False, default=str))
        self._show_error("")

    def resume_hint(self) -> Any:
        """The chosen saved input's first resume value, to prefill an interrupt answer."""
        index = self.chooser.currentIndex() - (self.script is not None)
        resume = (
            getattr(self.inputs[index], "resume", None) if 0 <= index < len(self.inputs) else None
        )
        return resume[0] if resume else None

    def value(self) -> Any:
        """The parsed input, or None (with the reason shown) when it is not JSON, or not a JSON
        object where a state is expected; the script's own input as it is, while it is chosen."""
        if self._script_text is not None:
            return self.script.value
        text = self.editor.toPlainText()
        if not self.any_value:
            value, error = json_object(text, translate("run.input_panels", "The input state"))
        else:
            try:
                value, error = json.loads(text or "null"), ""
            except ValueError as exc:
                value, error = (
                    None,
                    translate("run.input_panels", "The input is not JSON: {exc}").format(exc=exc),
                )
        self._show_error(error)
        return value

    def _show_error(self, text: str) -> None:
        set_line(self.error, text)
        if text:
            self.refused.emit(text)


class PayloadBox(QPlainTextEdit):
    """An interrupt's payload in a box as tall as its lines as they wrap at its width and font
    (up to PAYLOAD_LINES, then it scrolls): at 1280×720 the bar leaves the canvas its height,
    and lecture mode's larger type, wrapping a one-line payload, is not cut at the first line."""

    def fit(self) -> None:
        frame = self.frameWidth() * 2 + 2 * int(self.document().documentMargin()) + 2
        lines = min(max(self.document().lineCount(), 1), PAYLOAD_LINES)
        self.setFixedHeight(lines * self.fontMetrics().lineSpacing() + frame)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.fit()  # a new width wraps the lines anew

    def changeEvent(self, event: Any) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.fit()


class InterruptPanel(QFrame):
    """Non-modal: the pending interrupt's payload and a JSON answer that resumes the run."""

    answered = Signal(object, object)  # interrupt id (None when only one), value
    edit_state_requested = Signal()  # a raised NodeInterrupt: the thread's state, to change

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("interruptPanel")
        self.setStyleSheet(
            "#interruptPanel { background: #FFF0E0; border-bottom: 1px solid #E0B080; }"
        )
        self.title = plain_label()
        self.title.setObjectName("interruptTitle")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.chooser = combo("interruptChooser", self._chosen)
        self.payload = PayloadBox()
        self.payload.setObjectName("interruptPayload")
        self.payload.setReadOnly(True)
        self.payload.setFont(MONO)
        self.answer = QLineEdit()
        self.answer.setObjectName("interruptAnswer")
        self.answer.setPlaceholderText(
            translate("run.input_panels", 'Answer as JSON: true, "text", {"approved": true}…')
        )
        self.answer.returnPressed.connect(self._resume)
        self.error = plain_label()
        self.error.setStyleSheet("color: #C62828")
        self.error.hide()  # shown with a reason only: the bar takes the canvas's height
        self.resume = button("resumeButton", translate("run.input_panels", "Resume"), self._resume)
        self.edit_state = button(
            "interruptEditStateButton",
            translate("run.input_panels", "Edit the state…"),
            lambda _=False: self.edit_state_requested.emit(),
            tip=translate(
                "run.input_panels",
                "The thread's state in an editor: change what the node checks, then Fork with edited state runs the node again",
            ),
        )
        self.raised_note = line_label(
            translate("run.input_panels", "No answer reaches it: it runs again once its state is changed")
        )  # fmt: skip
        self.raised_note.hide()
        self.edit_state.hide()
        self.quick = {kind: button(f"{kind}AllButton", {"approve": translate("run.input_panels", "Approve all"), "reject": translate("run.input_panels", "Reject all")}[kind], lambda _=False, k=kind: self._decide(k))
                      for kind in ("approve", "reject")}  # fmt: skip
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 6, 12, 6)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.chooser)
        layout.addLayout(top)
        layout.addWidget(self.payload)
        row = QHBoxLayout()
        self.answer_label = QLabel(translate("run.input_panels", "Answer"))
        row.addWidget(self.answer_label)
        row.addWidget(self.answer, 1)
        row.addWidget(self.resume)
        row.addWidget(self.raised_note, 1)
        row.addWidget(self.edit_state)
        for quick in self.quick.values():
            quick.setToolTip(
                translate(
                    "run.input_panels",
                    "Answer every tool call of this human-in-the-loop review at once",
                )
            )
            row.addWidget(quick)
        layout.addLayout(row)
        layout.addWidget(self.error)
        self.pending: list[tuple[str, Any, str]] = []
        self.hide()

    def show_interrupts(self, pending: list[tuple[str, Any, str]], hint: Any = None) -> None:
        self.pending = list(pending)
        if not self.pending:
            self.hide()
            return
        self.chooser.blockSignals(True)
        self.chooser.clear()
        self.chooser.addItems([f"{node} · {iid[:8]}" for node, _v, iid in self.pending])
        self.chooser.setVisible(len(self.pending) > 1)
        self.chooser.blockSignals(False)
        self._chosen(0)
        self.answer.setText("" if hint is None else json.dumps(hint))
        self._show_error("")
        self.show()
        self.answer.setFocus()

    def _chosen(self, index: int) -> None:
        if 0 <= index < len(self.pending):
            node, value, iid = self.pending[index]
            many = f" ({len(self.pending)} pending)" if len(self.pending) > 1 else ""
            raised = iid == RAISED_ID
            title = (
                translate("run.input_panels", "{node} raised NodeInterrupt{many}")
                if raised
                else translate("run.input_panels", "{node} is waiting for an answer{many}")
            )
            self.title.setText(title.format(node=node, many=many))
            self._show_payload(value)
            for asking in (self.answer_label, self.answer, self.resume):
                asking.setVisible(not raised)
            self.raised_note.setVisible(raised)
            self.edit_state.setVisible(raised)
            requests = value.get("action_requests") if isinstance(value, dict) else None
            for quick in self.quick.values():
                quick.setVisible(isinstance(requests, list) and not raised)

    def _show_payload(self, value: Any) -> None:
        """A short payload on one line, a longer one indented (the box fits its lines)."""
        text = pretty(value, indent=None)
        if len(text) > ONE_LINE:
            text = pretty(value)
        self.payload.setPlainText(text)
        self.payload.fit()

    def _show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def _decide(self, kind: str) -> None:
        """Human-in-the-loop middleware: one decision per action request, then resume."""
        node, value, _iid = self.pending[self.chooser.currentIndex()]
        decisions = [{"type": kind} for _ in value.get("action_requests", [])]
        self.answer.setText(json.dumps({"decisions": decisions}))
        self._resume()

    def _resume(self) -> None:
        index = self.chooser.currentIndex()
        if not 0 <= index < len(self.pending):
            return
        try:
            value = json.loads(self.answer.text())
        except ValueError as exc:
            self._show_error(
                translate("run.input_panels", "The answer is not JSON: {exc}").format(exc=exc)
            )
            return
        self._show_error("")
        iid = self.pending[index][2] if len(self.pending) > 1 else None
        self.hide()
        self.answered.emit(iid, value)
