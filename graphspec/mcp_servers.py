"""An agent's MCP servers as langchain-mcp-adapters connects to them, and what they need trust
for. No MCP import here: the validator, trust and the export read this without the extra.

A server's secrets (HTTP headers, a command's environment variables) are never in the spec: each
is read when the server is called, from the user's environment variable the spec names, else
the OS keychain (as providers' API keys are, `graphspec.credentials`), under
`mcp:SERVER:NAME`.

Trust: a stdio server is a command this machine starts, so it runs only for a trusted spec (as
code does). An HTTP server gets the user's secrets only on this machine (localhost) untrusted;
sending them to another host, which the spec chose, needs trust, as a model pointed at a server
the spec chose does (`graphspec.endpoints`). An HTTP server without secrets needs none.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

from graphspec.credentials import stored_key
from graphspec.endpoints import LOOPBACK, shown_host
from graphspec.errors import Finding, SpecError
from graphspec.model import AgentNode, AgentSpec, GraphSpec, McpSecret, McpServer

EXTRA = "mcp"
"""`pip install "superstep-studio[mcp]"`: langchain-mcp-adapters and the mcp package."""


def keychain_user(server: McpServer, secret: McpSecret) -> str:
    """The keychain entry holding a secret's value (service `superstep-studio`)."""
    return f"mcp:{server.name}:{secret.name}"


def secret_source(server: McpServer, secret: McpSecret) -> str:
    """Where the value comes from, as the user reads it."""
    env = f"${secret.env}, else " if secret.env else ""
    return f"{env}keychain entry {keychain_user(server, secret)}"


def secret_value(server: McpServer, secret: McpSecret, element_id: str, path: str) -> str:
    """The secret's value with its prefix; SpecError naming where it was looked for when unset."""
    value = (os.environ.get(secret.env) if secret.env else None) or stored_key(
        keychain_user(server, secret)
    )
    if not value:
        raise SpecError(f"MCP server {server.name!r}: {secret.name} has no value (looked in "
                        f"{secret_source(server, secret)})", element_id=element_id, path=path)  # fmt: skip
    return secret.prefix + value


def command_words(text: str, windows: bool = os.name == "nt") -> list[str]:
    """A command line's words, as this OS's shell splits them. Windows keeps a backslash (it
    separates folders there: POSIX rules would read `C:\\Users\\me` as `C:Usersme`) and
    groups words with double quotes only; ValueError for an unclosed quote."""
    return _windows_words(text) if windows else shlex.split(text)


def command_line(words: list[str], windows: bool = os.name == "nt") -> str:
    """The command line that command_words reads back as `words`."""
    return subprocess.list2cmdline(words) if windows else shlex.join(words)


def _windows_words(text: str) -> list[str]:
    """The Microsoft C runtime's rules (what subprocess.list2cmdline writes for): a run of
    backslashes is literal unless a double quote follows, where each pair is one backslash and
    an odd one escapes the quote."""
    words: list[str] = []
    word: list[str] | None = None
    quoted, i = False, 0
    while i < len(text):
        char = text[i]
        if char in " \t" and not quoted:
            if word is not None:
                words.append("".join(word))
                word = None
            i += 1
            continue
        word = word if word is not None else []
        if char == "\\":
            run = len(text[i:]) - len(text[i:].lstrip("\\"))
            i += run
            if i < len(text) and text[i] == '"':
                word.append("\\" * (run // 2))
                if run % 2:
                    word.append('"')
                    i += 1
            else:
                word.append("\\" * run)
            continue
        if char == '"':
            quoted = not quoted
        else:
            word.append(char)
        i += 1
    if quoted:
        raise ValueError("No closing quotation")
    if word is not None:
        words.append("".join(word))
    return words


def shown(server: McpServer) -> str:
    """The server as the user reads it: its command line or its URL."""
    if server.transport == "stdio":
        return command_line([server.command, *server.args])
    return server.url


def connection(server: McpServer, element_id: str, path: str) -> dict:
    """The server's connection as MultiServerMCPClient takes it, with its secrets filled in."""
    values = {s.name: secret_value(server, s, element_id, f"{path}.secrets[{k}]")
              for k, s in enumerate(server.secrets)}  # fmt: skip
    if server.transport == "stdio":
        out: dict = {"transport": "stdio", "command": server.command, "args": list(server.args)}
        if values:
            out["env"] = values
        return out
    out = {"transport": "streamable_http", "url": server.url}
    if values:
        out["headers"] = values
    return out


def is_local(url: str) -> bool:
    return (urlsplit(url).hostname or "").lower() in LOOPBACK


def _agents(spec: GraphSpec, prefix: str) -> Iterator[tuple[str, str, AgentSpec]]:
    for i, agent in enumerate(spec.agents):
        users = [n.id for n in spec.nodes if isinstance(n, AgentNode) and n.agent == agent.id]
        yield users[0] if users else agent.id, f"{prefix}.agents[{i}]", agent


def server_sites(server: McpServer, element: str, path: str) -> list[Finding]:
    """What one server would do that needs trust (nothing for a local or secret-less URL)."""
    if server.transport == "stdio":
        what = f"start the command {shown(server)} (MCP server {server.name})"
        return [Finding(f"{path}.command", what, element, code="mcp-command")]
    if not server.secrets or is_local(server.url):
        return []
    names = ", ".join(s.name for s in server.secrets)
    what = f"send your {names} to {shown_host(server.url)} (MCP server {server.name})"
    return [Finding(f"{path}.url", what, element, code="mcp-secret")]


def mcp_sites(spec: GraphSpec, prefix: str = "$") -> list[Finding]:
    """Every MCP server of the spec's agents that would run a command or send a secret away."""
    return [
        site
        for element, path, agent in _agents(spec, prefix)
        for k, server in enumerate(agent.mcp_servers)
        for site in server_sites(server, element, f"{path}.mcp_servers[{k}]")
    ]


Add = Callable[..., None]


def check_servers(agent: AgentSpec, path: str, add: Add, own_tools: set[str]) -> None:
    """Mistakes in an agent's servers: `add(severity, code, message, path, fix)`."""
    names: set[str] = set()
    chosen: dict[str, str] = {}
    for k, server in enumerate(agent.mcp_servers):
        where = f"{path}.mcp_servers[{k}]"
        if server.name in names:
            add("error", "duplicate-mcp-server", f"agent {agent.id!r} has two MCP servers named "
                f"{server.name!r}", f"{where}.name", "rename one")  # fmt: skip
        names.add(server.name)
        if not server.tools:
            add("warning", "mcp-no-tools", f"MCP server {server.name!r} gives agent {agent.id!r} "
                "no tools", f"{where}.tools", "list its tools in the inspector and pick some")  # fmt: skip
        for j, tool in enumerate(server.tools):
            other = chosen.get(tool) or ("the agent's own tools" if tool in own_tools else None)
            if other is not None:
                add("error", "duplicate-tool", f"agent {agent.id!r} gets two tools named {tool!r} "
                    f"(MCP server {server.name!r} and {other})", f"{where}.tools[{j}]",
                    "pick it from one server only")  # fmt: skip
            chosen.setdefault(tool, f"MCP server {server.name!r}")


__all__ = [
    "EXTRA",
    "check_servers",
    "connection",
    "is_local",
    "keychain_user",
    "mcp_sites",
    "secret_source",
    "secret_value",
    "server_sites",
    "shown",
]
