"""ShellToolMiddleware: a `shell` tool over one long-lived shell per agent run, as langchain 1.5
defines it.

The session starts before the agent (or at the tool's first call), runs the startup commands,
and is kept in the private, untracked `shell_session_resources` state key (never checkpointed);
after the agent the shutdown commands run and the shell stops. A command is written to the
shell's stdin followed by a `printf` of a unique marker and `$?`: its output is every line read
until the marker (stderr lines as `[stderr] ...`), and its exit code the marker's. Past the
policy's line or byte limit, lines are counted but dropped; past its timeout the shell is
restarted and the call is an error. Redaction rules (the PII middleware's detectors and
strategies) rewrite the output, or block it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import signal
import subprocess
import tempfile
import threading
import time
import uuid
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired

from langchain_core.messages import ToolMessage
from langchain_core.runnables import run_in_executor
from langchain_core.tools import ToolException, tool
from pydantic import BaseModel, model_validator
from pydantic.json_schema import SkipJsonSchema

from engine.agents.middleware._execution import (
    SHELL_TEMP_PREFIX,
    BaseExecutionPolicy,
    CodexSandboxExecutionPolicy,
    DockerExecutionPolicy,
    HostExecutionPolicy,
)
from engine.agents.middleware.pii import (
    PIIDetectionError,
    PIIMatch,
    Strategy,
    apply_strategy,
    resolve_detector,
)
from engine.agents.middleware.types import AgentMiddleware, AgentState, PrivateStateAttr, ResponseT
from engine.channels.untracked_value import UntrackedValue
from engine.prebuilt.tool_node import ToolRuntime

LOGGER = logging.getLogger(__name__)
_MARKER = "__LC_SHELL_DONE__"
SHELL_TOOL_NAME = "shell"
DEFAULT_TOOL_DESCRIPTION = (
    "Execute a shell command inside a persistent session. Before running a command, "
    "confirm the working directory is correct (e.g., inspect with `ls` or `pwd`) and ensure "
    "any parent directories exist. Prefer absolute paths and quote paths containing spaces, "
    'such as `cd "/path/with spaces"`. Chain multiple commands with `&&` or `;` instead of '
    "embedding newlines. Avoid unnecessary `cd` usage unless explicitly required so the "
    "session remains stable. Outputs may be truncated when they become very large, and long "
    "running commands will be terminated once their configured timeout elapses."
)
"""The tool's description as langchain words it: the model reads it, so it is kept verbatim."""


# ------------------------------------------------------------------ redaction


@dataclass
class RedactionRule:
    """One PII type to find in a command's output (a built-in detector, a regex, or a
    function) and what to do with it: redact, mask, hash, or block the whole output."""

    pii_type: str
    strategy: Strategy = "redact"
    detector: Any = None

    def resolve(self) -> ResolvedRedactionRule:
        return ResolvedRedactionRule(self.pii_type, self.strategy,
                                     resolve_detector(self.pii_type, self.detector))  # fmt: skip


@dataclass(frozen=True)
class ResolvedRedactionRule:
    pii_type: str
    strategy: Strategy
    detector: Any

    def apply(self, content: str) -> tuple[str, list[PIIMatch]]:
        """The content rewritten, and what was found; PIIDetectionError for `block`."""
        found = self.detector(content)
        return (apply_strategy(content, found, self.strategy), found) if found else (content, [])


# ------------------------------------------------------------------ the session


@dataclass(frozen=True)
class CommandExecutionResult:
    output: str
    exit_code: int | None
    timed_out: bool
    truncated_by_lines: bool
    truncated_by_bytes: bool
    total_lines: int
    total_bytes: int


