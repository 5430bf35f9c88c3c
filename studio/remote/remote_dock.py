"""The Server dock: attach to a LangGraph server, list its assistants and threads, show a
thread's checkpoint history, fork from a checkpoint, answer interrupts and stream runs.

Every call to the server runs on the studio's worker threads (studio/workers.py); results and
streamed parts come back to the GUI thread as queued signals. A failure shows in the status line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from html import escape
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.remote.client import Checkpoint, RemoteClient, describe, remember_key, stored_key
from studio.workers import run_in_thread

ID = Qt.ItemDataRole.UserRole


class _Parts(QObject):
    """Carries streamed parts from the worker running the stream to the GUI thread."""

    part = Signal(int, str, object)  # generation, event, data


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def _asked(value: Any) -> str:
    """An interrupt's value on one line: a dict's fields as `key: value`, else its JSON."""
    if isinstance(value, dict):
        return " · ".join(
            f"{k}: {v if isinstance(v, str) else json.dumps(v, default=str)}"
            for k, v in value.items()
        )
    return value if isinstance(value, str) else json.dumps(value, default=str)


class RemoteDock(QWidget):
    """Connection row, then assistants | threads | history | the checkpoint and the run controls."""

    connected = Signal()
    settled = Signal(str)
    """A job finished (its name), successfully or not: tests and the status line follow it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("remoteDockWidget")
        self.client: RemoteClient | None = None
        self.checkpoints: list[Checkpoint] = []
        self.busy = 0
        self.timeout = 10.0
        """Seconds a server may take to answer one call before the dock says it timed out (a long
        run's stream stays alive: LangGraph's server sends a heartbeat every 5 s)."""
        self._generation = 0  # bumped on connect: answers from the previous server are dropped
        self._parts = _Parts()
        self._parts.part.connect(self._on_part)
        self._build()

    # -------------------------------------------------------------- layout

    def _build(self) -> None:
        self.url_edit = QLineEdit("http://127.0.0.1:2024")
        self.url_edit.setObjectName("remoteUrlEdit")
        self.url_edit.setPlaceholderText("http://127.0.0.1:2024")
        self.key_edit = QLineEdit()
        self.key_edit.setObjectName("remoteKeyEdit")
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText("API key (optional)")
        self.remember = QCheckBox("Keep key in keychain")
        self.remember.setObjectName("remoteRememberKey")
        self.remember.setToolTip(
            "Save the key in the OS keychain; otherwise it is kept in memory only"
        )
        self.connect_button = QPushButton("Connect")
        self.connect_button.setObjectName("remoteConnectButton")
        self.connect_button.clicked.connect(self.connect_to_server)
        self.url_edit.returnPressed.connect(self.connect_to_server)
        top = QHBoxLayout()
        top.addWidget(QLabel("Server"))
        top.addWidget(self.url_edit, 3)
        top.addWidget(self.key_edit, 2)
        top.addWidget(self.remember)
        top.addWidget(self.connect_button)
        self.status = QLabel("Not connected")
        self.status.setObjectName("remoteStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.assistants = QListWidget()
        self.assistants.setObjectName("remoteAssistants")
        self.threads = QListWidget()
        self.threads.setObjectName("remoteThreads")
        self.threads.currentItemChanged.connect(lambda *_: self.load_history())
        self.new_thread_button = QPushButton("New thread")
        self.new_thread_button.setObjectName("remoteNewThreadButton")
        self.new_thread_button.clicked.connect(self.new_thread)
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.setObjectName("remoteRefreshButton")
        self.refresh_button.clicked.connect(self.refresh)
        self.history = QTreeWidget()
        self.history.setObjectName("remoteHistory")
        self.history.setHeaderLabels(["step", "source", "next", "checkpoint"])
        self.history.setRootIsDecorated(False)
        self.history.currentItemChanged.connect(lambda *_: self._show_checkpoint())
        self.values = QPlainTextEdit()
        self.values.setObjectName("remoteValues")
        self.values.setReadOnly(True)

        self.input_edit = QLineEdit()
        self.input_edit.setObjectName("remoteInput")
        self.input_edit.setPlaceholderText('input or fork values as JSON, e.g. {"topic": "owls"}')
        self.run_button = self._button("remoteRunButton", "Run ▶", self.run)
        self.fork_button = self._button("remoteForkButton", "Fork here", self.fork)
        self.fork_button.setToolTip(
            "A new checkpoint branching from the selected one, with the values above"
        )
        self.replay_button = self._button("remoteReplayButton", "Run from here", self.replay)
        self.interrupt_label = QLabel("")
        self.interrupt_label.setObjectName("remoteInterrupt")
        self.interrupt_label.setWordWrap(True)
        self.resume_edit = QLineEdit("true")
        self.resume_edit.setObjectName("remoteResumeEdit")
        self.resume_button = self._button("remoteResumeButton", "Resume", self.resume)
        self.stream_view = QPlainTextEdit()
        self.stream_view.setObjectName("remoteStream")
        self.stream_view.setReadOnly(True)
        self.stream_view.setPlaceholderText("Streamed run parts appear here")

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self._column("Assistants", self.assistants))
        splitter.addWidget(
            self._column("Threads", self.threads, self.new_thread_button, self.refresh_button)
        )
        splitter.addWidget(self._column("Checkpoint history (newest first)", self.history))
        actions = QWidget()
        form = QFormLayout(actions)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.input_edit)
        buttons = QHBoxLayout()
        for b in (self.run_button, self.fork_button, self.replay_button):
            buttons.addWidget(b)
        form.addRow(buttons)
        form.addRow(self.interrupt_label)
        resume_row = QHBoxLayout()
        resume_row.addWidget(self.resume_edit)
        resume_row.addWidget(self.resume_button)
        form.addRow("Answer", resume_row)
        splitter.addWidget(self._column("Values", self.values, actions, self.stream_view))
        splitter.setSizes([160, 220, 330, 420])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.status)
        layout.addWidget(splitter, 1)
        self._set_enabled()

    def _button(self, name: str, text: str, slot: Callable[[], None]) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.clicked.connect(slot)
        return button

    def _column(self, title: str, *widgets: QWidget) -> QWidget:
        column = QWidget()
        layout = QVBoxLayout(column)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(f"<b>{title}</b>"))
        for widget in widgets:
            layout.addWidget(
                widget, 1 if isinstance(widget, (QListWidget, QTreeWidget, QPlainTextEdit)) else 0
            )
        return column

    # -------------------------------------------------------------- selection

    def thread_id(self) -> str | None:
        item = self.threads.currentItem()
        return item.data(ID) if item is not None else None

    def assistant_id(self) -> str | None:
        item = self.assistants.currentItem() or self.assistants.item(0)
        return item.data(ID) if item is not None else None

    def checkpoint(self) -> Checkpoint | None:
        item = self.history.currentItem()
        if item is None:
            return None
        return self.checkpoints[self.history.indexOfTopLevelItem(item)]

    def _set_enabled(self) -> None:
        on, thread, cp = (
            self.client is not None,
            self.thread_id() is not None,
            self.checkpoint() is not None,
        )
        head = self.checkpoints[0] if self.checkpoints else None
        for widget, enabled in ((self.new_thread_button, on), (self.refresh_button, on),
                                (self.run_button, on and thread), (self.fork_button, cp), (self.replay_button, cp),
                                (self.resume_button, bool(head and head.interrupts))):  # fmt: skip
            widget.setEnabled(enabled and not self.busy)

    def _say(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color: #B00020;" if error else "")

    # -------------------------------------------------------------- jobs

    def _job(self, name: str, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """`work()` on a worker thread; `done(result)` back here, unless the dock is gone or it
        reconnected meanwhile. An error shows in the status line."""
        generation = self._generation
        self.busy += 1
        self._set_enabled()

        def finished(result: Any, error: BaseException | None) -> None:
            if not shiboken6.isValid(self) or generation != self._generation:
                return
            self.busy -= 1
            if error is not None:
                self._say(f"{name}: {describe(error)}", error=True)
            else:
                done(result)
            self._set_enabled()
            self.settled.emit(name)

        run_in_thread(work, finished)

    def connect_to_server(self) -> None:
        url = self.url_edit.text().strip()
        if not url:
            self._say("Type the server's URL, e.g. http://127.0.0.1:2024", error=True)
            return
        key, keep, timeout = (
            self.key_edit.text().strip() or None,
            self.remember.isChecked(),
            self.timeout,
        )
        self._generation += 1
        self.busy = 0
        if self.client is not None:
            self.client.close()
        self.client = None
        self._clear()
        self._say(f"Connecting to {url}…")

        def work() -> tuple[RemoteClient, list[dict], list[dict]]:
            used = (
                key if key is not None else stored_key(url)
            )  # the keychain can be slow: off the GUI
            client = RemoteClient(url, used, timeout)
            assistants, threads = client.assistants(), client.threads()
            if keep and key is not None:
                remember_key(url, key)
            return client, assistants, threads

        def done(result: tuple[RemoteClient, list[dict], list[dict]]) -> None:
            self.client, assistants, threads = result
            self._fill_assistants(assistants)
            self._fill_threads(threads)
            self._say(
                f"Connected to {self.client.url}: {len(assistants)} assistant(s), {len(threads)} thread(s)"
            )
            self.connected.emit()

        self._job("Connect", work, done)

    def refresh(self, select: str | None = None) -> None:
        if self.client is None:
            return
        client, keep = self.client, select or self.thread_id()
        self._job("Refresh", lambda: (client.assistants(), client.threads()),
                  lambda r: (self._fill_assistants(r[0]), self._fill_threads(r[1], keep)))  # fmt: skip

    def new_thread(self) -> None:
        if self.client is None:
            return
        client = self.client
        self._job("New thread", client.create_thread, lambda tid: self.refresh(select=tid))

    def load_history(self, select: str | None = None) -> None:
        self.history.clear()
        self.checkpoints = []
        self.values.clear()
        self._show_interrupt()
        tid = self.thread_id()
        if self.client is None or tid is None:
            self._set_enabled()
            return
        client = self.client

        def done(checkpoints: list[Checkpoint]) -> None:
            if tid != self.thread_id():  # another thread was picked meanwhile
                return
            self._fill_history(checkpoints, select)

        self._job("History", lambda: client.history(tid), done)

    def _parse(self, text: str, what: str) -> tuple[bool, Any]:
        if not text.strip():
            return True, None
        try:
            return True, json.loads(text)
        except ValueError as exc:
            self._say(f"{what} is not JSON: {exc}", error=True)
            return False, None

    def run(self) -> None:
        ok, value = self._parse(self.input_edit.text(), "The input")
        if ok:
            self._stream("Run", input=value)

    def replay(self) -> None:
        if (cp := self.checkpoint()) is not None:
            self._stream("Run from checkpoint", checkpoint_id=cp.checkpoint_id)

    def resume(self) -> None:
        ok, value = self._parse(self.resume_edit.text(), "The answer")
        if ok:
            self._stream("Resume", resume=True if value is None else value)

    def fork(self) -> None:
        cp, tid, client = self.checkpoint(), self.thread_id(), self.client
        ok, values = self._parse(self.input_edit.text(), "The fork's values")
        if cp is None or tid is None or client is None or not ok:
            return

        def done(new_id: str) -> None:
            self._say(
                f"Forked from checkpoint {cp.checkpoint_id[:13]}… as {new_id[:13]}…; Run continues from it"
            )
            self.load_history(select=new_id)

        self._job("Fork", lambda: client.fork(tid, cp.checkpoint_id, values), done)

    def _stream(self, name: str, **kwargs: Any) -> None:
        tid, aid, client = self.thread_id(), self.assistant_id(), self.client
        if tid is None or aid is None or client is None:
            self._say("Pick a thread and an assistant first", error=True)
            return
        self.stream_view.clear()
        self._say(f"{name}: streaming…")
        generation, parts = self._generation, self._parts

        def work() -> int:
            on_part = lambda event, data: parts.part.emit(generation, event, data)  # noqa: E731
            return len(client.stream(tid, aid, on_part=on_part, **kwargs))

        def done(count: int) -> None:
            self._say(f"{name}: done, {count} part(s) streamed")
            self.refresh()  # the thread's status and its history both moved

        self._job(name, work, done)

    def _on_part(self, generation: int, event: str, data: Any) -> None:
        if generation == self._generation:
            self.stream_view.appendPlainText(
                f"{event}: {json.dumps(data, ensure_ascii=False, default=str)}"
            )

    # -------------------------------------------------------------- filling the views

    def _clear(self) -> None:
        for view in (self.assistants, self.threads, self.history, self.values, self.stream_view):
            view.clear()
        self.checkpoints = []
        self._show_interrupt()

    def _fill_assistants(self, assistants: list[dict]) -> None:
        current = self.assistant_id()
        self.assistants.clear()
        for a in assistants:
            item = QListWidgetItem(
                f"{a.get('name') or a['assistant_id']}  ·  graph {a.get('graph_id')}"
            )
            item.setData(ID, a["assistant_id"])
            item.setToolTip(a["assistant_id"])
            self.assistants.addItem(item)
            if a["assistant_id"] == current or self.assistants.currentItem() is None:
                self.assistants.setCurrentItem(item)

    def _fill_threads(self, threads: list[dict], select: str | None = None) -> None:
        self.threads.blockSignals(True)
        self.threads.clear()
        for t in threads:
            item = QListWidgetItem(f"{t['thread_id'][:8]}…  {t.get('status', '')}")
            item.setData(ID, t["thread_id"])
            item.setToolTip(f"{t['thread_id']}\nupdated {t.get('updated_at', '')}")
            self.threads.addItem(item)
            if t["thread_id"] == select:
                self.threads.setCurrentItem(item)
        self.threads.blockSignals(False)
        self.load_history()

    def _fill_history(self, checkpoints: list[Checkpoint], select: str | None) -> None:
        self.checkpoints = checkpoints
        self.history.clear()
        for cp in checkpoints:
            source = "fork" if cp.source == "update" else (cp.source or "")
            item = QTreeWidgetItem(
                [str(cp.step), source, ", ".join(cp.next) or "(end)", cp.checkpoint_id]
            )
            item.setToolTip(3, cp.created_at or "")
            self.history.addTopLevelItem(item)
        for column in range(3):
            self.history.resizeColumnToContents(column)
        ids = [cp.checkpoint_id for cp in checkpoints]
        row = ids.index(select) if select in ids else 0
        if checkpoints:
            self.history.setCurrentItem(self.history.topLevelItem(row))
        self._show_interrupt()

    def _show_checkpoint(self) -> None:
        cp = self.checkpoint()
        self.values.setPlainText("" if cp is None else _json(cp.values))
        self._set_enabled()

    def _show_interrupt(self) -> None:
        head = self.checkpoints[0] if self.checkpoints else None
        if head is not None and head.interrupts:
            asked = "; ".join(_asked(i) for i in head.interrupts)
            self.interrupt_label.setText(
                f"<b>Waiting at {', '.join(head.next)}:</b> {escape(asked)}"
            )
            self.interrupt_label.setToolTip(_json(list(head.interrupts)))
        else:
            self.interrupt_label.setText("")
            self.interrupt_label.setToolTip("")
        self._set_enabled()
