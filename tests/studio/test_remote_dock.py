"""The Server dock attached to a real `langgraph dev` (langgraph-cli[inmem]) serving the exported
approval template: assistants and threads listed, a thread's history, a fork from a past
checkpoint, an interrupt answered, runs streamed; refused, 401, 404 and timeouts as messages.
The screenshot: `SUPERSTEP_SCREENSHOT_DIR=docs python -m pytest tests/studio/test_remote_dock.py`."""

from __future__ import annotations

import http.server
import json
import socket
import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from studio.cli import main
from tests.graphspec.test_export_project import (
    _free_port,
    _wait_ready,
    langgraph_cli_or_skip,
    start_server,
    stop_server,
)
from tests.providers.conftest import memory_keyring  # noqa: F401  (fixture)
from tests.studio.test_run_screenshot import save_grab

pytestmark = pytest.mark.gui

WAIT_MS = 60_000  # a loaded 2-core machine: the first run imports the graph on the server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`langgraph dev` on a free 127.0.0.1 port, serving the approval template's project."""
    cli = langgraph_cli_or_skip()
    project = tmp_path_factory.mktemp("approval")
    assert main(["export", "approval", "--to", "langgraph-project", "-o", str(project)]) == 0
    url, proc, log = start_server(cli, project)
    try:
        _wait_ready(url, proc, log)
        yield url
    finally:
        stop_server(proc)


def idle(qtbot, panel) -> None:
    qtbot.waitUntil(lambda: panel.busy == 0, timeout=WAIT_MS)


def attach(qtbot, win, url: str):
    win.findChild(type(win.actions_by_name["quit"]), "connectServerAction").trigger()
    dock = win.findChild(QDockWidget, "remoteDock")
    assert dock.isVisible()
    panel = win.remote_panel
    panel.url_edit.setText(url)
    qtbot.mouseClick(panel.connect_button, Qt.MouseButton.LeftButton)
    idle(qtbot, panel)
    return panel


def pick_thread(panel, thread_id: str) -> None:
    [row] = [
        i
        for i in range(panel.threads.count())
        if panel.threads.item(i).data(Qt.ItemDataRole.UserRole) == thread_id
    ]
    panel.threads.setCurrentRow(row)


def test_attach_list_a_thread_fork_it_and_resume_its_interrupt(qtbot, window, server, tmp_path):
    from langgraph_sdk import get_sync_client

    win = window
    win.resize(1280, 720)
    sdk = get_sync_client(url=server)
    # a thread run by someone else on the server, before the studio attaches
    tid = sdk.threads.create()["thread_id"]
    sdk.runs.wait(tid, "approval", input={"topic": "owls"})

    panel = attach(qtbot, win, server)
    assert "Connected" in panel.status.text(), panel.status.text()
    assert [panel.assistants.item(i).text() for i in range(panel.assistants.count())] == [
        "approval  ·  graph approval"
    ]
    threads = [
        panel.threads.item(i).data(Qt.ItemDataRole.UserRole) for i in range(panel.threads.count())
    ]
    assert tid in threads

    pick_thread(panel, tid)
    idle(qtbot, panel)
    steps = [(cp.step, cp.next) for cp in panel.checkpoints]
    assert steps == [(1, ("ask",)), (0, ("write_draft",)), (-1, ("__start__",))]
    assert panel.history.topLevelItemCount() == 3
    assert "Publish this draft?" in panel.interrupt_label.text()
    assert json.loads(panel.values.toPlainText()) == {"topic": "owls", "draft": "A post about owls"}

    # fork from the checkpoint before write_draft with another topic, then run on from it
    panel.history.setCurrentItem(panel.history.topLevelItem(1))
    panel.input_edit.setText('{"topic": "cats"}')
    qtbot.mouseClick(panel.fork_button, Qt.MouseButton.LeftButton)
    idle(qtbot, panel)
    head = panel.checkpoints[0]
    assert (head.source, head.next, head.values) == ("update", ("write_draft",), {"topic": "cats"})
    assert panel.history.topLevelItem(0).text(1) == "fork"
    assert "Forked from checkpoint" in panel.status.text()
    panel.input_edit.clear()  # no input: the run continues from the fork
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    idle(qtbot, panel)
    streamed = panel.stream_view.toPlainText()
    assert 'updates: {"write_draft": {"draft": "A post about cats"}}' in streamed, streamed
    assert panel.checkpoints[0].interrupts == (
        {"prompt": "Publish this draft?", "payload": "A post about cats"},
    )
    assert panel.resume_button.isEnabled()
    # the original branch is still in the thread's history, below the fork
    assert {"topic": "owls", "draft": "A post about owls"} in [
        cp.values for cp in panel.checkpoints
    ]
    qtbot.wait(200)
    image = save_grab(win, "remote-server.png", tmp_path)
    assert (image.width(), image.height()) == (1280, 720)

    # answer the interrupt: approve, streamed to the end
    panel.resume_edit.setText("true")
    qtbot.mouseClick(panel.resume_button, Qt.MouseButton.LeftButton)
    idle(qtbot, panel)
    assert 'updates: {"publish": {"status": "published"}}' in panel.stream_view.toPlainText()
    head = panel.checkpoints[0]
    assert (
        head.next == ()
        and head.values["status"] == "published"
        and head.values["draft"] == "A post about cats"
    )
    assert not panel.resume_button.isEnabled() and panel.interrupt_label.text() == ""
    assert sdk.threads.get_state(tid)["values"]["status"] == "published"  # the server agrees