@dataclass
class _Output:
    """What a command printed, within the policy's limits (every line still counted)."""

    policy: BaseExecutionPolicy
    kept: list[str] = field(default_factory=list)
    lines: int = 0
    size: int = 0
    over_lines: bool = False
    over_bytes: bool = False

    def add(self, source: str, line: str) -> None:
        self.lines += 1
        self.size += len(line.encode("utf-8", "replace"))
        if self.lines > self.policy.max_output_lines:
            self.over_lines = True
        elif self.policy.max_output_bytes is not None and self.size > self.policy.max_output_bytes:
            self.over_bytes = True
        else:
            self.keep(source, line)

    def keep(self, source: str, line: str) -> None:
        if source == "stderr":
            self.kept.append(f"[stderr] {line.rstrip(chr(10))}")
            if line.endswith("\n"):
                self.kept.append("\n")
        else:
            self.kept.append(line)

    def result(self, exit_code: int | None, timed_out: bool = False) -> CommandExecutionResult:
        return CommandExecutionResult("" if timed_out else "".join(self.kept), exit_code,
                                      timed_out, self.over_lines, self.over_bytes, self.lines,
                                      self.size)  # fmt: skip


class ShellSession:
    """One shell process, fed commands one at a time; two threads read its stdout and stderr
    into one queue of (source, line), None at end of stream."""

    def __init__(self, workspace: Path, policy: BaseExecutionPolicy, command: tuple[str, ...],
                 environment: Mapping[str, str]) -> None:  # fmt: skip
        self._workspace, self._policy = workspace, policy
        self._command, self._environment = command, dict(environment)
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[tuple[str, str | None]] = queue.Queue()
        self._lock = threading.Lock()
        self._terminated = False

    def start(self) -> None:
        if self._process is not None and self._process.poll() is None:
            return
        process = self._policy.spawn(workspace=self._workspace, env=self._environment,
                                     command=self._command)  # fmt: skip
        if process.stdin is None or process.stdout is None or process.stderr is None:
            raise RuntimeError("Failed to initialize shell session pipes.")
        self._process, self._terminated, self._lines = process, False, queue.Queue()
        for stream, source in ((process.stdout, "stdout"), (process.stderr, "stderr")):
            threading.Thread(target=self._read, args=(stream, source), daemon=True).start()

    def _read(self, stream: Any, source: str) -> None:
        for line in iter(stream.readline, ""):
            self._lines.put((source, line))
        self._lines.put((source, None))

    def restart(self) -> None:
        self.stop(self._policy.termination_timeout)
        self.start()

    def stop(self, timeout: float) -> None:
        process = self._process
        if process is None:
            return
        if process.poll() is None and not self._terminated:
            with contextlib.suppress(BrokenPipeError, OSError):  # it exits, or is killed below
                process.stdin.write("exit\n")
                process.stdin.flush()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._kill(process)
        finally:
            self._terminated = True
            with contextlib.suppress(Exception):
                process.stdin.close()
            self._process = None

    @staticmethod
    def _kill(process: subprocess.Popen[str]) -> None:
        """The shell's whole process group when it has one of its own (never ours)."""
        if hasattr(os, "killpg"):
            try:
                group = os.getpgid(process.pid)
                if group != os.getpgrp():
                    os.killpg(group, signal.SIGKILL)
                    return
            except ProcessLookupError:
                return
            except OSError:
                LOGGER.warning("Group kill failed; falling back to direct kill.", exc_info=True)
        try:
            process.kill()
        except ProcessLookupError:
            pass
        except OSError:
            LOGGER.warning("Direct kill failed.", exc_info=True)

    def execute(self, command: str, *, timeout: float) -> CommandExecutionResult:
        process = self._process
        if process is None or process.poll() is not None:
            raise RuntimeError("Shell session is not running.")
        marker = f"{_MARKER}{uuid.uuid4().hex}"
        deadline = time.monotonic() + timeout
        with self._lock:
            self._drain()
            try:
                process.stdin.write(command if command.endswith("\n") else f"{command}\n")
                process.stdin.write(f"printf '{marker} %s\\n' $?\n")
                process.stdin.flush()
            except (BrokenPipeError, OSError):  # the command ended the shell (`exit 1`)
                return self._after_exit(deadline)
            return self._until_marker(marker, deadline, timeout)

    def _drain(self) -> None:
        with contextlib.suppress(queue.Empty):
            while True:
                self._lines.get_nowait()

    def _next(self, until: float) -> tuple[str, str | None] | None:
        left = until - time.monotonic()
        if left <= 0:
            return None
        try:
            return self._lines.get(timeout=left)
        except queue.Empty:
            return None

    def _until_marker(self, marker: str, deadline: float, timeout: float) -> CommandExecutionResult:
        output = _Output(self._policy)
        while (item := self._next(deadline)) is not None:
            source, line = item
            if line is None:
                continue
            if source == "stdout" and line.startswith(marker):
                self._late_stderr(output, deadline)
                return output.result(_exit_code(line.partition(" ")[2]))
            output.add(source, line)
        LOGGER.warning("Command timed out after %.2f seconds; restarting shell session.", timeout)
        self.restart()
        return output.result(None, timed_out=True)

    def _late_stderr(self, output: _Output, deadline: float) -> None:
        """stderr written just before the command ended may still be on its way (its own
        reader thread): a short wait for it, kept whatever the limits."""
        until = min(time.monotonic() + 0.05, deadline)
        while (item := self._next(until)) is not None:
            if item[0] == "stderr" and item[1] is not None:
                output.keep("stderr", item[1])

    def _after_exit(self, deadline: float) -> CommandExecutionResult:
        output = _Output(self._policy)
        until = min(time.monotonic() + 0.1, deadline)
        while (item := self._next(until)) is not None:
            if item[1] is not None:
                output.add(*item)
        return output.result(self._process.poll() if self._process is not None else None)


