"""`superstep run` on a spec whose agent takes tools from MCP servers: the `mcp` package's own
server (tests/mcp_server.py), as a command over stdio and over streamable HTTP on 127.0.0.1.
A command server needs --trust; secrets come from the environment (or the keychain), never
from the spec; a server that does not start or answer is one clear line. The exported module
runs the same on langgraph (differential)."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from studio.cli import main
from tests.mcp_server import free_port, http_server, stdio_command

pytest.importorskip("langchain_mcp_adapters")


def _spec(tmp_path, server: dict, calls: list[tuple[str, dict]]) -> str:
    """An agent whose scripted model calls `calls` one per turn, then says done."""
    responses = [{"tool_calls": [{"name": n, "args": a}]} for n, a in calls]
    spec = {
        "name": "mcp agent",
        "state": [{"name": "messages", "type": "messages", "reducer": "add_messages"}],
        "nodes": [{"kind": "agent", "id": "helper", "agent": "helper"}],
        "entry": ["helper"],
        "finish": ["helper"],
        "agents": [
            {
                "id": "helper",
                "model": {"provider": "scripted", "responses": [*responses, {"content": "done"}]},
                "mcp_servers": [server],
            }
        ],  # fmt: skip
        "inputs": [{"name": "ask", "value": {"messages": [{"role": "user", "content": "go"}]}}],
    }
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    return str(path)


def _stdio(**extra) -> dict:
    command, args = stdio_command()
    return {"name": "math", "command": command, "args": args, **extra}


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _tool_results(out: str) -> list:
    messages = json.loads(out)["messages"]
    return [block["text"] for m in messages if m["type"] == "tool" for block in m["content"]]


def test_a_command_server_needs_trust_then_its_tool_runs(capsys, tmp_path):
    spec = _spec(tmp_path, _stdio(tools=["add", "shout"]),
                 [("add", {"a": 2, "b": 40}), ("shout", {"text": "hi"})])  # fmt: skip
    code, out, err = _run(capsys, "run", spec)
    assert code == 2 and out == ""
    assert "would start the command" in err and "mcp_server.py stdio (MCP server math)" in err
    assert "--trust" in err
    code, out, err = _run(capsys, "run", spec, "--trust")
    assert (code, err) == (0, "")
    assert _tool_results(out) == ["42", "HI"]
    assert json.loads(out)["messages"][-1]["content"] == "done"


def test_secrets_come_from_the_environment_never_the_spec(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("MY_TOKEN", "s3cret")
    secret = {"name": "TOKEN", "env": "MY_TOKEN"}
    spec = _spec(tmp_path, _stdio(tools=["env_value"], secrets=[secret]),
                 [("env_value", {"name": "TOKEN"})])  # fmt: skip
    assert "s3cret" not in open(spec).read()
    code, out, err = _run(capsys, "run", spec, "--trust")
    assert (code, err) == (0, "")
    assert _tool_results(out) == ["s3cret"]

    monkeypatch.delenv("MY_TOKEN")
    monkeypatch.setattr("graphspec.mcp_servers.stored_key",
                        {"mcp:math:TOKEN": "from-keychain"}.get)  # fmt: skip
    code, out, err = _run(capsys, "run", spec, "--trust")
    assert (code, err) == (0, "")
    assert _tool_results(out) == ["from-keychain"]

    monkeypatch.setattr("graphspec.mcp_servers.stored_key", lambda user: None)
    code, out, err = _run(capsys, "run", spec, "--trust")
    assert code == 2
    assert "MCP server 'math': TOKEN has no value (looked in $MY_TOKEN, else keychain entry " \
           "mcp:math:TOKEN)" in err  # fmt: skip


def test_a_local_http_server_runs_untrusted_with_its_header(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("MCP_KEY", "k-123")
    with http_server() as url:
        server = {"name": "web", "transport": "streamable_http", "url": url,
                  "secrets": [{"name": "X-Key", "env": "MCP_KEY", "prefix": "Key "}],
                  "tools": ["header_value", "add"]}  # fmt: skip
        spec = _spec(tmp_path, server, [("header_value", {"name": "x-key"}),
                                        ("add", {"a": 1, "b": 1})])  # fmt: skip
        code, out, err = _run(capsys, "run", spec)
    assert (code, err) == (0, "")
    assert _tool_results(out) == ["Key k-123", "2"]


def test_secrets_for_another_host_need_trust(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("MCP_KEY", "k-123")
    server = {"name": "web", "transport": "streamable_http", "url": "https://mcp.example.com/mcp",
              "secrets": [{"name": "Authorization", "env": "MCP_KEY"}], "tools": ["add"]}  # fmt: skip
    code, out, err = _run(capsys, "run", _spec(tmp_path, server, []))
    assert code == 2
    assert "would send your Authorization to mcp.example.com (MCP server web)" in err


@pytest.mark.parametrize(
    ("server", "message"),
    [
        ({"name": "gone", "command": "no-such-mcp-command"},
         "MCP server 'gone' (no-such-mcp-command) did not start: command not found"),
        ({"name": "mute", "command": sys.executable, "args": ["-c", "pass"]},
         "did not start or stopped: Connection closed"),
        ({"name": "nobody", "transport": "streamable_http",
          "url": f"http://127.0.0.1:{free_port()}/mcp"},
         "did not answer: ConnectError"),
    ],
)  # fmt: skip
def test_a_server_that_gives_no_tools_is_one_clear_line(capsys, tmp_path, server, message):
    spec = _spec(tmp_path, {**server, "tools": ["add"]}, [])
    code, out, err = _run(capsys, "run", spec, "--trust")
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_a_tool_the_server_does_not_offer_is_named(capsys, tmp_path):
    code, _, err = _run(capsys, "run", _spec(tmp_path, _stdio(tools=["divide"]), []), "--trust")
    assert code == 2
    assert "MCP server 'math' has no tool 'divide' (it offers add, env_value, header_value, " \
           "shout)" in err  # fmt: skip


def _plain(messages: list) -> list:
    """Messages without their random ids (content blocks carry one each)."""
    out = []
    for m in messages:
        data = m if isinstance(m, dict) else m.model_dump()
        content = data["content"]
        if isinstance(content, list):
            content = [{k: v for k, v in b.items() if k != "id"} for b in content]
        calls = [(c["name"], c["args"]) for c in data.get("tool_calls") or []]
        out.append((data["type"], content, data.get("name"), calls, data.get("artifact")))
    return out


def test_the_export_runs_the_same_on_langgraph(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("MY_TOKEN", "s3cret")
    server = _stdio(tools=["env_value", "add"], secrets=[{"name": "TOKEN", "env": "MY_TOKEN"}])
    spec = _spec(tmp_path, server, [("env_value", {"name": "TOKEN"}), ("add", {"a": 3, "b": 4})])
    code, out, err = _run(capsys, "run", spec, "--trust")
    assert (code, err) == (0, "")
    engine = _plain(json.loads(out)["messages"])

    target = tmp_path / "exported.py"
    assert _run(capsys, "export", spec, "--to", "langgraph", "--output", str(target))[0] == 0
    source = target.read_text()
    assert "s3cret" not in source
    assert (
        "MultiServerMCPClient({" in source and "mcp_secret('MY_TOKEN', 'mcp:math:TOKEN')" in source
    )
    module_spec = importlib.util.spec_from_file_location("exported_mcp", target)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)  # real langgraph and langchain-mcp-adapters
    assert "langgraph.graph.state" in type(module.graph.builder).__module__
    result = module.graph.invoke({"messages": [{"role": "user", "content": "go"}]})
    assert _plain(result["messages"]) == engine
    assert [m[1] for m in engine if m[0] == "tool"] == [
        [{"type": "text", "text": "s3cret"}], [{"type": "text", "text": "7"}]
    ]  # fmt: skip


def test_validate_names_mistakes_in_mcp_servers(capsys, tmp_path):
    path = _spec(tmp_path, _stdio(tools=["add"]), [])
    spec = json.loads(open(path).read())
    agent = spec["agents"][0]
    agent["tools"] = [{"name": "add", "code": "def add(a, b):\n    return a + b",
                       "function": "add"}]  # fmt: skip
    agent["mcp_servers"] += [_stdio(tools=[]), {**_stdio(name="more"), "tools": ["add"]}]
    open(path, "w").write(json.dumps(spec))
    code, out, _ = _run(capsys, "validate", path)
    assert code == 2
    assert ("error: $.agents[0].mcp_servers[0].tools[0] (helper): agent 'helper' gets two tools "
            "named 'add' (MCP server 'math' and the agent's own tools)") in out  # fmt: skip
    assert "error: $.agents[0].mcp_servers[1].name (helper): agent 'helper' has two MCP " \
           "servers named 'math'" in out  # fmt: skip
    assert "warning: $.agents[0].mcp_servers[1].tools (helper): MCP server 'math' gives agent " \
           "'helper' no tools" in out  # fmt: skip
    assert "(MCP server 'more' and MCP server 'math')" in out

    spec["agents"][0]["mcp_servers"] = [{"name": "web", "transport": "streamable_http",
                                         "url": "ftp://x", "tools": ["add"]}]  # fmt: skip
    open(path, "w").write(json.dumps(spec))
    code, _, err = _run(capsys, "validate", path)
    assert code == 2
    assert "$.agents[0].mcp_servers[0] (helper): a streamable_http server's `url` starts with " \
           "http:// or https://" in err  # fmt: skip
