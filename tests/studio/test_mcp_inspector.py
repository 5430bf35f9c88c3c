"""MCP tools in the studio, with the mouse and keyboard: an agent's inspector adds an MCP server
(the `mcp` package's own FastMCP server, tests/mcp_server.py, over stdio or HTTP on 127.0.0.1),
lists its tools off the GUI thread, checks one, and a run with a scripted model calls it: the
tool's result is in the run. A server that does not start, does not answer or is at a wrong URL
is a message in the form, the window responsive meanwhile; an untrusted spec's command server
is not started to list it."""

from __future__ import annotations

import json
import shlex
import time

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QListWidget, QPushButton

from graphspec.io import dumps_spec
from studio.run.panels import TracePanel
from tests.mcp_server import free_port, http_server, stdio_command
from tests.studio.helpers import center, click
from tests.studio.test_agent_inspector import (
    edit_cell,
    find,
    new_agent,
    press,
    type_code,
    type_line,
)

pytestmark = pytest.mark.gui
pytest.importorskip("langchain_mcp_adapters")


def _agent(qtbot, win, call: tuple[str, str] = ("add", '{"a": 2, "b": 40}')) -> None:
    """A new graph with one agent, its scripted model calling a tool once, then answering."""
    new_agent(qtbot, win)
    press(qtbot, win, "responseAdd")
    press(qtbot, win, "toolCallAdd")
    edit_cell(qtbot, win, "toolCallsTable", 0, 0, call[0])
    edit_cell(qtbot, win, "toolCallsTable", 0, 1, call[1])
    press(qtbot, win, "responseAdd")
    type_code(qtbot, win, "responseContent", ["Done."])


def _add_server(qtbot, win, text: str) -> None:
    type_line(qtbot, win, "mcpNewServer", text)
    press(qtbot, win, "mcpAddServer")


def _status(qtbot, win, wanted: str, timeout: int = 30000) -> str:
    """Waits, with the event loop running, until the form's status says `wanted`."""
    qtbot.waitUntil(lambda: wanted in find(qtbot, win, QLabel, "mcpToolStatus").text(),
                    timeout=timeout)  # fmt: skip
    return find(qtbot, win, QLabel, "mcpToolStatus").text()