def _exit_code(text: str) -> int | None:
    with contextlib.suppress(ValueError):
        return int(text.strip())
    return None


# ------------------------------------------------------------------ the middleware


def _cleanup(session: ShellSession, tempdir: Any, timeout: float) -> None:
    with contextlib.suppress(Exception):
        session.stop(timeout)
    if tempdir is not None:
        with contextlib.suppress(Exception):
            tempdir.cleanup()


@dataclass
class _SessionResources:
    """A run's shell and its temporary workspace, stopped and removed when the agent ends or
    when this object is collected, whichever comes first."""

    session: ShellSession
    tempdir: tempfile.TemporaryDirectory[str] | None
    policy: BaseExecutionPolicy
    finalizer: weakref.finalize = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.finalizer = weakref.finalize(self, _cleanup, self.session, self.tempdir,
                                          self.policy.termination_timeout)  # fmt: skip


class ShellToolState(AgentState[ResponseT]):
    shell_session_resources: NotRequired[
        Annotated[_SessionResources | None, UntrackedValue, PrivateStateAttr]
    ]


class _ShellToolInput(BaseModel):
    command: str | None = None
    """The shell command to execute."""
    restart: bool | None = None
    """Whether to restart the shell session."""
    runtime: Annotated[Any, SkipJsonSchema()] = None
    """Injected by the tool node (not shown to the model)."""

    @model_validator(mode="after")
    def _one(self) -> _ShellToolInput:
        if self.command is None and not self.restart:
            raise ValueError("Shell tool requires either 'command' or 'restart'.")
        if self.command is not None and self.restart:
            raise ValueError("Specify only one of 'command' or 'restart'.")
        return self


