"""FilesystemFileSearchMiddleware: `glob_search` and `grep_search` tools over one directory,
which the model sees as `/` (paths outside it, `..` and `~`, and symlinks leading out are
refused). Grep runs ripgrep when asked and installed, else a Python walk."""

from __future__ import annotations

import fnmatch
import json
import os
import re
import subprocess
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from langchain_core.tools import StructuredTool

from engine.agents.middleware.types import AgentMiddleware

# The tools' descriptions, as langchain 1.5's (the model reads them: the same text, the same
# behaviour asked for). Their indentation is langchain's too.
_GLOB_DESCRIPTION = """Fast file pattern matching tool that works with any codebase size.

            Supports glob patterns like `**/*.js` or `src/**/*.ts`.

            Returns matching file paths sorted by modification time.

            Use this tool when you need to find files by name patterns.

            Args:
                pattern: The glob pattern to match files against.
                path: The directory to search in. If not specified, searches from root.

            Returns:
                Newline-separated list of matching file paths, sorted by modification
                time (most recently modified first). Returns `'No files found'` if no
                matches."""
_GREP_DESCRIPTION = """Fast content search tool that works with any codebase size.

            Searches file contents using regular expressions. Supports full regex
            syntax and filters files by pattern with the include parameter.

            Args:
                pattern: The regular expression pattern to search for in file contents.
                path: The directory to search in. If not specified, searches from root.
                include: File pattern to filter (e.g., `'*.js'`, `'*.{ts,tsx}'`).
                output_mode: Output format:

                    - `'files_with_matches'`: Only file paths containing matches
                    - `'content'`: Matching lines with `file:line:content` format
                    - `'count'`: Count of matches per file

            Returns:
                Search results formatted according to `output_mode`.
                    Returns `'No matches found'` if no results."""

OutputMode = Literal["files_with_matches", "content", "count"]
Matches = dict[str, list[tuple[int, str]]]


def _inside(candidate: Path, root: Path) -> bool:
    """Whether `candidate`, symlinks and `..` resolved, lies inside `root`."""
    try:
        return candidate.resolve().is_relative_to(root.resolve())
    except (OSError, ValueError):
        return False


def _brace_expansions(pattern: str) -> list[str] | None:
    """`*.{py,pyi}` -> [`*.py`, `*.pyi`]; None for an unbalanced or empty brace."""
    if "}" in pattern and "{" not in pattern:
        return None
    done, todo = [], [pattern]
    while todo:
        current = todo.pop(0)
        start = current.find("{")
        if start == -1:
            done.append(current)
            continue
        end = current.find("}", start)
        if end == -1 or end == start + 1:
            return None
        head, options, tail = current[:start], current[start + 1 : end], current[end + 1 :]
        todo[:0] = [head + option + tail for option in options.split(",")]
    return done


def _valid_include(pattern: str) -> bool:
    if not pattern or any(c in pattern for c in ("\x00", "\n", "\r")):
        return False
    expanded = _brace_expansions(pattern)
    if expanded is None:
        return False
    try:
        for glob in expanded:
            re.compile(fnmatch.translate(glob))
    except re.error:
        return False
    return True


def _included(basename: str, pattern: str) -> bool:
    return any(fnmatch.fnmatch(basename, glob) for glob in _brace_expansions(pattern) or ())


def _format(matches: Matches, mode: str) -> str:
    files = sorted(matches)
    if mode == "content":
        return "\n".join(f"{f}:{n}:{line}" for f in files for n, line in matches[f])
    if mode == "count":
        return "\n".join(f"{f}:{len(matches[f])}" for f in files)
    return "\n".join(files)


