"""An agent's MCP servers (`mcpEditor`): add one by its command line or URL, and for the selected
server its name, command or URL, secrets, and its tools, listed from the server itself and
checked to give them to the agent.

Listing runs on a daemon thread (a server may be slow, or never answer: `graphspec.mcp_tools`
gives up after its timeout); what it found, or why it found nothing, is kept in the host's
memory under the server as it was asked, so the form (rebuilt after every edit) shows it. A
command server is started to list it, which is running code: an untrusted spec must be trusted
first, as for a run.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from graphspec import credentials
from graphspec.mcp_servers import (
    command_words,
    is_local,
    keychain_user,
    secret_source,
    server_sites,
    shown,
)
from graphspec.model import McpSecret, McpServer
from studio.edits import unique_id
from studio.i18n import translate
from studio.panels.inspector.host import Host, buttons, indented_form, line_edit, select_row
from studio.panels.inspector.tools_editor import _first_error
from studio.plain import plain_label


def new_server(text: str, taken: set[str]) -> McpServer:
    """A server from what the user typed: a URL, or a command line."""
    text = text.strip()
    if text.lower().startswith(("http://", "https://")):
        return McpServer(name=_name(_host_word(text), taken), transport="streamable_http",
                         url=text)  # fmt: skip
    words = command_words(text)
    if not words:
        raise ValueError(
            translate(
                "panels.inspector.mcp_form", "type the server's command line or its http(s):// URL"
            )
        )
    base = next((w for w in reversed(words) if not w.startswith("-")), words[0])
    return McpServer(name=_name(base, taken), command=words[0], args=words[1:])


def _host_word(url: str) -> str:
    """What names a URL's server: `deepwiki` for mcp.deepwiki.com, `local` on this machine."""
    host = (urlsplit(url).hostname or "").lower()
    if is_local(url):
        return "local"
    words = [w for w in host.split(".")[:-1] if w not in ("mcp", "www", "api")]
    return words[0] if words and not host.replace(".", "").isdigit() else "server"


def _name(text: str, taken: set[str]) -> str:
    stem = re.sub(r"\.[a-z]+$", "", text.rsplit("/", 1)[-1].split("@")[0])
    name = re.sub(r"\W+", "_", stem).strip("_").lower()
    if not name or not (name[0].isalpha() or name[0] == "_"):
        name = f"server_{name}".rstrip("_")
    return unique_id(name[:40], taken)


def secrets_text(server: McpServer) -> str:
    """`NAME=prefix$VARIABLE` for each secret; `NAME=prefix$` (or `NAME=`): the keychain only."""
    return ", ".join(
        f"{s.name}={s.prefix}${s.env}" if s.env or s.prefix else f"{s.name}="
        for s in server.secrets
    )


def parse_secrets(text: str) -> list[McpSecret]:
    """The secrets `secrets_text` writes; a value without `$` would be the secret itself,
    which the spec never holds: refused."""
    out = []
    for entry in filter(None, (e.strip() for e in text.split(","))):
        name, _, value = entry.partition("=")
        prefix, dollar, env = value.partition("$")
        if value and not dollar:
            raise ValueError(translate("panels.inspector.mcp_form", "{name}: write NAME=$VARIABLE (the value stays in your environment or keychain, never in the spec)").format(
                name=name.strip()))  # fmt: skip
        out.append(McpSecret(name=name.strip(), env=env.strip(), prefix=prefix))
    return out


