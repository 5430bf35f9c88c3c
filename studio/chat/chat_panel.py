"""The chat view of a thread, for any graph with a messages key: type a message on the current
thread, read human, AI and tool messages (markdown; tool calls as cards with their arguments and
results), watch tokens arrive, stop, and answer interrupts inline (HITL decisions on the
tool-call card, a reply box for any other interrupt).

It drives the studio's one RunSession through the run controller (runs stay off the GUI thread,
the canvas and the run docks follow the same thread), so the chat view and the graph view are
two views of one thread: switching between them loses nothing. Tokens come through a LangChain
callback handler in the run's config, as any LangChain app would get them.

A streaming bubble is not re-rendered per token (Markdown of the whole text each time is
quadratic): tokens are gathered and the bubble redrawn at most every RENDER_MS, or less often
when a redraw itself takes long, and once more after the last token.
"""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING, Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.tracers._streaming import _StreamingCallbackHandler
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from graphspec.token_print import content_text
from studio.chat.cards import Bubble, ToolCallCard
from studio.i18n import translate

if TYPE_CHECKING:  # langchain-core's messages load with the first run, not with the window
    from langchain_core.messages import BaseMessage

RENDER_MS = 50
"""Shortest gap between two redraws of a streaming bubble."""
RENDER_SHARE = 4
"""A redraw that took t ms waits at least RENDER_SHARE * t before the next: streaming a long
message takes at most about a fifth of the GUI thread, however long the message grows."""


def _is_message(value: Any) -> bool:
    """A LangChain message; none exists before langchain-core's messages are loaded (by a run),
    so the chat does not load them to look."""
    messages = sys.modules.get("langchain_core.messages")
    return messages is not None and isinstance(value, messages.BaseMessage)


class TokenRelay(QObject):
    token = Signal(str, str, str)  # message id, text, node


class TokenHandler(BaseCallbackHandler, _StreamingCallbackHandler):
    """Relays chat-model tokens to the GUI thread (Qt queues the signal across threads); being a
    streaming handler makes models stream even when a node invokes them."""

    run_inline = True
    models_only = True  # the studio leaves it off a graph that cannot call a model (no tokens)

    def __init__(self, relay: TokenRelay) -> None:
        self.relay = relay
        self.nodes: dict[UUID, str] = {}

    def tap_output_iter(self, run_id, output):
        return output

    def tap_output_aiter(self, run_id, output):
        return output

    def on_chat_model_start(self, serialized, messages, *, run_id, metadata=None, **kwargs):
        self.nodes[run_id] = (metadata or {}).get("langgraph_node", "")

    def on_llm_new_token(self, token, *, chunk=None, run_id, **kwargs):
        message = getattr(chunk, "message", None)
        mid = getattr(message, "id", None) or f"lc_run--{run_id}"
        text = token if isinstance(token, str) else content_text(token)
        if text:
            self.relay.token.emit(mid, text, self.nodes.get(run_id, ""))

    def on_llm_end(self, response, *, run_id, **kwargs):
        self.nodes.pop(run_id, None)


