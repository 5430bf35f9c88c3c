"""An MCP server's tools through langchain-mcp-adapters: listed for the inspector, and the chosen
ones loaded for a run.

langchain-mcp-adapters' tools are coroutines only; a run here (and the exported module's
`graph.invoke`) calls tools synchronously, so each chosen tool gets a sync form that runs its
coroutine to the end on a loop of its own. Each call opens its own session, as
MultiServerMCPClient's tools do (a stdio server is started per call).

The adapters import `langgraph.types`, so they load on the engine (`graphspec.engine_world`).
Failures (a command that does not start, a URL where no MCP server answers, a server that never
answers) become a SpecError naming the server, from the root of anyio's exception groups.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import sys
import threading
from collections.abc import Coroutine
from typing import Any

from graphspec.errors import SpecError
from graphspec.mcp_servers import EXTRA, connection, shown
from graphspec.model import AgentSpec, McpServer

TIMEOUT = 30.0
"""Seconds a server has to start and list its tools."""


def run_sync(coro: Coroutine) -> Any:
    """The coroutine's result, from sync code: on this thread, or on a thread of its own when
    this one already runs a loop (asyncio.run refuses to nest)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:  # handed back to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=work, name="mcp-call", daemon=True)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def root_cause(exc: BaseException) -> BaseException:
    """The first leaf of anyio's exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def describe(server: McpServer, exc: BaseException) -> str:
    """Why the server gave no tools, in the user's words."""
    cause = root_cause(exc)
    where = f"MCP server {server.name!r} ({shown(server)})"
    if isinstance(cause, (TimeoutError, asyncio.TimeoutError)):
        return f"{where} did not answer within {TIMEOUT:g} s"
    if isinstance(cause, FileNotFoundError):
        return f"{where} did not start: command not found: {server.command}"
    text = str(cause) or type(cause).__name__
    if server.transport == "stdio":
        return f"{where} did not start or stopped: {text}"
    return f"{where} did not answer: {type(cause).__name__}: {text}"


def _adapters() -> Any:
    from graphspec.engine_world import on_engine

    try:
        with on_engine():  # its `langgraph.types.Command` is the engine's
            from langchain_mcp_adapters import client
    except ImportError as exc:
        raise SpecError(f"MCP servers need langchain-mcp-adapters ({exc.name} is missing): "
                        f'pip install "superstep-studio[{EXTRA}]"') from None  # fmt: skip
    _server_stderr()
    return client


def _server_stderr() -> None:
    """A stdio server's stderr is the `sys.stderr` mcp found when first imported (a default
    argument the adapters never override). One without a file descriptor (a redirect to a
    Python object, pytest's capture) fails every start with `fileno`; the process's own stderr,
    or nowhere, takes its place."""
    from mcp.client import stdio

    start = inspect.unwrap(stdio.stdio_client)  # under its asynccontextmanager
    if _has_fileno(start.__defaults__[0]):
        return
    real = (
        sys.__stderr__ if _has_fileno(sys.__stderr__) else open(os.devnull, "w", encoding="utf-8")
    )  # noqa: SIM115
    start.__defaults__ = (real,)


def _has_fileno(stream: Any) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return False
    return True


def fetch_tools(server: McpServer, element_id: str = "", path: str = "$") -> list[Any]:
    """Every tool the server offers (LangChain tools, coroutines only); SpecError if none come."""
    conn = connection(server, element_id, path)
    client = _adapters().MultiServerMCPClient({server.name: conn})

    async def get() -> list[Any]:
        return await asyncio.wait_for(client.get_tools(), TIMEOUT)

    try:
        return run_sync(get())
    except Exception as exc:  # whatever the transport raised: said with the server's name
        raise SpecError(describe(server, exc), element_id=element_id, path=path) from None


def list_tools(server: McpServer) -> list[tuple[str, str]]:
    """(name, description) of each tool the server offers, for the inspector."""
    return [(t.name, t.description or "") for t in fetch_tools(server)]


def with_sync_call(tool: Any) -> Any:
    """The tool, also callable with `invoke` (its coroutine run to the end)."""
    coroutine = tool.coroutine

    def call(**kwargs: Any) -> Any:
        return run_sync(coroutine(**kwargs))

    return tool.model_copy(update={"func": call})


def agent_tools(agent: AgentSpec, element_id: str, path: str) -> list[Any]:
    """The tools the agent chose from its MCP servers, in the servers' order and each server's."""
    out = []
    for k, server in enumerate(agent.mcp_servers):
        where = f"{path}.mcp_servers[{k}]"
        offered = {t.name: t for t in fetch_tools(server, element_id, where)}
        for j, name in enumerate(server.tools):
            if name not in offered:
                raise SpecError(f"MCP server {server.name!r} has no tool {name!r} (it offers "
                                f"{', '.join(sorted(offered)) or 'none'})", element_id=element_id,
                                path=f"{where}.tools[{j}]")  # fmt: skip
            out.append(with_sync_call(offered[name]))
    return out


__all__ = ["TIMEOUT", "agent_tools", "describe", "fetch_tools", "list_tools", "run_sync"]
