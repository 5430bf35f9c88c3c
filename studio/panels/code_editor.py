"""Code and expression editors: Python highlighting, auto-indent, a wavy red mark where it is
wrong, and a larger pop-out editor (Ctrl+E, or the button of a `CodeField`).

Modes: `python` (inline code), `expression` (one safe expression, checked by
graphspec.expressions), `assignments` (one `key = expression` per line, for set-state nodes),
`json` (any JSON value) and `text` (free text: prompts).

What is committed: Python code is committed even when it does not parse, so it stays in the spec
as typed and the validator flags it on the node and in Problems (Run then refuses it, instead of
silently running the last version that parsed). Expressions, assignments and JSON must be right
to commit, since the spec cannot hold them otherwise; a refused text says why (`refused`).
Python and text also commit shortly after typing stops, so a Run clicked while the cursor is
still in the editor runs what is on screen.
"""

from __future__ import annotations

import ast
import json
import keyword
import re

from PySide6.QtCore import QRegularExpression, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from graphspec import expressions
from studio.i18n import translate
from studio.plain import plain_tip


def _format(color: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(color))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    fmt.setFontItalic(italic)
    return fmt


class PythonHighlighter(QSyntaxHighlighter):
    RULES = [
        (r"\b(" + "|".join(keyword.kwlist) + r")\b", _format("#8E3FB8", bold=True)),
        (r"\b(True|False|None|END|START|state|item)\b", _format("#B0561C")),
        (r"\b[0-9]+(\.[0-9]+)?\b", _format("#1C7A5A")),
        (r"\b[A-Za-z_][A-Za-z0-9_]*(?=\()", _format("#2460A8")),
        (r"(\"[^\"\\]*(\\.[^\"\\]*)*\"|'[^'\\]*(\\.[^'\\]*)*')", _format("#A33A3A")),
        (r"#[^\n]*", _format("#7A8290", italic=True)),
    ]

    def __init__(self, document) -> None:
        super().__init__(document)
        self._rules = [(QRegularExpression(p), f) for p, f in self.RULES]

    def highlightBlock(self, text: str) -> None:
        for regex, fmt in self._rules:
            it = regex.globalMatch(text)
            while it.hasNext():
                m = it.next()
                self.setFormat(m.capturedStart(), m.capturedLength(), fmt)


ASSIGNMENT = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)\s*(.+?)\s*$")


def check(mode: str, text: str) -> tuple[int, int, str] | None:
    """(line, column, message) of the first problem in `text`, 1-based line; None if fine."""
    if mode == "text":
        return None
    if mode == "json":
        if not text.strip():
            return None
        try:
            json.loads(text)
        except ValueError as exc:
            return (
                getattr(exc, "lineno", 1),
                max(getattr(exc, "colno", 1) - 1, 0),
                getattr(exc, "msg", str(exc)),
            )
        return None
    if mode == "python":
        try:
            ast.parse(text)
        except SyntaxError as exc:
            return exc.lineno or 1, max((exc.offset or 1) - 1, 0), exc.msg
        return None
    if mode == "expression":
        return _check_expression(text, 1) if text.strip() else None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        m = ASSIGNMENT.match(line)
        if m is None:
            return n, 0, translate("panels.code_editor", "write one `key = expression` per line")
        problem = _check_expression(m.group(2), n)
        if problem:
            return n, m.start(2) + problem[1], problem[2]
    return None


def _check_expression(text: str, line: int) -> tuple[int, int, str] | None:
    try:
        ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        return line, max((exc.offset or 1) - 1, 0), exc.msg
    try:
        expressions.parse(text)
    except expressions.ExpressionError as exc:
        return line, 0, str(exc)
    return None