class ChatPanel(QWidget):
    def __init__(self, runner: Any) -> None:
        super().__init__()
        self.setObjectName("chatPanel")
        self.runner = runner
        self.session = runner.session
        self.messages: list[BaseMessage] = []
        self.interrupts: list[tuple[str, Any, str]] = []
        self.live: dict[str, Bubble] = {}
        self.live_text: dict[str, str] = {}
        self.pending: dict[str, list[str]] = {}  # tokens not drawn yet, by message id
        self.redraw = QTimer(self)
        self.redraw.setSingleShot(True)
        self.redraw.setInterval(RENDER_MS)
        self.redraw.timeout.connect(self._draw_tokens)
        self.cards: dict[str, ToolCallCard] = {}
        self.decisions: dict[int, dict] = {}
        self.relay = TokenRelay(self)
        self.relay.token.connect(self._token)
        self.handler = TokenHandler(self.relay)
        self.session.callbacks.append(self.handler)
        self._build()
        self.session.thread_ready.connect(self._thread_ready)
        runner.document.reset.connect(self._document_loaded)
        self.session.stepped.connect(self._stepped)
        self.session.busy_changed.connect(lambda _busy: self._update_buttons())
        self._update_buttons()
        if runner.view is not None:  # made after the thread was read (a lazy dock's panel)
            self._thread_ready(runner.view)

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.header = QLabel()
        self.header.setObjectName("chatHeader")
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.header)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setObjectName("chatScroll")
        self.container = QWidget()
        self.rows = QVBoxLayout(self.container)
        self.rows.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.rows.setSpacing(6)
        self.scroll.setWidget(self.container)
        self.scroll.setMinimumHeight(40)  # a short dock keeps the input and its buttons
        layout.addWidget(self.scroll, 1)
        bottom = QHBoxLayout()
        self.input = QPlainTextEdit()
        self.input.setObjectName("chatInput")
        self.input.setPlaceholderText(
            translate("chat.chat_panel", "Message the graph on this thread (Ctrl+Enter sends)")
        )
        self.input.setFixedHeight(56)
        bottom.addWidget(self.input, 1)
        self.send_button = QPushButton(translate("chat.chat_panel", "Send"))
        self.send_button.setObjectName("chatSendButton")
        self.send_button.clicked.connect(self.send)
        self.stop_button = QPushButton(translate("chat.chat_panel", "Stop"))
        self.stop_button.setObjectName("chatStopButton")
        self.stop_button.clicked.connect(self.stop)
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        bottom.addLayout(buttons)
        layout.addLayout(bottom)
        self.input.installEventFilter(self)

    def eventFilter(self, obj, event):  # Ctrl+Enter sends
        from PySide6.QtCore import QEvent

        if obj is self.input and event.type() == QEvent.Type.KeyPress:
            if (
                event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier
            ):
                self.send()
                return True
        return super().eventFilter(obj, event)

    # ------------------------------------------------------------------ state
    def messages_key(self) -> str | None:
        """The graph's first state key of type messages (None: the chat has nothing to show)."""
        spec = self.runner.document.spec
        return next((k.name for k in spec.state if getattr(k, "type", "") == "messages"), None)

    def _update_buttons(self) -> None:
        key = self.messages_key()
        running = self.session.running
        self.send_button.setEnabled(key is not None and not running)
        self.stop_button.setEnabled(running)
        where = f"thread {self.runner.thread_id}"
        self.header.setText(
            translate("chat.chat_panel", "Chat on {where}").format(where=where)
            if key
            else translate(
                "chat.chat_panel", "This graph has no messages key: nothing to chat with"
            )
        )

    def send(self) -> None:
        text = self.input.toPlainText().strip()
        key = self.messages_key()
        if not text or key is None or self.session.running:
            return
        if not self.runner._may_run():  # trust and a busy session are the controller's to say
            return
        self.input.clear()
        from langchain_core.messages import HumanMessage

        self.messages.append(HumanMessage(text))
        self.interrupts = []
        self._render()
        self.runner._new_run({key: [{"role": "user", "content": text}]}, None, clear=False)
        self._update_buttons()
        self._raise_dock()

    def _raise_dock(self) -> None:
        """A run raises the run docks; a run sent from the chat keeps the chat in front."""
        from PySide6.QtWidgets import QDockWidget

        dock = self.parentWidget()
        while dock is not None and not isinstance(dock, QDockWidget):
            dock = dock.parentWidget()
        if dock is not None:
            dock.raise_()

    def stop(self) -> None:
        self.runner.stop()

    # ------------------------------------------------------------------ session signals
    def _thread_ready(self, view: Any) -> None:
        if view.thread_id != self.runner.thread_id:
            return
        key = self.messages_key()
        self.messages = list(view.values.get(key) or []) if key else []
        self.interrupts = list(view.interrupts)
        self.decisions = {}
        self._drop_landed()
        for bubble in self.live.values():  # streamed inside a subgraph: its answer comes later
            bubble.set_note(translate("chat.chat_panel", "streamed, inside the graph's node"))
        self._render()
        self._update_buttons()

    def _document_loaded(self) -> None:
        """Another graph: nothing of the last one's threads stays (its own come with its
        thread's history)."""
        self.messages, self.interrupts, self.decisions = [], [], {}
        self.live, self.live_text, self.pending = {}, {}, {}
        self._render()  # removes every row, streamed bubbles included
        self._update_buttons()

    def _stepped(self, report: Any) -> None:
        key = self.messages_key()
        row = next((r for r in report.channels if r.name == key and r.has_value), None)
        if row is not None and isinstance(row.value, list):
            self.messages = list(row.value)
            self._drop_landed()
            self._render()

    def _token(self, message_id: str, text: str, node: str) -> None:
        if self.session.dropping:  # streamed by a run of the graph the window left
            return
        bubble = self.live.get(message_id)
        if bubble is None:
            self.live_text[message_id] = ""
            bubble = self.live[message_id] = Bubble("ai", "", note=f"{node} · streaming")
            self.rows.addWidget(bubble)
        self.pending.setdefault(message_id, []).append(text)
        if not self.redraw.isActive():
            self.redraw.start()

    def _draw_tokens(self) -> None:
        """The tokens gathered since the last redraw, into their bubbles (one render each)."""
        started = time.perf_counter()
        pending, self.pending = self.pending, {}
        for message_id, texts in pending.items():
            if (bubble := self.live.get(message_id)) is not None:
                self.live_text[message_id] += "".join(texts)
                bubble.set_text(self.live_text[message_id])
        self._to_bottom()
        # the label lays its text out and paints it later, in this turn of the event loop: what
        # the redraw cost is known once the loop comes back to a zero timer
        QTimer.singleShot(0, self, lambda: self._drawn(started))

    def _drawn(self, started: float) -> None:
        took_ms = (time.perf_counter() - started) * 1000
        self.redraw.setInterval(max(RENDER_MS, int(RENDER_SHARE * took_ms)))

    def _drop_landed(self) -> None:
        """A streamed message that is in the state now is shown from the state."""
        ids = {m.id for m in self.messages if _is_message(m)}
        for mid in [
            m for m in self.live if m in ids or m.removesuffix("-0") in ids or f"{m}-0" in ids
        ]:
            self.live.pop(mid).deleteLater()
            self.live_text.pop(mid, None)
            self.pending.pop(mid, None)

    # ------------------------------------------------------------------ rendering
    def _render(self) -> None:
        live = set(self.live.values())
        while self.rows.count():
            widget = self.rows.takeAt(0).widget()
            if widget is not None and widget not in live:
                widget.deleteLater()
        self.cards = {}
        for message in self.messages:
            if _is_message(message):
                self._add_message(message)
        for bubble in self.live.values():
            self.rows.addWidget(bubble)
        self._add_interrupts()
        self._to_bottom()

    def _add_message(self, message: BaseMessage) -> None:
        kind = message.type
        text = content_text(message.content)
        if kind == "tool":
            card = self.cards.get(getattr(message, "tool_call_id", ""))
            if card is not None:
                card.set_result(text, getattr(message, "status", "success"))
                return
        if kind != "ai" or text:
            note = getattr(message, "name", None) or ""
            self.rows.addWidget(
                Bubble(kind if kind in ("human", "ai", "tool", "system") else "ai", text, note)
            )
        for call in getattr(message, "tool_calls", None) or ():
            card = ToolCallCard(call)
            self.cards[call.get("id") or f"#{len(self.cards)}"] = card
            self.rows.addWidget(card)

    def _add_interrupts(self) -> None:
        for _node, value, interrupt_id in self.interrupts:
            if isinstance(value, dict) and isinstance(value.get("action_requests"), list):
                self._review(interrupt_id, value)
            else:
                self.rows.addWidget(self._reply_box(interrupt_id, value))

    def _review(self, interrupt_id: str, value: dict) -> None:
        """HITL: one decision per action request, on the card of the call it reviews."""
        requests = value["action_requests"]
        configs = {
            c.get("action_name"): c for c in value.get("review_configs", []) if isinstance(c, dict)
        }
        unresolved = [c for c in self.cards.values() if c.result.isHidden()]
        for index, request in enumerate(requests):
            card = next((c for c in unresolved if c.call.get("name") == request.get("name")
                         and c.call.get("args") == request.get("args")), None)  # fmt: skip
            if (
                card is None
            ):  # asked inside an agent's graph: its messages are not in this state yet
                card = ToolCallCard({"name": request.get("name"), "args": request.get("args", {})})
                self.cards[f"review:{index}"] = card
                self.rows.addWidget(card)
            else:
                unresolved.remove(card)
            allowed = configs.get(request.get("name"), {}).get(
                "allowed_decisions", ["approve", "reject"]
            )
            card.ask_review(list(allowed), request.get("description", ""))
            card.decided.connect(
                lambda d, i=index, n=len(requests), iid=interrupt_id: self._decided(iid, i, n, d)
            )

    def _decided(self, interrupt_id: str, index: int, count: int, decision: dict) -> None:
        self.decisions[index] = decision
        if len(self.decisions) == count:
            self.runner.answer(
                interrupt_id, {"decisions": [self.decisions[i] for i in range(count)]}
            )
            self._raise_dock()

    def _reply_box(self, interrupt_id: str, value: Any) -> QWidget:
        box = QWidget()
        box.setObjectName("interruptReply")
        layout = QVBoxLayout(box)
        question = QLabel(
            translate("chat.chat_panel", "⏸ The graph asks: {value}").format(
                value=json.dumps(value, default=str) if not isinstance(value, str) else value
            )
        )
        question.setWordWrap(True)
        question.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(question)
        row = QHBoxLayout()
        answer = QLineEdit()
        answer.setObjectName("interruptAnswer")
        answer.setPlaceholderText(translate("chat.chat_panel", "Your answer (text, or JSON)"))
        button = QPushButton(translate("chat.chat_panel", "Respond"))
        button.setObjectName("interruptRespondButton")

        def respond() -> None:
            text = answer.text()
            try:
                reply = json.loads(text)
            except ValueError:
                reply = text
            box.setEnabled(False)
            self.runner.answer(interrupt_id, reply)
            self._raise_dock()

        button.clicked.connect(respond)
        answer.returnPressed.connect(respond)
        row.addWidget(answer, 1)
        row.addWidget(button)
        layout.addLayout(row)
        return box

    def _to_bottom(self) -> None:
        bar = self.scroll.verticalScrollBar()
        QTimer.singleShot(0, lambda: bar.setValue(bar.maximum()))