def _as_tuple(value: Sequence[str] | str | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


class ShellToolMiddleware(AgentMiddleware):
    """Gives the agent one persistent shell (`tool_name`, default `shell`), run by
    `execution_policy` (default HostExecutionPolicy) in `workspace_root` (default a temporary
    folder made for the run and removed after it)."""

    state_schema = ShellToolState

    def __init__(
        self,
        workspace_root: str | Path | None = None,
        *,
        startup_commands: Sequence[str] | str | None = None,
        shutdown_commands: Sequence[str] | str | None = None,
        execution_policy: BaseExecutionPolicy | None = None,
        redaction_rules: Sequence[RedactionRule] | None = None,
        tool_description: str | None = None,
        tool_name: str = SHELL_TOOL_NAME,
        shell_command: Sequence[str] | str | None = None,
        env: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self._workspace_root = Path(workspace_root) if workspace_root else None
        self._tool_name = tool_name
        self._shell_command = (
            _as_tuple(shell_command) if shell_command is not None else ("/bin/bash",)
        )
        if not self._shell_command:
            raise ValueError("Shell command must contain at least one argument.")
        if env is not None and any(not isinstance(k, str) for k in env):
            raise TypeError("Environment variable names must be strings.")
        self._environment = {k: str(v) for k, v in env.items()} if env is not None else None
        self._execution_policy = execution_policy or HostExecutionPolicy()
        self._redaction_rules = tuple(rule.resolve() for rule in redaction_rules or ())
        self._startup_commands = _as_tuple(startup_commands)
        self._shutdown_commands = _as_tuple(shutdown_commands)

        @tool(tool_name, args_schema=_ShellToolInput,
              description=tool_description or DEFAULT_TOOL_DESCRIPTION)  # fmt: skip
        def shell_tool(*, runtime: ToolRuntime, command: str | None = None,
                       restart: bool = False) -> ToolMessage | str:  # fmt: skip
            resources = self._get_or_create_resources(runtime.state)
            return self._run_shell_tool(resources, {"command": command, "restart": restart},
                                        tool_call_id=runtime.tool_call_id)  # fmt: skip

        self._shell_tool = shell_tool
        self.tools = [shell_tool]

    # -------------------------------------------------------------- hooks

    def before_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return {"shell_session_resources": self._get_or_create_resources(state)}

    async def abefore_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return await run_in_executor(None, self.before_agent, state, runtime)

    def after_agent(self, state: Any, runtime: Any) -> None:
        resources = state.get("shell_session_resources")
        if not isinstance(resources, _SessionResources):
            return
        try:
            self._run_shutdown_commands(resources.session)
        finally:
            resources.finalizer()

    async def aafter_agent(self, state: Any, runtime: Any) -> None:
        return self.after_agent(state, runtime)

    # -------------------------------------------------------------- the session

    def _get_or_create_resources(self, state: Any) -> _SessionResources:
        """The run's session (kept in its state: a resumed run finds it), or a new one."""
        found = state.get("shell_session_resources")
        if isinstance(found, _SessionResources):
            return found
        state["shell_session_resources"] = made = self._create_resources()
        return made

    def _create_resources(self) -> _SessionResources:
        tempdir = None
        if self._workspace_root is None:
            tempdir = tempfile.TemporaryDirectory(prefix=SHELL_TEMP_PREFIX)
            workspace = Path(tempdir.name)
        else:
            workspace = self._workspace_root
            workspace.mkdir(parents=True, exist_ok=True)
        session = ShellSession(workspace, self._execution_policy, self._shell_command,
                               self._environment or {})  # fmt: skip
        try:
            session.start()
            self._run_startup_commands(session)
        except BaseException:
            LOGGER.exception("Starting shell session failed; cleaning up resources.")
            session.stop(self._execution_policy.termination_timeout)
            if tempdir is not None:
                tempdir.cleanup()
            raise
        return _SessionResources(session, tempdir, self._execution_policy)

    def _run_startup_commands(self, session: ShellSession) -> None:
        for command in self._startup_commands:
            result = session.execute(command, timeout=self._execution_policy.startup_timeout)
            if result.timed_out or result.exit_code not in (0, None):
                raise RuntimeError(
                    f"Startup command '{command}' failed with exit code {result.exit_code}"
                )

    def _run_shutdown_commands(self, session: ShellSession) -> None:
        for command in self._shutdown_commands:  # failures are logged: the agent is done
            try:
                result = session.execute(command, timeout=self._execution_policy.command_timeout)
            except (RuntimeError, ToolException, OSError) as exc:
                LOGGER.warning("Failed to run shutdown command '%s': %s", command, exc)
                continue
            if result.timed_out:
                LOGGER.warning("Shutdown command '%s' timed out.", command)
            elif result.exit_code not in (0, None):
                LOGGER.warning("Shutdown command '%s' exited with %s.", command, result.exit_code)

    # -------------------------------------------------------------- one call

    def _apply_redactions(self, content: str) -> tuple[str, dict[str, list[PIIMatch]]]:
        found: dict[str, list[PIIMatch]] = {}
        for rule in self._redaction_rules:
            content, matches = rule.apply(content)
            if matches:
                found.setdefault(rule.pii_type, []).extend(matches)
        return content, found

    def _run_shell_tool(self, resources: _SessionResources, payload: dict[str, Any], *,
                        tool_call_id: str | None) -> ToolMessage | str:  # fmt: skip
        session, policy = resources.session, self._execution_policy
        if payload.get("restart"):
            try:
                session.restart()
                self._run_startup_commands(session)
            except BaseException as exc:
                raise ToolException("Failed to restart shell session.") from exc
            return self._format_tool_message("Shell session restarted.", tool_call_id,
                                             status="success")  # fmt: skip
        command = payload.get("command")
        if not command or not isinstance(command, str):
            raise ToolException(
                "Shell tool expects a 'command' string when restart is not requested."
            )
        result = session.execute(command, timeout=policy.command_timeout)
        if result.timed_out:
            return self._format_tool_message(
                f"Error: Command timed out after {policy.command_timeout:.1f} seconds.",
                tool_call_id, status="error", artifact={"timed_out": True, "exit_code": None},
            )  # fmt: skip
        try:
            text, matches = self._apply_redactions(result.output)
        except PIIDetectionError as exc:
            return self._format_tool_message(
                f"Output blocked: detected {exc.pii_type}.", tool_call_id, status="error",
                artifact={"timed_out": False, "exit_code": result.exit_code,
                          "matches": {exc.pii_type: exc.matches}},
            )  # fmt: skip
        text = text or "<no output>"
        if result.truncated_by_lines:
            text = (f"{text.rstrip()}\n\n... Output truncated at {policy.max_output_lines} lines "
                    f"(observed {result.total_lines}).")  # fmt: skip
        if result.truncated_by_bytes and policy.max_output_bytes is not None:
            text = (f"{text.rstrip()}\n\n... Output truncated at {policy.max_output_bytes} bytes "
                    f"(observed {result.total_bytes}).")  # fmt: skip
        failed = result.exit_code not in (0, None)
        if failed:
            text = f"{text.rstrip()}\n\nExit code: {result.exit_code}"
        artifact = {"timed_out": False, "exit_code": result.exit_code,
                    "truncated_by_lines": result.truncated_by_lines,
                    "truncated_by_bytes": result.truncated_by_bytes,
                    "total_lines": result.total_lines, "total_bytes": result.total_bytes,
                    "redaction_matches": matches}  # fmt: skip
        return self._format_tool_message(text, tool_call_id,
                                         status="error" if failed else "success",
                                         artifact=artifact)  # fmt: skip

    def _format_tool_message(self, content: str, tool_call_id: str | None, *,
                             status: Literal["success", "error"],
                             artifact: dict[str, Any] | None = None) -> ToolMessage | str:  # fmt: skip
        if tool_call_id is None:
            return content
        return ToolMessage(content=content, tool_call_id=tool_call_id, name=self._tool_name,
                           status=status, artifact=artifact or {})  # fmt: skip


__all__ = [
    "CodexSandboxExecutionPolicy",
    "CommandExecutionResult",
    "DockerExecutionPolicy",
    "HostExecutionPolicy",
    "RedactionRule",
    "ShellSession",
    "ShellToolMiddleware",
    "ShellToolState",
]