def parse_assignments(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        m = ASSIGNMENT.match(line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


INDENT = "    "
COMMIT_ANYWAY = frozenset({"python", "text"})
"""Modes whose text the spec holds even when it has a problem (the validator reports it)."""
TYPING_PAUSE_MS = 400


class CodeEditor(QPlainTextEdit):
    """A monospace editor that re-checks its text as you type; `committed` fires on focus-out,
    Ctrl+Enter or a pause in typing (see the module docstring for which texts commit)."""

    committed = Signal(str)
    refused = Signal(str)
    """A text that cannot be committed, with why (`line n: message`)."""

    def __init__(self, mode: str, text: str = "", name: str = "") -> None:
        super().__init__()
        self.mode = mode
        if name:
            self.setObjectName(name)
        font = QFont("DejaVu Sans Mono")
        font.setStyleHint(QFont.StyleHint.Monospace)
        font.setPointSize(9)
        self.setFont(font)
        self.setLineWrapMode(
            QPlainTextEdit.LineWrapMode.WidgetWidth
            if mode == "text"
            else QPlainTextEdit.LineWrapMode.NoWrap
        )
        # Tab indents code; elsewhere it moves on, as in any form
        self.setTabChangesFocus(mode not in ("python", "json"))
        self.highlighter = PythonHighlighter(self.document()) if mode != "text" else None
        self.problem: tuple[int, int, str] | None = None
        self.setPlainText(text)
        self._committed_text = text
        self.setMaximumHeight({"expression": 56, "text": 110}.get(mode, 160))
        if mode in ("python", "json"):  # show a short function whole, even in a crowded form
            lines = min(max(text.count("\n") + 1, 3), 8)
            self.setMinimumHeight(self.fontMetrics().lineSpacing() * lines + 12)
        self._pause = QTimer(self)
        self._pause.setSingleShot(True)
        self._pause.setInterval(TYPING_PAUSE_MS)
        self._pause.timeout.connect(self.commit)
        self.textChanged.connect(self.recheck)
        self.textChanged.connect(self._typed)
        self.recheck()

    def _typed(self) -> None:
        if self.mode in COMMIT_ANYWAY and self.hasFocus():
            self._pause.start()

    def recheck(self) -> None:
        self.problem = check(self.mode, self.toPlainText())
        marks = []
        if self.problem:
            line, column, message = self.problem
            block = self.document().findBlockByNumber(line - 1)
            selection = QTextEdit.ExtraSelection()
            fmt = QTextCharFormat()
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
            fmt.setUnderlineColor(QColor("#D32F2F"))
            fmt.setBackground(QColor(211, 47, 47, 28))
            fmt.setProperty(QTextFormat.Property.FullWidthSelection, False)
            selection.format = fmt
            cursor = QTextCursor(block)
            cursor.movePosition(
                QTextCursor.MoveOperation.Right, n=min(column, max(len(block.text()) - 1, 0))
            )
            cursor.movePosition(
                QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor
            )
            selection.cursor = cursor
            marks.append(selection)
            self.setToolTip(
                plain_tip(
                    translate("panels.code_editor", "line {line}: {message}").format(
                        line=line, message=message
                    )
                )
            )
        else:
            self.setToolTip("")
        self.setExtraSelections(marks)

    def set_committed_text(self, text: str) -> None:
        """Show `text` as the saved value (after undo, or from the pop-out editor)."""
        self._committed_text = text
        self.setPlainText(text)

    def commit(self) -> None:
        self._pause.stop()
        text = self.toPlainText()
        if text == self._committed_text:
            return
        if self.problem is not None and self.mode not in COMMIT_ANYWAY:
            line, _column, message = self.problem
            self.refused.emit(
                translate(
                    "panels.code_editor", "line {line}: {message} (not saved until it is fixed)"
                ).format(line=line, message=message)
            )
            return
        self._committed_text = text
        self.committed.emit(text)

    def pop_out(self) -> None:
        """Edit in a larger window; OK puts the text back here and commits it."""
        dialog = CodeDialog(self.mode, self.toPlainText(), self.window())
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.setPlainText(dialog.editor.toPlainText())
            self.commit()

    def focusOutEvent(self, event) -> None:
        self.commit()
        super().focusOutEvent(event)

    def keyPressEvent(self, event) -> None:
        key, mods = event.key(), event.modifiers()
        control = mods & Qt.KeyboardModifier.ControlModifier
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and control:
            self.commit()
            return
        if key == Qt.Key.Key_E and control:
            self.pop_out()
            return
        if self.mode == "python" and key == Qt.Key.Key_Tab and not mods:
            self.insertPlainText(INDENT)
            return
        if self.mode in ("python", "json") and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.insertPlainText("\n" + self._next_indent())
            return
        if self.mode == "python" and key == Qt.Key.Key_Backspace and not mods and self._dedent():
            return
        super().keyPressEvent(event)

    def _next_indent(self) -> str:
        """The current line's indentation, one level deeper after `:` (or an open bracket)."""
        line = self.textCursor().block().text()[: self.textCursor().positionInBlock()]
        indent = line[: len(line) - len(line.lstrip())]
        if line.rstrip().endswith((":", "{", "[", "(")):
            indent += INDENT
        return indent

    def _dedent(self) -> bool:
        """Backspace in leading spaces removes one indentation level."""
        cursor = self.textCursor()
        before = cursor.block().text()[: cursor.positionInBlock()]
        if not before or before.strip() or cursor.hasSelection():
            return False
        width = (len(before) - 1) % len(INDENT) + 1
        for _ in range(width):
            cursor.deletePreviousChar()
        return True


class CodeDialog(QDialog):
    """The pop-out editor: the same editor, big (objectName `popOutEditor`)."""

    def __init__(self, mode: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("codeDialog")
        self.setWindowTitle(
            {
                "json": translate("panels.code_editor", "Edit JSON"),
                "text": translate("panels.code_editor", "Edit text"),
            }.get(mode, translate("panels.code_editor", "Edit code"))
        )
        self.resize(760, 520)
        self.editor = CodeEditor(mode, text, "popOutEditor")
        self.editor.setMaximumHeight(16777215)
        # its text goes back through OK, not by pausing (`committed` has no listener here: a
        # disconnect() of it warned at every pop-out)
        self.editor._pause.timeout.disconnect()
        status = QLabel()
        status.setObjectName("popOutStatus")
        status.setStyleSheet("color: #C62828")
        self.editor.textChanged.connect(
            lambda: status.setText(
                translate("panels.code_editor", "line {value}: {value2}").format(
                    value=self.editor.problem[0], value2=self.editor.problem[2]
                )
                if self.editor.problem
                else ""
            )
        )
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(self.editor)
        box.addWidget(status)
        box.addWidget(buttons)
        self.editor.setFocus()


class CodeField(QWidget):
    """A CodeEditor with a button that pops it out (objectName `<name>PopOut`)."""

    def __init__(self, editor: CodeEditor) -> None:
        super().__init__()
        self.editor = editor
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        row.addWidget(editor, 1)
        button = QToolButton()
        button.setObjectName(f"{editor.objectName()}PopOut")
        button.setText("⤢")
        button.setToolTip(translate("panels.code_editor", "Open in a larger editor (Ctrl+E)"))
        button.clicked.connect(editor.pop_out)
        row.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
