"""How ShellToolMiddleware starts its shell, as langchain 1.5's execution policies: on the host
(optionally with CPU and memory limits), inside the Codex CLI sandbox, or in a Docker container.

A policy also carries the session's limits: each command's timeout, the startup commands', the
time a stopping shell gets, and how many lines / bytes of output a command may return.
"""

from __future__ import annotations

import abc
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

try:
    import resource
except ImportError:  # Windows: no rlimits
    resource = None  # type: ignore[assignment]

SHELL_TEMP_PREFIX = "langchain-shell-"
"""A session without a workspace root runs in a temporary folder named so (never mounted into
a Docker container)."""


def _spawn(command: Sequence[str], env: Mapping[str, str], cwd: Path,
           before_exec: Callable[[], None] | None = None,
           own_group: bool = True) -> subprocess.Popen[str]:  # fmt: skip
    """The shell with text pipes, line-buffered, in a process group of its own (so a timeout
    can end everything it started) unless `own_group` is off."""
    return subprocess.Popen(  # the command is the policy's, not a string for a shell
        list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=cwd, env=dict(env), text=True, encoding="utf-8", errors="replace", bufsize=1,
        preexec_fn=before_exec, start_new_session=own_group,
    )  # fmt: skip


def _on_path(binary: str, what: str) -> str:
    found = shutil.which(binary)
    if found is None:
        raise RuntimeError(f"{what} requires the '{binary}' CLI to be installed and available "
                           "on PATH.")  # fmt: skip
    return found


@dataclass
class BaseExecutionPolicy(abc.ABC):
    """The limits every policy has, and `spawn`, which starts the shell."""

    command_timeout: float = 30.0
    startup_timeout: float = 30.0
    termination_timeout: float = 10.0
    max_output_lines: int = 100
    max_output_bytes: int | None = None

    def __post_init__(self) -> None:
        if self.max_output_lines <= 0:
            raise ValueError("max_output_lines must be positive.")

    @abc.abstractmethod
    def spawn(self, *, workspace: Path, env: Mapping[str, str],
              command: Sequence[str]) -> subprocess.Popen[str]:  # fmt: skip
        """Start the shell process."""


