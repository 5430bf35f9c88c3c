"""An agent's MCP servers as the exported module writes them: a MultiServerMCPClient with the
servers' connections, and its `get_tools()` kept to the chosen tools, in the servers' order.

Secrets stay out of the module as they stay out of the spec: each is read when the module is
imported, from its environment variable, else the keychain entry the studio reads
(`mcp_secret`). The adapters' tools are coroutines only; `mcp_tools` gives each a sync form too,
so `graph.invoke` runs them as `superstep run` does (`graphspec.mcp_tools`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphspec.mcp_servers import keychain_user
from graphspec.model import AgentSpec, McpServer
from graphspec.pysource import literal

if TYPE_CHECKING:
    from graphspec.export.python_module import PythonModule

MCP_IMPORTS = [
    "import asyncio",
    "import os",
    "from concurrent.futures import ThreadPoolExecutor",
    "from langchain_mcp_adapters.client import MultiServerMCPClient",
]
"""The imports the helpers need; reserved in every export like the optional ones."""

MCP_HELPERS = ("mcp_secret", "mcp_tools", "run_sync")

MCP_TOOLS_SOURCE = '''
def run_sync(coroutine):
    """The coroutine's result from sync code (on a thread of its own if a loop runs here)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def mcp_tools(client, chosen):
    """The chosen tools of each server, by name; each also runs with `invoke` (MCP tools are
    coroutines only)."""

    def sync_form(coroutine):
        return lambda **kwargs: run_sync(coroutine(**kwargs))

    tools = []
    for server, names in chosen.items():
        offered = {t.name: t for t in run_sync(client.get_tools(server_name=server))}
        for name in names:
            found = offered[name]
            tools.append(found.model_copy(update={"func": sync_form(found.coroutine)}))
    return tools
'''

MCP_SECRET_SOURCE = '''
def mcp_secret(variable, keychain_user):
    """A value kept out of this file: its environment variable, else the OS keychain."""
    value = os.environ.get(variable) if variable else None
    if not value:
        import keyring

        value = keyring.get_password("superstep-studio", keychain_user)
    if not value:
        raise RuntimeError(f"set ${variable} or the keychain entry {keychain_user}")
    return value
'''


def _add_block(module: PythonModule, source: str) -> None:
    block = source.strip() + "\n"
    if block not in module.blocks:
        module.blocks.insert(0, block)


def _connection(module: PythonModule, server: McpServer) -> str:
    if server.transport == "stdio":
        parts = [
            f"'transport': 'stdio', 'command': {server.command!r}, 'args': {literal(server.args)}"
        ]
        field = "env"
    else:
        parts = [f"'transport': 'streamable_http', 'url': {server.url!r}"]
        field = "headers"
    if server.secrets:
        _add_block(module, MCP_SECRET_SOURCE)
        values = ", ".join(
            f"{s.name!r}: {s.prefix!r} + mcp_secret({s.env!r}, {keychain_user(server, s)!r})"
            if s.prefix
            else f"{s.name!r}: mcp_secret({s.env!r}, {keychain_user(server, s)!r})"
            for s in server.secrets
        )
        parts.append(f"{field!r}: {{{values}}}")
    return "{" + ", ".join(parts) + "}"


def mcp_tools_source(module: PythonModule, agent: AgentSpec, prefix: str) -> str:
    """Writes the agent's client and returns the name of its chosen tools' list."""
    for line in MCP_IMPORTS:
        module.need(line)
    _add_block(module, MCP_TOOLS_SOURCE)
    client = module.name(f"{prefix}{agent.id}_mcp_client")
    servers = ",\n".join(f"    {s.name!r}: {_connection(module, s)}" for s in agent.mcp_servers)
    chosen = {s.name: list(s.tools) for s in agent.mcp_servers}
    tools = module.name(f"{prefix}{agent.id}_mcp_tools")
    module.blocks.append(
        f"{client} = MultiServerMCPClient({{\n{servers},\n}})\n"
        f"{tools} = mcp_tools({client}, {literal(chosen)})\n"
    )
    return tools


__all__ = ["MCP_HELPERS", "MCP_IMPORTS", "mcp_tools_source"]
