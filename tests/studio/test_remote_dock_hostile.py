"""The Server dock against hostile or broken servers (issue 26 items 5 and 10): small fake
LangGraph servers on 127.0.0.1 that trickle a byte a second, put HTML in names, answer with the
wrong JSON shapes, list a million assistants, or stream a run forever. The dock times out at its
deadline, shows the server's words as plain text, keeps at most what it asked for and at most
`max_parts` streamed parts, stops a run, and a studio closed while a call hangs exits."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as QtGuiNames
from PySide6.QtGui import QTextDocument

from studio.remote.remote_dock import LINE_CHARS
from tests.studio.test_remote_dock import attach, connect

pytestmark = pytest.mark.gui

WAIT_MS = 20_000
HTML = "<b>x</b><img src='http://127.0.0.1:9/x.png'>"
ASSISTANT = {"assistant_id": "asst-1", "graph_id": "g", "name": "agent"}
THREAD = {"thread_id": "thread-0001", "status": "idle", "updated_at": "today"}


def _json(body) -> Callable:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()

    def answer(handler: _Fake, code: int = 200) -> None:
        handler.send_response(code)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    return answer


def _trickle(handler: _Fake) -> None:
    """Headers, then one byte a second, forever: no single read ever times out."""
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", "1000000")
    handler.end_headers()
    while not handler.server.closing.wait(1.0):
        handler.wfile.write(b" ")
        handler.wfile.flush()


def _endless_run(handler: _Fake) -> None:
    """An SSE run that never ends: values parts as fast as the client reads them."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.end_headers()
    handler.server.streaming.set()
    n = 0
    try:
        while not handler.server.closing.is_set():
            batch = "".join(f'event: values\ndata: {{"n": {n + i}}}\n\n' for i in range(50))
            handler.wfile.write(batch.encode())
            n += 50
    except OSError:  # the client hung up: the run's stream ended
        handler.server.hung_up.set()


class _Fake(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        path = self.path.split("?")[0]
        answer = next((a for end, a in self.server.routes.items() if path.endswith(end)), None)
        try:
            answer(self) if answer is not None else _json({"detail": "no route"})(self, 404)
        except OSError:  # the client hung up
            pass

    do_GET = do_POST  # noqa: N815

    def log_message(self, *args) -> None:
        pass


def serve(routes: dict[str, Callable]):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Fake)
    httpd.daemon_threads = True
    httpd.routes = routes
    httpd.closing, httpd.streaming, httpd.hung_up = (threading.Event() for _ in range(3))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


@pytest.fixture
def fake():
    servers = []

    def start(routes: dict[str, Callable]) -> tuple[http.server.ThreadingHTTPServer, str]:
        servers.append(serve(routes)[0])
        return servers[-1], f"http://127.0.0.1:{servers[-1].server_address[1]}"

    yield start
    for httpd in servers:
        httpd.closing.set()
        httpd.shutdown()
        httpd.server_close()


def lists(assistants, threads) -> dict[str, Callable]:
    return {"/assistants/search": _json(assistants), "/threads/search": _json(threads),
            "/history": _json([])}  # fmt: skip


def idle(qtbot, panel) -> None:
    qtbot.waitUntil(lambda: panel.busy == 0, timeout=WAIT_MS)


def shown(tip: str) -> str:
    """What a tooltip shows: Qt renders a tooltip that looks like HTML."""
    if not QtGuiNames.mightBeRichText(tip):
        return tip
    document = QTextDocument()
    document.setHtml(tip)
    return document.toPlainText()


def test_a_trickling_server_times_out_at_the_deadline(qtbot, window, fake):
    _, url = fake({"/assistants/search": _trickle})
    window.remote_panel.timeout = 2.0
    start = time.monotonic()
    panel = attach(qtbot, window, url)
    took = time.monotonic() - start
    assert "did not answer within 2 s" in panel.status.text(), panel.status.text()
    assert took < 4.0, took
    assert panel.status.styleSheet() and panel.connect_button.isEnabled()


def test_the_servers_words_are_plain_text(qtbot, window, fake):
    thread = {"thread_id": f"t-{HTML}", "status": HTML, "updated_at": HTML}
    routes = lists([{"assistant_id": HTML, "graph_id": HTML, "name": HTML}], [thread])
    asked = {"checkpoint": {"checkpoint_id": "c1"}, "next": [HTML], "values": {},
             "tasks": [{"interrupts": [{"value": HTML}]}], "created_at": HTML}  # fmt: skip
    routes["/history"] = _json([asked])
    _, url = fake(routes)
    panel = attach(qtbot, window, url)
    assert panel.status.textFormat() == Qt.TextFormat.PlainText
    assert "Connected" in panel.status.text()
    assert shown(panel.assistants.item(0).toolTip()) == HTML
    assert shown(panel.threads.item(0).toolTip()) == f"t-{HTML}\nupdated {HTML}"
    panel.threads.setCurrentRow(0)
    idle(qtbot, panel)
    assert shown(panel.interrupt_label.text()) == f"Waiting at {HTML}: {HTML}"
    assert shown(panel.history.topLevelItem(0).toolTip(3)) == HTML

    _, refusing = fake({"/assistants/search": lambda h: _json({"detail": HTML})(h, 418)})
    connect(qtbot, panel, refusing)
    assert panel.status.text() == f"Connect: HTTP 418: {HTML}"
    assert panel.status.textFormat() == Qt.TextFormat.PlainText


