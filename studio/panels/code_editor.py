"""Code and expression editors: Python highlighting and a wavy red mark where it is wrong.

Modes: `python` (inline node code: must compile), `expression` (one safe expression, checked
by graphspec.expressions) and `assignments` (one `key = expression` per line, for set-state nodes).
"""

from __future__ import annotations

import ast
import keyword
import re

from PySide6.QtCore import QRegularExpression, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit

from graphspec import expressions
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
            return n, 0, "write one `key = expression` per line"
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


class CodeEditor(QPlainTextEdit):
    """A monospace editor that re-checks its text as you type; `committed` fires on focus-out
    (or Ctrl+Enter) with text that has no error."""

    committed = Signal(str)

    def __init__(self, mode: str, text: str = "", name: str = "") -> None:
        super().__init__()
        self.mode = mode
        if name:
            self.setObjectName(name)
        font = QFont("DejaVu Sans Mono")
        font.setStyleHint(QFont.StyleHint.Monospace)
        font.setPointSize(9)
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabChangesFocus(True)
        self.highlighter = PythonHighlighter(self.document())
        self.problem: tuple[int, int, str] | None = None
        self.setPlainText(text)
        self._committed_text = text
        self.setMaximumHeight(160 if mode != "expression" else 56)
        self.textChanged.connect(self.recheck)
        self.recheck()

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
            cursor.movePosition(QTextCursor.MoveOperation.Right, n=min(column, max(len(block.text()) - 1, 0)))
            cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
            selection.cursor = cursor
            marks.append(selection)
            self.setToolTip(plain_tip(f"line {line}: {message}"))
        else:
            self.setToolTip("")
        self.setExtraSelections(marks)

    def commit(self) -> None:
        text = self.toPlainText()
        if self.problem is None and text != self._committed_text:
            self._committed_text = text
            self.committed.emit(text)

    def focusOutEvent(self, event) -> None:
        self.commit()
        super().focusOutEvent(event)

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.commit()
            return
        super().keyPressEvent(event)