class FilesystemFileSearchMiddleware(AgentMiddleware):
    """Adds `glob_search` and `grep_search` over `root_path` (files over `max_file_size_mb`
    are not searched by the Python walk)."""

    def __init__(
        self, *, root_path: str, use_ripgrep: bool = True, max_file_size_mb: int = 10
    ) -> None:
        self.root_path = Path(root_path).resolve()
        self.use_ripgrep = use_ripgrep
        self.max_file_size_bytes = max_file_size_mb * 1024 * 1024
        self.glob_search = StructuredTool.from_function(
            self._glob, name="glob_search", description=_GLOB_DESCRIPTION
        )
        self.grep_search = StructuredTool.from_function(
            self._grep, name="grep_search", description=_GREP_DESCRIPTION
        )
        self.tools = [self.glob_search, self.grep_search]

    # ---------------------------------------------------------------- paths
    def _validate_and_resolve_path(self, path: str) -> Path:
        """The real directory of the model's `path`; ValueError for one leaving the root."""
        path = path if path.startswith("/") else "/" + path
        if ".." in path or "~" in path:
            raise ValueError("Path traversal not allowed")
        full = (self.root_path / path.lstrip("/")).resolve()
        if not full.is_relative_to(self.root_path):
            raise ValueError(f"Path outside root directory: {path}")
        return full

    def _virtual(self, path: Path) -> str:
        return "/" + str(path.relative_to(self.root_path))

    def _base(self, path: str) -> Path | None:
        try:
            base = self._validate_and_resolve_path(path)
        except ValueError:
            return None
        return base if base.exists() else None

    # ---------------------------------------------------------------- the tools
    def _glob(self, pattern: str, path: str = "/") -> str:
        base = self._base(path)
        # a `..` or absolute pattern could reach past the root: refused before expanding it
        if (
            base is None
            or not base.is_dir()
            or pattern.startswith("/")
            or ".." in pattern.split("/")
        ):
            return "No files found"
        found = [
            (self._virtual(m), datetime.fromtimestamp(m.stat().st_mtime, tz=UTC).isoformat())
            for m in base.glob(pattern)
            if m.is_file() and _inside(m, self.root_path)  # a symlink out is never listed
        ]
        if not found:
            return "No files found"
        found.sort(key=lambda item: item[1], reverse=True)
        return "\n".join(p for p, _ in found)

    def _grep(
        self,
        pattern: str,
        path: str = "/",
        include: str | None = None,
        output_mode: OutputMode = "files_with_matches",
    ) -> str:
        try:
            re.compile(pattern)
        except re.error as exc:
            return f"Invalid regex pattern: {exc}"
        if include and not _valid_include(include):
            return "Invalid include pattern"
        matches = None
        if self.use_ripgrep:
            with suppress(FileNotFoundError, subprocess.SubprocessError):
                matches = self._ripgrep_search(pattern, path, include)
        if matches is None:
            matches = self._python_search(pattern, path, include)
        return _format(matches, output_mode) if matches else "No matches found"

    # ---------------------------------------------------------------- the searches
    def _ripgrep_search(self, pattern: str, path: str, include: str | None) -> Matches:
        base = self._base(path)
        if base is None:
            return {}
        command = ["rg", "--json", *(["--glob", include] if include else []), "--", pattern,
                   str(base)]  # fmt: skip
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=30)  # noqa: S603
        except (subprocess.TimeoutExpired, FileNotFoundError):
            return self._python_search(pattern, path, include)
        matches: Matches = {}
        for line in done.stdout.splitlines():
            try:
                event = json.loads(line)
                if event["type"] != "match":
                    continue
                found = Path(event["data"]["path"]["text"])
                if not _inside(found, self.root_path):
                    continue
                number = event["data"]["line_number"]
                text = event["data"]["lines"]["text"].rstrip("\n")
            except (json.JSONDecodeError, KeyError):
                continue
            matches.setdefault(self._virtual(found), []).append((number, text))
        return matches

    def _python_search(self, pattern: str, path: str, include: str | None) -> Matches:
        base = self._base(path)
        if base is None:
            return {}
        regex = re.compile(pattern)
        matches: Matches = {}
        # symlinked directories are not followed: the walk cannot leave the root through one
        for folder, _, names in os.walk(base, followlinks=False):
            for name in names:
                file = Path(folder) / name
                if not _inside(file, self.root_path) or not file.is_file():
                    continue
                if include and not _included(file.name, include):
                    continue
                if file.stat().st_size > self.max_file_size_bytes:
                    continue
                try:
                    text = file.read_text()
                except (UnicodeDecodeError, PermissionError):
                    continue
                hits = [(n, line) for n, line in enumerate(text.splitlines(), 1)
                        if regex.search(line)]  # fmt: skip
                if hits:
                    matches[self._virtual(file)] = hits
        return matches


# langchain's private names for these helpers (its tests and some packages import them)
_is_within_root = _inside
_expand_include_patterns = _brace_expansions
_is_valid_include_pattern = _valid_include
_match_include_pattern = _included

__all__ = ["FilesystemFileSearchMiddleware"]