@pytest.mark.parametrize(
    "threads, said",
    [(["a", "b"], "thread is not an object"), ({"thread_id": "t"}, "threads is not a list"),
     ([{"status": "idle"}], "no text 'thread_id'"), ([{"thread_id": 7}], "no text 'thread_id'")],
)  # fmt: skip
def test_a_malformed_threads_reply_is_an_error_not_a_hang(qtbot, window, fake, threads, said):
    _, url = fake(lists([ASSISTANT], threads))
    panel = attach(qtbot, window, url)
    assert said in panel.status.text() and panel.status.styleSheet(), panel.status.text()
    assert panel.busy == 0 and panel.connect_button.isEnabled() and panel.client is None


def test_a_malformed_history_leaves_the_dock_usable(qtbot, window, fake):
    routes = lists([ASSISTANT], [THREAD])
    routes["/history"] = _json([{"checkpoint": "not an object"}])
    _, url = fake(routes)
    panel = attach(qtbot, window, url)
    panel.threads.setCurrentRow(0)
    idle(qtbot, panel)
    assert "History: the server's checkpoint is not an object" in panel.status.text()
    assert panel.refresh_button.isEnabled() and panel.new_thread_button.isEnabled()


def test_a_million_assistants_keep_only_what_was_asked(qtbot, window, fake):
    rows = b",".join(b'{"assistant_id":"a%d","graph_id":"g"}' % i for i in range(1_000_000))
    _, url = fake(lists(b"[" + rows + b"]", [THREAD]))
    window.remote_panel.timeout = 30.0
    panel = attach(qtbot, window, url)
    assert "Connected" in panel.status.text() and "100 assistant(s)" in panel.status.text()
    assert panel.assistants.count() == 100


def test_a_reply_or_a_streamed_part_too_big_is_refused(qtbot, window, fake):
    huge = b" " * (64 * 2**20 + 1) + b"[]"  # valid JSON, one byte over the cap
    _, url = fake({**lists([ASSISTANT], [THREAD]), "/threads/search": _json(huge)})
    panel = attach(qtbot, window, url)
    assert "the server's reply is over 64 MB" in panel.status.text(), panel.status.text()

    def one_long_part(handler: _Fake) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        handler.wfile.write(b"event: values\ndata: " + b"1" * (16 * 2**20 + 1024) + b"\n\n")

    _, url = fake({**lists([ASSISTANT], [THREAD]), "/runs/stream": one_long_part})
    connect(qtbot, panel, url)
    panel.threads.setCurrentRow(0)
    idle(qtbot, panel)
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Run:" in panel.status.text() and panel.busy == 0, timeout=WAIT_MS)
    assert "a streamed part from the server is over 16 MB" in panel.status.text()
    assert panel.stream_view.blockCount() <= panel.max_parts


def test_an_endless_run_keeps_the_last_parts_and_stop_ends_it(qtbot, window, fake):
    server, url = fake({**lists([ASSISTANT], [THREAD]), "/runs/stream": _endless_run})
    panel = attach(qtbot, window, url)
    panel.max_parts = 50
    panel.threads.setCurrentRow(0)
    idle(qtbot, panel)
    assert not panel.stop_button.isEnabled()
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    assert panel.stop_button.objectName() == "remoteStop" and panel.stop_button.isEnabled()
    run = panel._run
    qtbot.waitUntil(lambda: run.count > 2_000 and panel.stream_view.blockCount() == 50,
                    timeout=WAIT_MS)  # fmt: skip
    for _ in range(5):  # the parts keep coming; what is kept does not grow
        qtbot.wait(100)
        assert panel.stream_view.blockCount() <= 50 and len(run.parts) <= 50
        assert all(isinstance(line, str) and len(line) <= LINE_CHARS + 1 for line in run.parts)
    assert '"n": ' in panel.stream_view.toPlainText()
    qtbot.mouseClick(panel.stop_button, Qt.MouseButton.LeftButton)
    assert "Run: stopped after" in panel.status.text() and "the last 50 kept" in panel.status.text()
    assert not panel.stop_button.isEnabled()
    assert server.hung_up.wait(5), "the run's stream is still read after Stop"
    idle(qtbot, panel)  # the refresh after the run
    assert panel.run_button.isEnabled() and panel.stream_view.blockCount() <= 50


CLOSE_WHILE_HANGING = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QAction
    from studio import app

    def attach():
        [win] = [w for w in app.application().topLevelWidgets() if hasattr(w, "remote_panel")]
        win.findChild(QAction, "connectServerAction").trigger()
        panel = win.remote_panel
        panel.timeout = 120.0  # the call hangs for as long as the process lives
        panel.url_edit.setText(sys.argv[1])
        panel.connect_to_server()
        QTimer.singleShot(1500, lambda: (print("closing", flush=True), win.close()))

    app.application()
    QTimer.singleShot(500, attach)
    sys.exit(app.run())
    """
)


def test_a_studio_closed_while_the_server_trickles_exits(fake, tmp_path):
    _, url = fake({"/assistants/search": _trickle})
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "SUPERSTEP_STUDIO_HOME": str(tmp_path / "home")}  # fmt: skip
    child = subprocess.Popen([sys.executable, "-c", CLOSE_WHILE_HANGING, url], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert child.stdout.readline() == "closing\n"  # the window closes, the call still hangs
        closed = time.monotonic()
        child.wait(timeout=15)
        assert time.monotonic() - closed < 5
    finally:
        child.kill()
        _, err = child.communicate()
    assert child.returncode == 0, err