class McpServersEditor(QWidget):
    """`list_tools(server)` gives [(name, description)] or raises SpecError (run off the GUI
    thread); `run(work, done)` runs it there (studio.workers.run_on_daemon)."""

    def __init__(self, host: Host, owner: str, get: Callable[[], list[McpServer]],
                 put: Callable[[list[McpServer], str | bool, str], bool],
                 list_tools: Callable[[McpServer], list[tuple[str, str]]] | None = None,
                 run: Callable[..., Any] | None = None) -> None:  # fmt: skip
        super().__init__()
        self.setObjectName("mcpEditor")
        self.host, self.owner, self.get, self.put = host, owner, get, put
        self.list_tools, self.run = list_tools, run
        self.key = (owner, "mcp_server")
        servers = get()
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.list = QListWidget()
        self.list.setObjectName("mcpServerList")
        for server in servers:
            self.list.addItem(f"{server.name}  —  {shown(server)}")
        self.list.setMaximumHeight(22 * max(len(servers), 1) + 8)
        box.addWidget(self.list)
        self.new = line_edit("mcpNewServer", "", lambda t: True, host.say,
                             translate("panels.inspector.mcp_form", "command line, or http(s):// URL"))  # fmt: skip
        box.addWidget(self.new)
        box.addWidget(buttons(("mcpAddServer", translate("panels.inspector.mcp_form", "Add server"), self._add),
                              ("mcpRemoveServer", translate("panels.inspector.mcp_form", "Remove"), self._remove)))  # fmt: skip
        row = min(host.memory.get(self.key, 0), len(servers) - 1)
        if row >= 0:
            self.list.setCurrentRow(row)
            box.addWidget(self._detail(row, servers[row]))
        self.list.currentRowChanged.connect(lambda row: select_row(self.host, self.key, row))

    # -------------------------------------------------------------- the selected server

    def _detail(self, row: int, server: McpServer) -> QWidget:
        page, form = indented_form()
        say = self.host.say
        form.addRow(translate("panels.inspector.mcp_form", "Name"), line_edit("mcpServerName", server.name,
                                      lambda t: self._change(row, name=t.strip()), say))  # fmt: skip
        if server.transport == "stdio":
            form.addRow(translate("panels.inspector.mcp_form", "Command"), line_edit("mcpServerCommand", shown(server),
                                             lambda t: self._command(row, t), say))  # fmt: skip
        else:
            form.addRow(translate("panels.inspector.mcp_form", "URL"), line_edit("mcpServerUrl", server.url,
                                         lambda t: self._change(row, url=t.strip()), say))  # fmt: skip
        secrets = line_edit("mcpServerSecrets", secrets_text(server),
                            lambda t: self._secrets(row, t), say,
                            "NAME=$VARIABLE, Authorization=Bearer $TOKEN")  # fmt: skip
        secrets.setToolTip("\n".join(f"{s.name}: {secret_source(server, s)}"
                                     for s in server.secrets)
                           or translate("panels.inspector.mcp_form", "headers (URL) or environment variables (command) whose values come from your environment or keychain, never the spec"))  # fmt: skip
        form.addRow(translate("panels.inspector.mcp_form", "Secrets"), secrets)
        if server.secrets:
            form.addRow(translate("panels.inspector.mcp_form", "Keychain"), self._keychain(server))
        form.addRow(
            buttons(
                (
                    "mcpListTools",
                    translate("panels.inspector.mcp_form", "List tools"),
                    lambda: self.fetch(server),
                )
            )
        )
        listed = self.host.memory.get(self._listed_key(server))
        status = plain_label()
        status.setObjectName("mcpToolStatus")
        status.setWordWrap(True)
        status.setText(self._status(server, listed))
        form.addRow(status)
        offered = listed if isinstance(listed, list) else [(n, "") for n in server.tools]
        extra = [(n, translate("panels.inspector.mcp_form", "not offered by the server")) for n in server.tools
                 if n not in {name for name, _ in offered}]  # fmt: skip
        tools = QListWidget()
        tools.setObjectName("mcpToolList")
        for name, description in [*offered, *extra]:
            item = QListWidgetItem(name)
            item.setToolTip(description)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            chosen = name in server.tools
            item.setCheckState(Qt.CheckState.Checked if chosen else Qt.CheckState.Unchecked)
            tools.addItem(item)
        tools.setMaximumHeight(22 * max(tools.count(), 1) + 8)
        tools.itemChanged.connect(lambda item: self._pick(row, item.text(),
                                                          item.checkState() == Qt.CheckState.Checked))  # fmt: skip
        form.addRow(translate("panels.inspector.mcp_form", "Tools"), tools)
        return page

    def _keychain(self, server: McpServer) -> QWidget:
        """A secret's value typed once and saved in the OS keychain (never in the spec), where
        a run reads it when its environment variable is not set."""
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        names = QComboBox()
        names.setObjectName("mcpSecretName")
        names.addItems([s.name for s in server.secrets])
        value = QLineEdit()
        value.setObjectName("mcpSecretValue")
        value.setEchoMode(QLineEdit.EchoMode.Password)
        value.setPlaceholderText(
            translate("panels.inspector.mcp_form", "value, saved in the keychain")
        )
        save = QPushButton(translate("panels.inspector.mcp_form", "Save"))
        save.setObjectName("mcpSecretSave")

        def store() -> None:
            secret = server.secrets[names.currentIndex()]
            try:
                credentials.store_key(keychain_user(server, secret), value.text())
            except Exception as exc:  # no keychain on this machine, a locked one...
                self.host.say(translate("panels.inspector.mcp_form", "{name} not saved: {kind}: {exc}").format(
                    name=secret.name, kind=type(exc).__name__, exc=exc))  # fmt: skip
                return
            done = (
                translate("panels.inspector.mcp_form", "saved as {user}")
                if value.text()
                else translate("panels.inspector.mcp_form", "removed: {user}")
            )
            value.clear()
            self.host.say("")
            value.setPlaceholderText(done.format(user=keychain_user(server, secret)))

        save.clicked.connect(store)
        value.returnPressed.connect(store)
        for widget in (names, value, save):
            line.addWidget(widget)
        return row

    def _listed_key(self, server: McpServer) -> tuple:
        return (self.owner, "mcp_listed", server.name, shown(server), secrets_text(server))

    @staticmethod
    def _status(server: McpServer, listed: Any) -> str:
        if listed is None:
            return translate(
                "panels.inspector.mcp_form",
                "Check the tools the agent gets (List tools asks the server).",
            )
        if isinstance(listed, str):
            return listed
        return translate("panels.inspector.mcp_form", "{count} tools offered by {server}; checked ones go to the agent.").format(
            count=len(listed), server=server.name)  # fmt: skip

    def fetch(self, server: McpServer) -> None:
        """List the server's tools off the GUI thread; the form shows them when they come."""
        key = self._listed_key(server)
        sites = server_sites(server, self.owner, "$")
        if sites and not self.host.editor.document.trusted:
            self.host.memory[key] = translate("panels.inspector.mcp_form", "Listing would {message}: trust the spec first (the banner above the canvas)").format(
                message=sites[0].message)  # fmt: skip
            self.host.rebuild()
            return
        if self.list_tools is None or self.run is None:
            from graphspec.mcp_tools import list_tools
            from studio.workers import run_on_daemon

            self.list_tools, self.run = list_tools, run_on_daemon
        self.host.memory[key] = translate("panels.inspector.mcp_form", "Asking {server} for its tools…").format(
            server=server.name)  # fmt: skip
        self.host.rebuild()
        host = self.host

        def done(result: Any, error: BaseException | None) -> None:
            host.memory[key] = result if error is None else str(error) or type(error).__name__
            host.rebuild()

        self.run(lambda: self.list_tools(server), done, "mcp-list-tools")

    # -------------------------------------------------------------- edits

    def _change(self, row: int, text: str = "", **changes: Any) -> bool:
        servers = list(self.get())
        if not 0 <= row < len(servers):
            return False
        try:
            servers[row] = McpServer.model_validate({**servers[row].model_dump(), **changes})
        except ValueError as exc:
            self.host.say(translate("panels.inspector.mcp_form", "MCP server {server}: {error}").format(
                server=servers[row].name, error=_first_error(exc)))  # fmt: skip
            return False
        return self.put(servers, False, text or translate("panels.inspector.mcp_form", "Change MCP server {server}").format(
            server=servers[row].name))  # fmt: skip

    def _command(self, row: int, text: str) -> bool:
        try:
            words = command_words(text)
        except ValueError as exc:
            self.host.say(translate("panels.inspector.mcp_form", "command: {exc}").format(exc=exc))
            return False
        return self._change(row, command=words[0] if words else "", args=words[1:])

    def _secrets(self, row: int, text: str) -> bool:
        try:
            secrets = parse_secrets(text)
        except ValueError as exc:
            self.host.say(translate("panels.inspector.mcp_form", "secrets: {error}").format(
                error=_first_error(exc)))  # fmt: skip
            return False
        return self._change(row, secrets=[s.model_dump() for s in secrets])

    def _pick(self, row: int, name: str, on: bool) -> None:
        servers = self.get()
        if not 0 <= row < len(servers):
            return
        tools = [t for t in servers[row].tools if t != name] + ([name] if on else [])
        text = (
            translate("panels.inspector.mcp_form", "Give MCP tool {name}")
            if on
            else translate("panels.inspector.mcp_form", "Take away MCP tool {name}")
        )
        self._change(row, text.format(name=name), tools=tools)

    def _add(self) -> None:
        servers = list(self.get())
        try:
            server = new_server(self.new.text(), {s.name for s in servers})
        except ValueError as exc:
            self.host.say(translate("panels.inspector.mcp_form", "MCP server: {error}").format(
                error=_first_error(exc)))  # fmt: skip
            return
        self.host.memory[self.key] = len(servers)
        added = translate("panels.inspector.mcp_form", "Add MCP server {server}")
        if self.put([*servers, server], False, added.format(server=server.name)):
            self.fetch(server)

    def _remove(self) -> None:
        servers = list(self.get())
        row = self.list.currentRow()
        if 0 <= row < len(servers):
            gone = servers.pop(row)
            self.host.memory[self.key] = max(row - 1, 0)
            removed = translate("panels.inspector.mcp_form", "Remove MCP server {server}")
            self.put(servers, False, removed.format(server=gone.name))