def _check(qtbot, win, name: str) -> None:
    tools = find(qtbot, win, QListWidget, "mcpToolList")
    item = tools.findItems(name, Qt.MatchFlag.MatchExactly)[0]
    rect = tools.visualItemRect(item)
    box = QPoint(rect.left() + rect.height() // 2, rect.center().y())  # the check box
    qtbot.mouseClick(tools.viewport(), Qt.MouseButton.LeftButton, pos=box)


def _run(qtbot, win) -> list:
    editor = win.runner.input_panel.editor
    editor.setFocus()
    QTest.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(editor, json.dumps({"messages": [{"role": "user", "content": "2 + 40?"}]}))
    qtbot.mouseClick(win.findChild(QPushButton, "runButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not win.runner.session.busy and win.runner.view is not None,
                    timeout=60000)  # fmt: skip
    return win.runner.view.values["messages"]


def test_add_a_command_server_list_pick_and_run(window, qtbot):
    win = window
    _agent(qtbot, win)
    command, args = stdio_command()
    _add_server(qtbot, win, shlex.join([command, *args]))
    server = win.document.spec.agents[0].mcp_servers[0]
    assert (server.name, server.command, server.args, server.tools) == \
        ("stdio", command, args, [])  # fmt: skip
    assert "4 tools offered by stdio" in _status(qtbot, win, "tools offered")
    tools = find(qtbot, win, QListWidget, "mcpToolList")
    assert [tools.item(i).text() for i in range(tools.count())] == \
        ["add", "shout", "env_value", "header_value"]  # fmt: skip
    assert tools.item(0).toolTip() == "Add two integers."
    _check(qtbot, win, "add")
    qtbot.waitUntil(lambda: win.document.spec.agents[0].mcp_servers[0].tools == ["add"])

    messages = _run(qtbot, win)
    assert [m.type for m in messages] == ["human", "ai", "tool", "ai"]
    assert messages[2].name == "add" and messages[2].content[0]["text"] == "42"
    assert messages[3].content == "Done."
    trace = "\n".join(win.findChild(TracePanel, "tracePanel").texts())
    assert "add" in trace

    win.actions_by_name["undo"].trigger()  # the pick is one undoable edit
    assert win.document.spec.agents[0].mcp_servers[0].tools == []


def test_an_http_server_is_listed_from_its_url(window, qtbot, monkeypatch):
    win = window
    _agent(qtbot, win)
    with http_server() as url:
        _add_server(qtbot, win, url)
        assert "4 tools offered by local" in _status(qtbot, win, "tools offered")
        _check(qtbot, win, "add")
        messages = _run(qtbot, win)
    assert messages[2].content[0]["text"] == "42"
    server = win.document.spec.agents[0].mcp_servers[0]
    assert (server.transport, server.url, server.tools) == ("streamable_http", url, ["add"])


def test_a_secret_typed_in_the_inspector_goes_to_the_keychain(window, qtbot, monkeypatch):
    keychain: dict[str, str] = {}
    monkeypatch.setattr("graphspec.credentials.store_key", keychain.__setitem__)
    monkeypatch.setattr("graphspec.mcp_servers.stored_key", keychain.get)
    win = window
    _agent(qtbot, win, ("env_value", '{"name": "TOKEN"}'))
    command, args = stdio_command()
    _add_server(qtbot, win, shlex.join([command, *args]))
    _status(qtbot, win, "tools offered")
    _check(qtbot, win, "env_value")
    type_line(qtbot, win, "mcpServerSecrets", "TOKEN=hunter2")  # a value: never in the spec
    error = win.inspector.widget().findChild(QLabel, "inspectorError").text()
    assert (
        "write NAME=$VARIABLE" in error and not win.document.spec.agents[0].mcp_servers[0].secrets
    )
    type_line(qtbot, win, "mcpServerSecrets", "TOKEN=")  # no variable: the keychain only
    assert win.document.spec.agents[0].mcp_servers[0].secrets[0].name == "TOKEN"
    type_line(qtbot, win, "mcpSecretValue", "typed-secret")
    assert keychain == {"mcp:stdio:TOKEN": "typed-secret"}
    assert "typed-secret" not in dumps_spec(win.document.spec)
    messages = _run(qtbot, win)
    assert messages[2].content[0]["text"] == "typed-secret"  # the server's environment had it


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("no-such-mcp-command --stdio", "did not start: command not found: no-such-mcp-command"),
        (f"http://127.0.0.1:{free_port()}/mcp", "did not answer: ConnectError"),
        ("{python} -c 'import time; time.sleep(30)'", "did not answer within 2 s"),
    ],
)
def test_a_server_that_fails_is_a_message_and_the_window_stays_live(window, qtbot, monkeypatch,
                                                                    typed, message):  # fmt: skip
    monkeypatch.setattr("graphspec.mcp_tools.TIMEOUT", 2.0)
    win = window
    _agent(qtbot, win)
    ticks: list[float] = []
    timer = QTimer(win)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(50)
    _add_server(qtbot, win, typed.format(python=stdio_command()[0]))
    _status(qtbot, win, message, timeout=20000)
    timer.stop()
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert max(gaps, default=0) < 1.0  # the GUI thread never waited on the server
    if "within" in message:  # two seconds of waiting, the window drawn all along
        assert ticks[-1] - ticks[0] > 1.5 and len(ticks) > 15
    assert find(qtbot, win, QListWidget, "mcpToolList").count() == 0
    assert win.inspector.widget().findChild(QLabel, "inspectorError").text() == ""


def test_an_untrusted_spec_does_not_start_its_command_to_list_it(window, qtbot, tmp_path):
    win = window
    _agent(qtbot, win)
    command, args = stdio_command()
    _add_server(qtbot, win, shlex.join([command, *args]))
    _status(qtbot, win, "tools offered")
    path = tmp_path / "mcp.json"  # a spec from elsewhere, with the same server
    path.write_text(dumps_spec(win.document.spec.model_copy(update={"name": "from elsewhere"})))
    assert win.open_path(path)  # not trusted until the user says so
    assert not win.document.trusted
    click(win.view, center(win.scene.nodes["agent"]))
    press(qtbot, win, "mcpListTools")
    status = _status(qtbot, win, "trust the spec first")
    assert (
        "would start the command" in status and "mcp_server.py stdio (MCP server stdio)" in status
    )
    assert "start the command" in win.trust_banner.label.text()


def test_a_run_whose_server_is_gone_fails_with_its_message(window, qtbot):
    win = window
    _agent(qtbot, win)
    with http_server() as url:
        _add_server(qtbot, win, url)
        _status(qtbot, win, "tools offered")
        _check(qtbot, win, "add")
    # the server has stopped: the run cannot list its tools, and says so on the agent
    qtbot.mouseClick(win.findChild(QPushButton, "runButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.runner.last_failure is not None, timeout=60000)
    message = win.runner.last_failure.message
    assert "MCP server 'local'" in message and "did not answer" in message
    assert win.runner.last_failure.element_id == "agent"
    assert "Run failed" in win.findChild(QLabel, "runStatus").text()
