"""A real MCP server for the tests, the `mcp` package's own FastMCP: `python tests/mcp_server.py
stdio` speaks over stdin/stdout (started by the client as a command); `python
tests/mcp_server.py http PORT` serves streamable HTTP on 127.0.0.1:PORT/mcp.

Tools: `add` and `shout` (plain results), `env_value` (what the command's environment holds)
and `header_value` (what the HTTP request carried): the tests see the secrets arrive.
`http_server()` starts the HTTP one on a free port for the length of a `with`.
"""

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve()


def build(port: int = 0):  # no `from __future__ import annotations`: FastMCP reads `ctx: Context`
    from mcp.server.fastmcp import Context, FastMCP

    server = FastMCP("superstep-test", host="127.0.0.1", port=port, log_level="WARNING")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def shout(text: str) -> str:
        """The text in capitals."""
        return text.upper()

    @server.tool()
    def env_value(name: str) -> str:
        """The server process's environment variable `name` (empty if unset)."""
        return os.environ.get(name, "")

    @server.tool()
    def header_value(name: str, ctx: Context) -> str:
        """The HTTP request's header `name` (empty if absent or not over HTTP)."""
        request = ctx.request_context.request
        return request.headers.get(name, "") if request is not None else ""

    return server


def stdio_command() -> tuple[str, list[str]]:
    """(command, args) starting the stdio server."""
    return sys.executable, [str(HERE), "stdio"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def http_server() -> Iterator[str]:
    """The HTTP server in a process of its own; yields its URL once it accepts connections."""
    port = free_port()
    process = subprocess.Popen([sys.executable, str(HERE), "http", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the test MCP server did not start") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


if __name__ == "__main__":
    if sys.argv[1] == "stdio":
        build().run("stdio")
    else:
        build(int(sys.argv[2])).run("streamable-http")
