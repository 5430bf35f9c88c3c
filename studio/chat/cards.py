"""The chat panel's pieces: a message bubble (markdown) and a tool-call card (name, arguments,
result, and the human-in-the-loop decision buttons when the call waits for review)."""

from __future__ import annotations

import json
import time
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.i18n import translate

ROLE_STYLE = {
    "human": ("You", "#e8f0fe", "#1a56db"),
    "ai": ("Assistant", "#ffffff", "#0b7a3e"),
    "tool": ("Tool", "#f6f6f6", "#6b7280"),
    "system": ("System", "#fff8e1", "#92400e"),
}


class Bubble(QFrame):
    """One message: who said it, and what (markdown; never HTML from the model)."""

    def __init__(self, role: str, text: str = "", note: str = "") -> None:
        super().__init__()
        who, bg, fg = ROLE_STYLE.get(role, (role.title(), "#ffffff", "#374151"))
        self.setObjectName(f"{role}Bubble")
        self.setStyleSheet(
            f"#{role}Bubble {{ background: {bg}; border: 1px solid #d1d5db; border-radius: 8px; }}"
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 8)
        self.who, self.fg = who, fg
        self.head = QLabel()
        self.head.setTextFormat(Qt.TextFormat.RichText)
        self.set_note(note)
        layout.addWidget(self.head)
        self.body = QLabel()
        self.body.setObjectName("bubbleText")
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.MarkdownText)
        self.body.setOpenExternalLinks(False)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.body)
        self.text = ""
        self.set_text(text)

    def set_note(self, note: str) -> None:
        extra = (
            translate("chat.cards", " <span style='color:#6b7280'>· {esc}</span>").format(
                esc=_esc(note)
            )
            if note
            else ""
        )
        self.head.setText(
            translate("chat.cards", "<b style='color:{fg}'>{who}</b>{extra}").format(
                fg=self.fg, who=self.who, extra=extra
            )
        )

    def set_text(self, text: str) -> None:
        self.text = text
        self.body.setText(text or "…")
        self.body.setVisible(bool(text) or self.objectName() != "aiBubble")

    def append(self, token: str) -> None:
        self.set_text(self.text + token)


class ToolCallCard(QFrame):
    """A tool call: its name and arguments; its result once the tool ran; while a human review
    is pending, Approve / Edit / Reject / Respond (as the review config allows)."""

    decided = Signal(dict)  # the HITL decision for this call

    def __init__(self, call: dict) -> None:
        super().__init__()
        self.call = call
        self._opened_at = float("-inf")  # when Edit…/Respond… opened its field
        self.setObjectName("toolCallCard")
        self.setStyleSheet(
            "#toolCallCard { background: #fbfaf5; border: 1px solid #d6b656; border-radius: 8px; }"
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 8)
        title = QLabel(
            translate(
                "chat.cards",
                "<span style='color:#92400e'>Tool call</span> <b>{esc}</b> <span style='color:#6b7280'>{esc2}</span>",
            ).format(esc=_esc(call.get("name", "?")), esc2=_esc(call.get("id") or ""))
        )
        title.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(title)
        self.args = QLabel(_pretty(call.get("args", {})))
        self.args.setObjectName("toolCallArgs")
        self.args.setTextFormat(Qt.TextFormat.PlainText)
        self.args.setStyleSheet("font-family: monospace; color: #1f2937;")
        self.args.setWordWrap(True)
        layout.addWidget(self.args)
        self.result = QLabel()
        self.result.setObjectName("toolCallResult")
        self.result.setTextFormat(Qt.TextFormat.PlainText)
        self.result.setWordWrap(True)
        self.result.hide()
        layout.addWidget(self.result)
        self.review: QWidget | None = None
        self.layout_ = layout

    def set_result(self, content: str, status: str = "success") -> None:
        color = "#b91c1c" if status == "error" else "#065f46"
        self.result.setStyleSheet(f"color: {color};")
        self.result.setText(f"→ {content}")
        self.result.show()

    def ask_review(self, allowed: list[str], description: str = "") -> None:
        """Show the decision buttons (one review for this call)."""
        box = QWidget()
        box.setObjectName("reviewBox")
        rows = QVBoxLayout(box)
        rows.setContentsMargins(0, 4, 0, 0)
        if description:
            note = QLabel(description)
            note.setWordWrap(True)
            note.setStyleSheet("color: #92400e;")
            rows.addWidget(note)
        self.editor = QPlainTextEdit(json.dumps(self.call.get("args", {}), indent=2))
        self.editor.setObjectName("editArgs")
        self.editor.setFixedHeight(70)
        self.editor.hide()
        rows.addWidget(self.editor)
        self.reply = QLineEdit()
        self.reply.setObjectName("replyText")
        self.reply.setPlaceholderText(
            translate(
                "chat.cards", "A message: the reason to reject, or the answer in place of the tool"
            )
        )
        self.reply.hide()
        rows.addWidget(self.reply)
        self.error = QLabel()
        self.error.setStyleSheet("color: #b91c1c;")
        self.error.hide()
        rows.addWidget(self.error)
        buttons = QHBoxLayout()
        for kind, label in (
            ("approve", "Approve"),
            ("edit", "Edit…"),
            ("reject", "Reject"),
            ("respond", "Respond…"),
        ):
            if kind not in allowed:
                continue
            button = QPushButton(label)
            button.setObjectName(f"{kind}Button")
            button.clicked.connect(lambda _=False, k=kind, b=button: self._decide(k, b))
            buttons.addWidget(button)
        buttons.addStretch(1)
        rows.addLayout(buttons)
        self.review = box
        self.layout_.addWidget(box)

    def _decide(self, kind: str, button: QPushButton | None = None) -> None:
        if kind == "edit" and self.editor.isHidden():
            self.editor.show()  # first click opens the editor, the second sends
            self._opened(button, translate("chat.cards", "Send edit"))
            return
        if kind == "respond" and self.reply.isHidden():
            self.reply.show()
            self.reply.setFocus()
            self._opened(button, translate("chat.cards", "Send reply"))
            return
        if kind in ("edit", "respond") and self._just_opened():
            return  # the second click of a double-click on Edit…/Respond… sends nothing
        decision: dict[str, Any] = {"type": kind}
        if kind == "edit":
            try:
                args = json.loads(self.editor.toPlainText())
            except ValueError as exc:  # bad JSON: say so, keep the card
                self.error.setText(
                    translate("chat.cards", "Arguments are not JSON: {exc}").format(exc=exc)
                )
                self.error.show()
                return
            decision["edited_action"] = {"name": self.call.get("name"), "args": args}
        elif kind == "respond":
            decision["message"] = self.reply.text()
        elif kind == "reject" and self.reply.text():
            decision["message"] = self.reply.text()
        if self.review is not None:
            self.review.setEnabled(False)
        self.decided.emit(decision)

    def _opened(self, button: QPushButton | None, label: str) -> None:
        self._opened_at = time.monotonic()
        if button is not None:
            button.setText(label)

    def _just_opened(self) -> bool:
        return time.monotonic() - self._opened_at < QApplication.doubleClickInterval() / 1000


def _pretty(args: Any) -> str:
    try:
        return json.dumps(args, indent=2, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(args)


def _esc(text: str) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
