"""The Server dock: attach to a LangGraph server, list its assistants and threads, show a
thread's checkpoint history, fork from a checkpoint, answer interrupts and stream runs.

Every call to the server runs on a daemon thread of its own (studio/workers.py `run_on_daemon`):
a stuck server holds neither the studio's shared workers nor the process after the window closes.
Results come back to the GUI thread as queued signals; streamed parts through a bounded buffer
(an endless run keeps its last `max_parts`). A failure or a timeout shows in the status line, as
plain text: the server's words are never rendered as HTML.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.i18n import translate
from studio.item_menu import SEPARATOR, Entries, Entry, copy_entry, item_menu
from studio.plain import line_label, set_line
from studio.workers import run_on_daemon

if TYPE_CHECKING:  # the client (httpx, langgraph_sdk) loads when the user first connects
    from studio.remote.client import Checkpoint, RemoteClient

ID = Qt.ItemDataRole.UserRole
LINE_CHARS = 2000
"""A streamed part or a name longer than this is shown cut (the views stay light)."""


class _StreamRun(QObject):
    """One streamed run: its parts on their way from the stream's thread to the GUI thread as
    the lines the view shows (each cut at LINE_CHARS), at most `cap` waiting (when the GUI falls
    behind, the oldest go), and its stop flag. So a run holds at most `cap` short lines."""

    ready = Signal()

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.parts: deque[str] = deque(maxlen=cap)
        self.count = 0
        self.stop = threading.Event()
        self.end: Callable[[], None] = lambda: None
        self._signalled = False

    def put(self, event: str, data: Any) -> None:
        """On the stream's thread: one signal per batch, not per part."""
        self.count += 1
        self.parts.append(_clip(f"{event}: {json.dumps(data, ensure_ascii=False, default=str)}"))
        if not self._signalled:
            self._signalled = True
            self.ready.emit()

    def take(self) -> list[str]:
        """On the GUI thread: the parts waiting."""
        self._signalled = False
        taken = []
        while self.parts:
            taken.append(self.parts.popleft())
        return taken


