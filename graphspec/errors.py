"""The spec package's errors, and `Finding`: one located thing about a spec, printed one way.

A finding is a problem loading a document (`graphspec.io`), a validator check
(`graphspec.validator`) or a piece of Python code that needs trust (`graphspec.trust`). Every
`SpecError` names the element and JSON path at fault, so the studio can highlight it.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Finding:
    """Something about a spec that needs the user: where it is, what it is, and the fix."""

    path: str
    """JSON path in the spec document (`$.nodes[2].values.total`)."""
    message: str
    element_id: str | None = None
    """Id of the spec element at fault (node, edge, state key...), when there is one."""
    _: KW_ONLY
    severity: Severity = "error"
    """error: it will not load, compile or run; warning: it runs, but probably not as meant."""
    code: str = ""
    """The validator check that found it (`unknown-target`); empty elsewhere."""
    fix: str | None = None
    file: str | None = None
    """The subgraph file it is in (relative to the spec's folder); None: the spec itself."""

    @property
    def where(self) -> str:
        if self.path and self.element_id:
            return f"{self.path} ({self.element_id})"
        return self.path or self.element_id or ""

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        return text + (f" Fix: {self.fix}" if self.fix else "")

    def labelled(self) -> str:
        """With its severity first, as the validator's findings are listed."""
        return f"{self.severity}: {self}"


class SpecError(Exception):
    """A graph spec that cannot be loaded, compiled or exported; names the element at fault.

    `element_id` is the id of the spec element (node, edge, state key...) and `path` its JSON
    path in the spec file (`$.nodes[2].values.total`), when known.
    """

    def __init__(
        self, message: str, *, element_id: str | None = None, path: str | None = None
    ) -> None:
        super().__init__(message)
        self.element_id = element_id
        self.path = path

    def line(self) -> str:
        """Where, then the message's first line: one line for a terminal."""
        message = str(self).splitlines()[0] if str(self) else type(self).__name__
        return str(Finding(self.path or "", message, self.element_id))


class SpecValidationError(SpecError):
    """The document is not a valid spec; `problems` lists each one with its JSON path."""

    def __init__(self, problems: list[Finding]) -> None:
        self.problems = problems
        first = problems[0] if problems else Finding("$", "invalid spec")
        super().__init__(
            "\n".join(str(p) for p in problems) or "invalid spec",
            element_id=first.element_id,
            path=first.path,
        )


class SpecCompileError(SpecError):
    """The spec has errors; `findings` holds each with its element id and JSON path."""

    def __init__(self, findings: list[Finding]) -> None:
        self.findings = findings
        first = findings[0]
        super().__init__(
            "\n".join(f.labelled() for f in findings), element_id=first.element_id, path=first.path
        )


ACCESS_CODES = ("folder-access", "model-endpoint", "mcp-command", "mcp-secret")
"""Trust findings for what a spec would do (reach a folder, send a key, start a command), not
Python code it carries: said as "would ..."."""


class UntrustedCodeError(SpecError):
    """The spec carries Python code (or would reach a folder, or send the user's API key to a
    server it chose) and was not trusted; `sites` names each piece."""

    def __init__(self, sites: list[Finding]) -> None:
        self.sites = sites
        code = [s.element_id for s in sites if s.code not in ACCESS_CODES]
        would = [f"{s.message} ({s.element_id})" for s in sites if s.code in ACCESS_CODES]
        parts = [f"carries Python code ({', '.join(dict.fromkeys(code))})"] if code else []
        parts += [f"would {'; '.join(would)}"] if would else []
        super().__init__(
            f"this spec {' and '.join(parts)}; it runs only when trusted "
            "(pass --trust, or trust it in the studio)",
            element_id=sites[0].element_id,
            path=sites[0].path,
        )


class ExpressionError(SpecError):
    """An expression that does not parse, uses something outside the whitelist, or fails."""


class LimitError(ExpressionError):
    """The expression would pass one of the limits in `graphspec.expression_limits`."""


class StoppedError(ExpressionError):
    """The run was stopped (the studio's Stop, or its window closed) during the expression."""


class BadInput(Exception):
    """Bad input from the user (a spec, a flag, a file): each argument is one line to print."""


__all__ = [
    "ACCESS_CODES",
    "BadInput",
    "ExpressionError",
    "Finding",
    "LimitError",
    "Severity",
    "SpecCompileError",
    "SpecError",
    "SpecValidationError",
    "StoppedError",
    "UntrustedCodeError",
]
