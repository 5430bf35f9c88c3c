"""Differential tests: ShellToolMiddleware (langchain 1.5) on engine.agents and langchain.agents:
the same tool (name, description, schema), and an agent's shell session answering the same:
output with stderr, exit codes, state kept between commands, line and byte limits, a timeout
that restarts the shell, restart on request, redaction (redact and block), startup commands
and shutdown commands run after the agent; policies refusing the same settings (issue 31)."""

import tempfile
from pathlib import Path

import pytest

from tests.engine.agents.helpers import FakeToolModel, ai, same

pytestmark = pytest.mark.differential

CALLS = [
    "echo oops >&2; sleep 0.3; echo hello",  # two pipes: ordered by time, not by chance
    "cd sub && export GREETING=hi",
    "pwd | sed 's#.*/##'; echo $GREETING; cat started.txt",
    "false",
    "seq 1 8",
    "printf 'x%.0s' $(seq 1 50); echo; echo second",
    "sleep 5",
    "echo $GREETING",  # the timeout restarted the shell: the variable is gone
    "echo mail ada@example.com",
    "true",
]


def _tool_messages(result: dict) -> list:
    return [(m.content, m.status, m.name, m.artifact) for m in result["messages"]
            if m.type == "tool"]  # fmt: skip


def test_an_agent_runs_commands_in_one_session(agent_backend, tmp_path):
    def scenario(b):
        root = Path(tempfile.mkdtemp(dir=tmp_path))  # each run its own (the oracle's too)
        (root / "sub").mkdir()
        policy = b.middleware.HostExecutionPolicy(command_timeout=1.0, max_output_lines=5,
                                                  max_output_bytes=40)  # fmt: skip
        mw = b.middleware.ShellToolMiddleware(
            str(root), startup_commands=["echo started > sub/started.txt"],
            shutdown_commands=f"echo bye > {root}/ended.txt", execution_policy=policy,
            redaction_rules=[b.middleware.RedactionRule("email")],
        )  # fmt: skip
        calls = [ai("", ("shell", {"command": c}, f"c{i}")) for i, c in enumerate(CALLS)]
        calls.append(ai("", ("shell", {"restart": True}, "r")))
        model = FakeToolModel(responses=[*calls, ai("done")])
        agent = b.agents.create_agent(model, middleware=[mw])
        result = agent.invoke({"messages": [{"role": "user", "content": "go"}]})
        shape = [(t.name, t.description, t.args) for t in mw.tools]
        ended = (root / "ended.txt").read_text() if (root / "ended.txt").exists() else None
        return shape, _tool_messages(result), "shell_session_resources" in result, ended

    shape, messages, kept, ended = same(agent_backend, scenario)
    assert shape[0][0] == "shell" and set(shape[0][2]) == {"command", "restart"}
    assert messages[0][:2] == ("[stderr] oops\nhello\n", "success")
    assert messages[2][0] == "sub\nhi\nstarted\n"
    assert messages[3][:2] == ("<no output>\n\nExit code: 1", "error")
    assert "... Output truncated at 5 lines (observed 8)." in messages[4][0]
    assert "... Output truncated at 40 bytes (observed 58)." in messages[5][0]
    assert messages[6][:2] == ("Error: Command timed out after 1.0 seconds.", "error")
    assert messages[7][0] == "\n"  # the timeout restarted the shell: no GREETING
    assert messages[8][0] == "mail [REDACTED_EMAIL]\n"
    assert messages[10][:2] == ("Shell session restarted.", "success")
    assert not kept and ended == "bye\n"  # untracked, and the shutdown command ran


def test_blocked_output_and_a_failing_startup(agent_backend, tmp_path):
    def scenario(b):
        rules = [b.middleware.RedactionRule("api_key", strategy="block", detector=r"sk-[a-z]+")]
        root = tempfile.mkdtemp(dir=tmp_path)
        mw = b.middleware.ShellToolMiddleware(root, redaction_rules=rules)
        model = FakeToolModel(responses=[ai("", ("shell", {"command": "echo sk-abc"}, "k")),
                                         ai("done")])  # fmt: skip
        blocked = _tool_messages(b.agents.create_agent(model, middleware=[mw]).invoke(
            {"messages": [{"role": "user", "content": "go"}]}))  # fmt: skip
        failing = b.middleware.ShellToolMiddleware(root, startup_commands=["test -e nothing-here"])
        model = FakeToolModel(responses=[ai("done")])
        try:
            b.agents.create_agent(model, middleware=[failing]).invoke({"messages": []})
        except RuntimeError as exc:
            return blocked, str(exc)
        return blocked, None

    blocked, failure = same(agent_backend, scenario)
    assert blocked[0][:2] == ("Output blocked: detected api_key.", "error")
    assert failure == "Startup command 'test -e nothing-here' failed with exit code 1"


def test_settings_are_refused_alike(agent_backend):
    def scenario(b):
        m = b.middleware
        out = []
        for make in (
            lambda: m.HostExecutionPolicy(max_output_lines=0),
            lambda: m.HostExecutionPolicy(cpu_time_seconds=-1),
            lambda: m.DockerExecutionPolicy(cpu_time_seconds=3),
            lambda: m.DockerExecutionPolicy(cpus=" "),
            lambda: m.ShellToolMiddleware(shell_command=[]),
            lambda: m.ShellToolMiddleware(env={1: "x"}),
        ):
            try:
                make()
                out.append(None)
            except Exception as exc:  # compared by class name and message
                out.append((type(exc).__name__, str(exc)))
        docker = m.DockerExecutionPolicy(network_enabled=False, memory_bytes=100, user="me",
                                         extra_run_args=["--pull", "never"])  # fmt: skip
        return out, repr(docker)

    refused, _ = same(agent_backend, scenario)
    assert all(refused)