def _clip(text: str, limit: int = LINE_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _plain_tip(text: str) -> str:
    """A tooltip showing `text` as it is (Qt renders any tooltip that looks like HTML)."""
    return f"<p style='white-space:pre-wrap'>{escape(_clip(text))}</p>" if text else ""


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
        """Seconds a server may take to send one call's whole reply before the dock says it
        timed out; a streamed run may go on, but not fall silent for longer (LangGraph's server
        sends a heartbeat every 5 s)."""
        self.max_parts = 500
        """Parts of a streamed run kept (in the view and on their way to it): the oldest go."""
        self._generation = 0  # bumped on connect: answers from the previous server are dropped
        self._run: _StreamRun | None = None
        self._build()

    # -------------------------------------------------------------- layout

    def _build(self) -> None:
        self.url_edit = QLineEdit("http://127.0.0.1:2024")
        self.url_edit.setObjectName("remoteUrlEdit")
        self.url_edit.setPlaceholderText(translate("remote.remote_dock", "http://127.0.0.1:2024"))
        self.key_edit = QLineEdit()
        self.key_edit.setObjectName("remoteKeyEdit")
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText(translate("remote.remote_dock", "API key (optional)"))
        self.remember = QCheckBox(translate("remote.remote_dock", "Keep key in keychain"))
        self.remember.setObjectName("remoteRememberKey")
        self.remember.setToolTip(
            translate(
                "remote.remote_dock",
                "Save the key in the OS keychain; otherwise it is kept in memory only",
            )
        )
        self.connect_button = QPushButton(translate("remote.remote_dock", "Connect"))
        self.connect_button.setObjectName("remoteConnectButton")
        self.connect_button.clicked.connect(self.connect_to_server)
        self.url_edit.returnPressed.connect(self.connect_to_server)
        top = QHBoxLayout()
        top.addWidget(QLabel(translate("remote.remote_dock", "Server")))
        top.addWidget(self.url_edit, 3)
        top.addWidget(self.key_edit, 2)
        top.addWidget(self.remember)
        top.addWidget(self.connect_button)
        self.status = line_label(translate("remote.remote_dock", "Not connected"))
        self.status.setObjectName("remoteStatus")
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.assistants = QListWidget()
        self.assistants.setObjectName("remoteAssistants")
        self.threads = QListWidget()
        self.threads.setObjectName("remoteThreads")
        self.threads.currentItemChanged.connect(lambda *_: self.load_history())
        self.new_thread_button = QPushButton(translate("remote.remote_dock", "New thread"))
        self.new_thread_button.setObjectName("remoteNewThreadButton")
        self.new_thread_button.clicked.connect(self.new_thread)
        self.refresh_button = QPushButton(translate("remote.remote_dock", "Refresh"))
        self.refresh_button.setObjectName("remoteRefreshButton")
        self.refresh_button.clicked.connect(self.refresh)
        self.history = QTreeWidget()
        self.history.setObjectName("remoteHistory")
        self.history.setHeaderLabels(
            [
                translate("remote.remote_dock", "step"),
                translate("remote.remote_dock", "source"),
                translate("remote.remote_dock", "next"),
                translate("remote.remote_dock", "checkpoint"),
            ]
        )
        self.history.setRootIsDecorated(False)
        self.history.currentItemChanged.connect(lambda *_: self._show_checkpoint())
        self.values = QPlainTextEdit()
        self.values.setObjectName("remoteValues")
        self.values.setReadOnly(True)

        self.input_edit = QLineEdit()
        self.input_edit.setObjectName("remoteInput")
        self.input_edit.setPlaceholderText(
            translate("remote.remote_dock", 'input or fork values as JSON, e.g. {"topic": "owls"}')
        )
        self.run_button = self._button(
            "remoteRunButton", translate("remote.remote_dock", "Run ▶"), self.run
        )
        self.fork_button = self._button(
            "remoteForkButton", translate("remote.remote_dock", "Fork here"), self.fork
        )
        self.fork_button.setToolTip(
            translate(
                "remote.remote_dock",
                "A new checkpoint branching from the selected one, with the values above",
            )
        )
        self.replay_button = self._button(
            "remoteReplayButton", translate("remote.remote_dock", "Run from here"), self.replay
        )
        self.stop_button = self._button(
            "remoteStop", translate("remote.remote_dock", "Stop ■"), self.stop
        )
        self.stop_button.setToolTip(
            translate("remote.remote_dock", "End the streamed run here (the server may finish it)")
        )
        self.interrupt_label = QLabel("")  # one line beside the buttons; all of it in its tooltip
        self.interrupt_label.setObjectName("remoteInterrupt")
        self.interrupt_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.resume_edit = QLineEdit("true")
        self.resume_edit.setObjectName("remoteResumeEdit")
        self.resume_button = self._button(
            "remoteResumeButton", translate("remote.remote_dock", "Resume"), self.resume
        )
        self.stream_view = QPlainTextEdit()
        self.stream_view.setObjectName("remoteStream")
        self.stream_view.setReadOnly(True)
        self.stream_view.setPlaceholderText(
            translate("remote.remote_dock", "Streamed run parts appear here")
        )

        # the buttons and fields in rows above the lists: a short dock shrinks the lists only
        buttons = QHBoxLayout()
        for b in (self.new_thread_button, self.refresh_button):
            buttons.addWidget(b)
        buttons.addSpacing(12)
        for b in (self.run_button, self.fork_button, self.replay_button, self.stop_button):
            buttons.addWidget(b)
        buttons.addWidget(self.interrupt_label, 1)
        fields = QHBoxLayout()
        fields.addWidget(QLabel(translate("remote.remote_dock", "Input")))
        fields.addWidget(self.input_edit, 3)
        fields.addWidget(QLabel(translate("remote.remote_dock", "Answer")))
        fields.addWidget(self.resume_edit, 1)
        fields.addWidget(self.resume_button)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(
            self._column(translate("remote.remote_dock", "Assistants"), self.assistants)
        )
        splitter.addWidget(self._column(translate("remote.remote_dock", "Threads"), self.threads))
        splitter.addWidget(
            self._column(
                translate("remote.remote_dock", "Checkpoint history (newest first)"), self.history
            )
        )
        splitter.addWidget(self._column(translate("remote.remote_dock", "Values"), self.values))
        splitter.addWidget(
            self._column(translate("remote.remote_dock", "Streamed parts"), self.stream_view)
        )
        splitter.setSizes([150, 180, 300, 300, 300])
        splitter.setChildrenCollapsible(False)
        for view in (self.assistants, self.threads, self.history, self.values, self.stream_view):
            view.setMinimumSize(60, 40)

        item_menu(self.assistants, self._assistant_menu)
        item_menu(self.threads, self._thread_menu)
        item_menu(self.history, self._checkpoint_menu)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        for row in (top, buttons, fields):
            layout.addLayout(row)
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
        layout.setSpacing(2)
        layout.addWidget(
            QLabel(translate("remote.remote_dock", "<b>{title}</b>").format(title=title))
        )
        for widget in widgets:
            layout.addWidget(
                widget, 1 if isinstance(widget, (QListWidget, QTreeWidget, QPlainTextEdit)) else 0
            )
        return column

    # -------------------------------------------------------------- right-click menus

    def _assistant_menu(self, index) -> Entries:
        return [copy_entry("remoteCopyAssistantAction", translate("remote.remote_dock", "Copy assistant id"),
                           str(index.data(ID) or ""))]  # fmt: skip

    def _thread_menu(self, index) -> Entries:
        """The thread right-clicked becomes the current one (its history loads meanwhile, so
        the buttons, off while a call is out, do not say what the menu may do)."""
        on = self.client is not None
        return [
            Entry("remoteThreadRunAction", translate("remote.remote_dock", "Run on this thread"), self.run,
                  enabled=on, tip=translate("remote.remote_dock", "With the input above")),
            Entry("remoteThreadHistoryAction", translate("remote.remote_dock", "Reload its checkpoints"), self.load_history,
                  enabled=on),
            SEPARATOR,
            Entry("remoteNewThreadAction", translate("remote.remote_dock", "New thread"), self.new_thread, enabled=on),
            Entry("remoteRefreshAction", translate("remote.remote_dock", "Refresh"), self.refresh, enabled=on),
            SEPARATOR,
            copy_entry("remoteCopyThreadAction", translate("remote.remote_dock", "Copy thread id"), str(index.data(ID) or "")),
        ]  # fmt: skip

    def _checkpoint_menu(self, index) -> Entries:
        row = index.siblingAtColumn(0).row()
        if not 0 <= row < len(self.checkpoints):
            return []
        on = self.client is not None and self.thread_id() is not None
        return [
            Entry("remoteCheckpointReplayAction", translate("remote.remote_dock", "Run from here"), self.replay, enabled=on),
            Entry("remoteCheckpointForkAction", translate("remote.remote_dock", "Fork here"), self.fork,
                  enabled=on, tip=self.fork_button.toolTip()),
            SEPARATOR,
            copy_entry("remoteCopyCheckpointAction", translate("remote.remote_dock", "Copy checkpoint id"),
                       self.checkpoints[row].checkpoint_id),
        ]  # fmt: skip

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
        self.stop_button.setEnabled(self._run is not None)

    def _say(self, text: str, error: bool = False) -> None:
        set_line(self.status, text)
        self.status.setStyleSheet("color: #B00020;" if error else "")

    # -------------------------------------------------------------- jobs

    def _job(self, name: str, work: Callable[[], Any], done: Callable[[Any], None],
             after: Callable[[], None] = lambda: None) -> Callable[[str], None]:  # fmt: skip
        """`work()` on a daemon thread; `done(result)` back here, unless the dock is gone or it
        reconnected meanwhile. An error shows in the status line; `after()` runs either way.
        Returns `end(message)`, which settles the job at once (Stop): its answer is dropped."""
        from studio.remote.client import describe

        generation = self._generation
        self.busy += 1
        self._set_enabled()
        pending = True

        def settle(show: Callable[[], None]) -> None:
            nonlocal pending
            if not pending or not shiboken6.isValid(self) or generation != self._generation:
                return
            pending = False
            self.busy -= 1
            after()
            try:
                show()
            except Exception as exc:  # a reply the views cannot show: say so, never stay stuck
                self._say(f"{name}: {describe(exc)}", error=True)
            self._set_enabled()
            self.settled.emit(name)

        def finished(result: Any, error: BaseException | None) -> None:
            if error is not None:
                settle(lambda: self._say(f"{name}: {describe(error)}", error=True))
            else:
                settle(lambda: done(result))

        run_on_daemon(work, finished, name=f"remote {name}")
        return lambda message: settle(lambda: self._say(f"{name}: {message}"))

    def connect_to_server(self) -> None:
        url = self.url_edit.text().strip()
        if not url:
            self._say(
                translate(
                    "remote.remote_dock", "Type the server's URL, e.g. http://127.0.0.1:2024"
                ),
                error=True,
            )
            return
        key, keep, timeout = (
            self.key_edit.text().strip() or None,
            self.remember.isChecked(),
            self.timeout,
        )
        self._generation += 1
        self.busy = 0
        self._end_run()
        if self.client is not None:
            self.client.close()
        self.client = None
        self._clear()
        self._say(translate("remote.remote_dock", "Connecting to {url}…").format(url=url))
        from studio.remote.client import RemoteClient, remember_key, stored_key

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
                translate(
                    "remote.remote_dock", "Connected to {url}: {len} assistant(s), {len2} thread(s)"
                ).format(url=self.client.url, len=len(assistants), len2=len(threads))
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
        self._job(
            translate("remote.remote_dock", "New thread"),
            client.create_thread,
            lambda tid: self.refresh(select=tid),
        )

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
            self._say(
                translate("remote.remote_dock", "{what} is not JSON: {exc}").format(
                    what=what, exc=exc
                ),
                error=True,
            )
            return False, None

    def run(self) -> None:
        ok, value = self._parse(
            self.input_edit.text(), translate("remote.remote_dock", "The input")
        )
        if ok:
            self._stream("Run", input=value)

    def replay(self) -> None:
        if (cp := self.checkpoint()) is not None:
            self._stream(
                translate("remote.remote_dock", "Run from checkpoint"),
                checkpoint_id=cp.checkpoint_id,
            )

    def resume(self) -> None:
        ok, value = self._parse(
            self.resume_edit.text(), translate("remote.remote_dock", "The answer")
        )
        if ok:
            self._stream("Resume", resume=True if value is None else value)

    def fork(self) -> None:
        cp, tid, client = self.checkpoint(), self.thread_id(), self.client
        ok, values = self._parse(
            self.input_edit.text(), translate("remote.remote_dock", "The fork's values")
        )
        if cp is None or tid is None or client is None or not ok:
            return

        def done(new_id: str) -> None:
            self._say(
                translate(
                    "remote.remote_dock",
                    "Forked from checkpoint {value}… as {value2}…; Run continues from it",
                ).format(value=cp.checkpoint_id[:13], value2=new_id[:13])
            )
            self.load_history(select=new_id)

        self._job("Fork", lambda: client.fork(tid, cp.checkpoint_id, values), done)

    def _stream(self, name: str, **kwargs: Any) -> None:
        tid, aid, client = self.thread_id(), self.assistant_id(), self.client
        if tid is None or aid is None or client is None:
            self._say(
                translate("remote.remote_dock", "Pick a thread and an assistant first"), error=True
            )
            return
        self._end_run()
        self.stream_view.clear()
        self.stream_view.setMaximumBlockCount(self.max_parts)
        self._say(translate("remote.remote_dock", "{name}: streaming…").format(name=name))
        run = self._run = _StreamRun(self.max_parts)
        run.ready.connect(self._show_parts)  # a method of the dock: queued to the GUI thread

        def work() -> int:
            return client.stream(tid, aid, on_part=run.put, stop=run.stop, **kwargs)

        def done(count: int) -> None:
            self._say(translate("remote.remote_dock", "{name}: {value}, {count} part(s) streamed{kept}").format(name=name, value='stopped' if run.stop.is_set() else 'done', count=count, kept=self._kept(count)))  # fmt: skip
            self.refresh()  # the thread's status and its history both moved

        def forget() -> None:
            if self._run is run:
                self._run = None

        end = self._job(name, work, done, after=forget)

        def stop() -> None:
            run.stop.set()
            end(
                translate("remote.remote_dock", "stopped after {count} part(s){kept}").format(
                    count=run.count, kept=self._kept(run.count)
                )
            )
            self.refresh()

        run.end = stop

    def _kept(self, count: int) -> str:
        return (
            translate("remote.remote_dock", "; the last {max_parts} kept").format(
                max_parts=self.max_parts
            )
            if count > self.max_parts
            else ""
        )

    def stop(self) -> None:
        """Stop: end the streamed run now (its thread ends at the next chunk it receives)."""
        if self._run is not None:
            self._run.end()

    def _end_run(self) -> None:
        if self._run is not None:
            self._run.stop.set()
            self._run = None

    def _show_parts(self) -> None:
        if self._run is None:  # stopped, or another server: its parts are dropped
            return
        for line in self._run.take():
            self.stream_view.appendPlainText(line)

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
                _clip(f"{a.get('name') or a['assistant_id']}  ·  graph {a.get('graph_id')}", 200)
            )
            item.setData(ID, a["assistant_id"])
            item.setToolTip(_plain_tip(a["assistant_id"]))
            self.assistants.addItem(item)
            if a["assistant_id"] == current or self.assistants.currentItem() is None:
                self.assistants.setCurrentItem(item)

    def _fill_threads(self, threads: list[dict], select: str | None = None) -> None:
        self.threads.blockSignals(True)
        self.threads.clear()
        for t in threads:
            item = QListWidgetItem(_clip(f"{t['thread_id'][:8]}…  {t.get('status', '')}", 200))
            item.setData(ID, t["thread_id"])
            item.setToolTip(_plain_tip(f"{t['thread_id']}\nupdated {t.get('updated_at', '')}"))
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
                [
                    str(cp.step),
                    source,
                    ", ".join(cp.next) or translate("remote.remote_dock", "(end)"),
                    cp.checkpoint_id,
                ]
            )
            item.setToolTip(3, _plain_tip(cp.created_at or ""))
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
                translate("remote.remote_dock", "<b>Waiting at {escape}:</b> {escape2}").format(
                    escape=escape(", ".join(head.next)), escape2=escape(_clip(asked))
                )
            )
            self.interrupt_label.setToolTip(_plain_tip(_json(list(head.interrupts))))
        else:
            self.interrupt_label.setText("")
            self.interrupt_label.setToolTip("")
        self._set_enabled()