def test_a_new_thread_runs_from_the_dock_and_replays_from_a_checkpoint(qtbot, window, server):
    panel = attach(qtbot, window, server)
    qtbot.mouseClick(panel.new_thread_button, Qt.MouseButton.LeftButton)
    idle(qtbot, panel)
    assert panel.thread_id() is not None and panel.checkpoints == []
    panel.input_edit.setText('{"topic": "moths"}')
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    idle(qtbot, panel)
    assert panel.checkpoints[0].next == ("ask",)
    # run again from the first loop checkpoint: the server replays write_draft onwards
    panel.history.setCurrentItem(panel.history.topLevelItem(1))
    qtbot.mouseClick(panel.replay_button, Qt.MouseButton.LeftButton)
    idle(qtbot, panel)
    assert "write_draft" in panel.stream_view.toPlainText()
    assert panel.checkpoints[0].next == ("ask",) and len(panel.checkpoints) > 3


class _KeyedServer(http.server.BaseHTTPRequestHandler):
    """Answers like a LangGraph server with no assistants nor threads, 401 without the right key."""

    def do_POST(self) -> None:  # noqa: N802
        ok = self.headers.get("x-api-key") == "sk-right"
        body = b"[]" if ok else b'{"detail": "Invalid API key"}'
        self.send_response(200 if ok else 401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST  # noqa: N815

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def keyed_server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _KeyedServer)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def connect(qtbot, panel, url: str, key: str = "", remember: bool = False) -> None:
    panel.url_edit.setText(url)
    panel.key_edit.setText(key)
    panel.remember.setChecked(remember)
    qtbot.mouseClick(panel.connect_button, Qt.MouseButton.LeftButton)
    idle(qtbot, panel)


def test_the_key_goes_to_the_keychain_only_when_asked(qtbot, window, keyed_server, memory_keyring):  # noqa: F811
    from studio.remote.client import stored_key

    panel = attach(qtbot, window, keyed_server)
    assert "HTTP 401" in panel.status.text()
    connect(qtbot, panel, keyed_server, "sk-right")
    assert "Connected" in panel.status.text() and stored_key(keyed_server) is None
    assert "sk-right" not in repr(panel.client)
    connect(qtbot, panel, keyed_server, "sk-right", remember=True)
    assert stored_key(keyed_server) == "sk-right"
    connect(qtbot, panel, keyed_server)  # a blank key: the keychain's
    assert "Connected" in panel.status.text(), panel.status.text()


def test_refused_401_404_and_timeout_are_messages_in_the_dock(qtbot, window, server, keyed_server):
    panel = attach(qtbot, window, f"http://127.0.0.1:{_free_port()}")  # nothing listens there
    assert "could not connect" in panel.status.text() and panel.client is None

    panel.url_edit.setText(f"{server}/no/such/api")
    qtbot.mouseClick(panel.connect_button, Qt.MouseButton.LeftButton)
    idle(qtbot, panel)
    assert "HTTP 404" in panel.status.text(), panel.status.text()

    connect(qtbot, panel, keyed_server, "sk-wrong-key")
    assert "HTTP 401" in panel.status.text() and "API key" in panel.status.text()
    assert "sk-wrong-key" not in panel.status.text()

    with socket.socket() as silent:  # accepts connections (the backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        panel.timeout = 1.0
        panel.key_edit.clear()
        panel.url_edit.setText(f"http://127.0.0.1:{silent.getsockname()[1]}")
        qtbot.mouseClick(panel.connect_button, Qt.MouseButton.LeftButton)
        idle(qtbot, panel)
    assert "timeout" in panel.status.text(), panel.status.text()
    assert panel.status.styleSheet()  # shown as an error