@dataclass
class HostExecutionPolicy(BaseExecutionPolicy):
    """The shell runs on this machine as this user: no sandbox. CPU seconds and memory may be
    capped (Linux: prlimit once started; other POSIX systems: setrlimit before exec)."""

    cpu_time_seconds: int | None = None
    memory_bytes: int | None = None
    create_process_group: bool = True
    _limits_requested: bool = field(init=False, repr=False, default=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        for name in ("cpu_time_seconds", "memory_bytes"):
            if getattr(self, name) is not None and getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive if provided.")
        self._limits_requested = self.cpu_time_seconds is not None or self.memory_bytes is not None
        if self._limits_requested and resource is None:
            raise RuntimeError("HostExecutionPolicy cpu/memory limits require the Python "
                               "'resource' module. Either remove the limits or run on a POSIX "
                               "platform.")  # fmt: skip

    def _limits(self) -> list[tuple[int, int]]:
        out = []
        if self.cpu_time_seconds is not None:
            out.append((resource.RLIMIT_CPU, self.cpu_time_seconds))
        if self.memory_bytes is not None:
            kind = getattr(resource, "RLIMIT_AS", None) or getattr(resource, "RLIMIT_DATA", None)
            if kind is not None:
                out.append((kind, self.memory_bytes))
        return out

    @staticmethod
    def _prlimit() -> bool:
        return (
            resource is not None
            and hasattr(resource, "prlimit")
            and sys.platform.startswith("linux")
        )

    def spawn(self, *, workspace: Path, env: Mapping[str, str],
              command: Sequence[str]) -> subprocess.Popen[str]:  # fmt: skip
        limits = self._limits() if self._limits_requested else []
        before_exec = None
        if limits and not self._prlimit():

            def before_exec() -> None:
                for kind, value in limits:
                    resource.setrlimit(kind, (value, value))

        process = _spawn(command, env, workspace, before_exec, self.create_process_group)
        if limits and self._prlimit():
            try:
                for kind, value in limits:
                    resource.prlimit(process.pid, kind, (value, value))
            except OSError as exc:
                raise RuntimeError("Failed to apply resource limits via prlimit.") from exc
        return process


@dataclass
class CodexSandboxExecutionPolicy(BaseExecutionPolicy):
    """The shell inside `codex sandbox PLATFORM` (Seatbelt on macOS, Landlock/seccomp on Linux),
    with `-c key=value` overrides of the Codex profile. No limits of its own."""

    binary: str = "codex"
    platform: Literal["auto", "macos", "linux"] = "auto"
    config_overrides: Mapping[str, Any] = field(default_factory=dict)

    def spawn(self, *, workspace: Path, env: Mapping[str, str],
              command: Sequence[str]) -> subprocess.Popen[str]:  # fmt: skip
        return _spawn(self._build_command(command), env, workspace)

    def _build_command(self, command: Sequence[str]) -> list[str]:
        out = [_on_path(self.binary, "Codex sandbox policy"), "sandbox", self._platform()]
        for key, value in sorted(dict(self.config_overrides).items()):
            out += ["-c", f"{key}={self._format_override(value)}"]
        return [*out, "--", *command]

    def _platform(self) -> str:
        if self.platform != "auto":
            return self.platform
        if sys.platform.startswith("linux"):
            return "linux"
        if sys.platform == "darwin":
            return "macos"
        raise RuntimeError("Codex sandbox policy could not determine a supported platform; set "
                           "'platform' explicitly.")  # fmt: skip

    @staticmethod
    def _format_override(value: Any) -> str:
        try:
            return json.dumps(value)
        except TypeError:
            return str(value)


@dataclass
class DockerExecutionPolicy(BaseExecutionPolicy):
    """The shell in a container of its own (`docker run -i`): no network unless enabled, the
    workspace mounted at the same path unless it is a temporary one, the session's environment
    passed with `-e`."""

    binary: str = "docker"
    image: str = "python:3.12-alpine3.19"
    remove_container_on_exit: bool = True
    network_enabled: bool = False
    extra_run_args: Sequence[str] | None = None
    memory_bytes: int | None = None
    cpu_time_seconds: Any | None = None
    cpus: str | None = None
    read_only_rootfs: bool = False
    user: str | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.memory_bytes is not None and self.memory_bytes <= 0:
            raise ValueError("memory_bytes must be positive if provided.")
        if self.cpu_time_seconds is not None:
            raise RuntimeError("DockerExecutionPolicy does not support cpu_time_seconds; "
                               "configure CPU limits using Docker run options such as '--cpus'.")  # fmt: skip
        for name in ("cpus", "user"):
            if getattr(self, name) is not None and not getattr(self, name).strip():
                raise ValueError(f"{name} must be a non-empty string when provided.")
        self.extra_run_args = tuple(self.extra_run_args or ())

    def spawn(self, *, workspace: Path, env: Mapping[str, str],
              command: Sequence[str]) -> subprocess.Popen[str]:  # fmt: skip
        # docker itself gets this process's environment; the session's goes in with -e
        return _spawn(self._build_command(workspace, env, command), os.environ, workspace)

    def _build_command(self, workspace: Path, env: Mapping[str, str],
                       command: Sequence[str]) -> list[str]:  # fmt: skip
        out = [_on_path(self.binary, "Docker execution policy"), "run", "-i"]
        out += ["--rm"] if self.remove_container_on_exit else []
        out += [] if self.network_enabled else ["--network", "none"]
        out += ["--memory", str(self.memory_bytes)] if self.memory_bytes is not None else []
        if self._should_mount_workspace(workspace):
            out += ["-v", f"{workspace}:{workspace}", "-w", str(workspace)]
        else:
            out += ["-w", "/"]
        out += ["--read-only"] if self.read_only_rootfs else []
        for key, value in env.items():
            out += ["-e", f"{key}={value}"]
        out += ["--cpus", self.cpus] if self.cpus is not None else []
        out += ["--user", self.user] if self.user is not None else []
        return [*out, *(self.extra_run_args or ()), self.image, *command]

    @staticmethod
    def _should_mount_workspace(workspace: Path) -> bool:
        return not workspace.name.startswith(SHELL_TEMP_PREFIX)


__all__ = [
    "SHELL_TEMP_PREFIX",
    "BaseExecutionPolicy",
    "CodexSandboxExecutionPolicy",
    "DockerExecutionPolicy",
    "HostExecutionPolicy",
]
