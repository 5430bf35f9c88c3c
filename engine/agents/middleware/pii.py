"""PIIMiddleware: detect personal data (email, credit card, IP, MAC, URL or a custom regex/function)
in the last user message, the model's output and/or tool results, and redact, mask, hash or block it.

Mirrors `langchain.agents.middleware.pii` (same replacements and PIIDetectionError); LangChain's
stream transformer that also redacts streamed tokens is not reproduced.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
from collections.abc import Callable, Sequence
from typing import Any, Literal
from urllib.parse import urlparse

import regex
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from typing_extensions import TypedDict

from engine.agents.middleware.types import AgentMiddleware, hook_config

Strategy = Literal["block", "redact", "mask", "hash"]
PATTERN_TIMEOUT = 1.0
"""Seconds a custom pattern may spend on one text: a spec's pattern can backtrack forever."""


class PIIMatch(TypedDict):
    type: str
    value: str
    start: int
    end: int


class PIIDetectionError(Exception):
    """Raised by the "block" strategy."""

    def __init__(self, pii_type: str, matches: Sequence[PIIMatch]) -> None:
        self.pii_type = pii_type
        self.matches = list(matches)
        super().__init__(f"Detected {len(matches)} instance(s) of {pii_type} in text content")


def _found(
    kind: str, pattern: str, content: str, keep: Callable[[str], bool] = lambda v: True
) -> list[PIIMatch]:
    return [
        PIIMatch(type=kind, value=m.group(), start=m.start(), end=m.end())
        for m in re.finditer(pattern, content)
        if keep(m.group())
    ]


def _luhn(number: str) -> bool:
    digits = [int(d) for d in number if d.isdigit()]
    if not 13 <= len(digits) <= 19:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return total % 10 == 0


def _is_ip(value: str) -> bool:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


def detect_email(content: str) -> list[PIIMatch]:
    return _found("email", r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Z|a-z]{2,}\b", content)


def detect_credit_card(content: str) -> list[PIIMatch]:
    return _found("credit_card", r"\b\d{4}[\s-]?\d{4}[\s-]?\d{4}[\s-]?\d{4}\b", content, _luhn)


def detect_ip(content: str) -> list[PIIMatch]:
    return _found("ip", r"\b(?:[0-9]{1,3}\.){3}[0-9]{1,3}\b", content, _is_ip)


def detect_mac_address(content: str) -> list[PIIMatch]:
    return _found("mac_address", r"\b([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}\b", content)


def detect_url(content: str) -> list[PIIMatch]:
    def with_scheme(url: str) -> bool:
        parsed = urlparse(url)
        return parsed.scheme in {"http", "https"} and bool(parsed.netloc)

    matches = _found("url", r"https?://[^\s<>\"{}|\\^`\[\]]+", content, with_scheme)
    bare = r"\b(?:www\.)?[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+(?:/[^\s]*)?"
    for m in re.finditer(bare, content):
        start, end = m.start(), m.end()
        if any(x["start"] <= start < x["end"] or x["start"] < end <= x["end"] for x in matches):
            continue
        url = m.group()
        if "/" in url or url.startswith("www."):
            netloc = urlparse(f"http://{url}").netloc
            if netloc and "." in netloc:
                matches.append(PIIMatch(type="url", value=url, start=start, end=end))
    return matches


BUILTIN_DETECTORS: dict[str, Callable[[str], list[PIIMatch]]] = {
    "email": detect_email,
    "credit_card": detect_credit_card,
    "ip": detect_ip,
    "mac_address": detect_mac_address,
    "url": detect_url,
}


def _mask(match: PIIMatch) -> str:
    value, kind = match["value"], match["type"]
    if kind == "email":
        local, _, domain = value.partition("@")
        if not _:
            return "****"
        parts = domain.split(".")
        return f"{local}@****.{parts[-1]}" if len(parts) > 1 else f"{local}@****"
    if kind == "credit_card":
        digits = "".join(c for c in value if c.isdigit())
        sep = "-" if "-" in value else " " if " " in value else ""
        return f"****{sep}****{sep}****{sep}{digits[-4:]}" if sep else f"************{digits[-4:]}"
    if kind == "ip":
        octets = value.split(".")
        return f"*.*.*.{octets[-1]}" if len(octets) == 4 else "****"
    if kind == "mac_address":
        sep = ":" if ":" in value else "-"
        return sep.join(["**"] * 5) + f"{sep}{value[-2:]}"
    if kind == "url":
        return "[MASKED_URL]"
    return f"****{value[-4:]}" if len(value) > 4 else "****"


_REPLACEMENTS: dict[str, Callable[[PIIMatch], str]] = {
    "redact": lambda m: f"[REDACTED_{m['type'].upper()}]",
    "mask": _mask,
    "hash": lambda m: f"<{m['type']}_hash:{hashlib.sha256(m['value'].encode()).hexdigest()[:8]}>",
}


def apply_strategy(content: str, matches: list[PIIMatch], strategy: Strategy) -> str:
    """Replace each match (right to left, so offsets stay valid) or raise for "block"."""
    if not matches:
        return content
    if strategy == "block":
        raise PIIDetectionError(matches[0]["type"], matches)
    if strategy not in _REPLACEMENTS:
        raise ValueError(f"Unknown redaction strategy: {strategy}")
    replace = _REPLACEMENTS[strategy]
    for m in sorted(matches, key=lambda m: m["start"], reverse=True):
        content = content[: m["start"]] + replace(m) + content[m["end"] :]
    return content


def resolve_detector(pii_type: str, detector: Any) -> Callable[[str], list[PIIMatch]]:
    if detector is None:
        if pii_type not in BUILTIN_DETECTORS:
            raise ValueError(
                f"Unknown PII type: {pii_type}. Must be one of {list(BUILTIN_DETECTORS.keys())} or "
                "provide a custom detector."
            )
        return BUILTIN_DETECTORS[pii_type]
    if isinstance(detector, str):
        re.compile(detector)  # a bad pattern fails as it does in langchain (re.error)
        return _timed_detector(pii_type, regex.compile(detector))

    def normalized(content: str) -> list[PIIMatch]:
        return [
            PIIMatch(
                type=m.get("type", pii_type),
                value=m.get("value", m.get("text", "")),
                start=m["start"],
                end=m["end"],
            )
            for m in detector(content)
        ]

    return normalized


class PIIPatternTimeout(ValueError):
    """A custom pattern ran past PATTERN_TIMEOUT on one text (catastrophic backtracking)."""


def _timed_detector(pii_type: str, pattern: Any) -> Callable[[str], list[PIIMatch]]:
    """Matches as `re` would (the regex module's default mode is re-compatible), with a timeout."""

    def detect(content: str) -> list[PIIMatch]:
        try:
            return [
                PIIMatch(type=pii_type, value=m.group(), start=m.start(), end=m.end())
                for m in pattern.finditer(content, timeout=PATTERN_TIMEOUT)
            ]
        except TimeoutError:
            raise PIIPatternTimeout(
                f"the {pii_type} pattern {pattern.pattern!r} took more than {PATTERN_TIMEOUT:g} s "
                f"on a text of {len(content):,} characters (it backtracks): simplify it"
            ) from None

    return detect


def _last_index(messages: list, kind: type) -> int | None:
    return next(
        (i for i in range(len(messages) - 1, -1, -1) if isinstance(messages[i], kind)), None
    )


class PIIMiddleware(AgentMiddleware):
    """One PII type and strategy, applied to user input, model output and/or tool results."""

    def __init__(
        self,
        pii_type: str,
        *,
        strategy: Strategy = "redact",
        detector: Callable[[str], list[PIIMatch]] | str | None = None,
        apply_to_input: bool = True,
        apply_to_output: bool = False,
        apply_to_tool_results: bool = False,
    ) -> None:
        super().__init__()
        self.apply_to_input = apply_to_input
        self.apply_to_output = apply_to_output
        self.apply_to_tool_results = apply_to_tool_results
        self.pii_type = pii_type
        self.strategy = strategy
        self.detector = resolve_detector(pii_type, detector)

    @property
    def name(self) -> str:
        return f"{type(self).__name__}[{self.pii_type}]"

    def _process_content(self, content: Any) -> tuple[Any, bool]:
        if isinstance(content, str):
            matches = self.detector(content)
            return (
                (apply_strategy(content, matches, self.strategy), True)
                if matches
                else (content, False)
            )
        blocks, changed = [], False
        for block in content:
            text = block if isinstance(block, str) else block.get("text")
            if isinstance(text, str) and (matches := self.detector(text)):
                redacted = apply_strategy(text, matches, self.strategy)
                block = redacted if isinstance(block, str) else {**block, "text": redacted}
                changed = True
            blocks.append(block)
        return (blocks, True) if changed else (content, False)

    def _rewrite(self, messages: list, new: list, index: int) -> bool:
        message = messages[index]
        if not message.content:
            return False
        content, changed = self._process_content(message.content)
        if changed:
            new[index] = message.model_copy(update={"content": content})
        return changed

    @hook_config(can_jump_to=["end"])
    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        messages = state["messages"]
        if not (self.apply_to_input or self.apply_to_tool_results) or not messages:
            return None
        new = list(messages)
        modified = False
        if self.apply_to_input and (i := _last_index(messages, HumanMessage)) is not None:
            modified |= self._rewrite(messages, new, i)
        if (
            self.apply_to_tool_results
            and (ai_index := _last_index(messages, AIMessage)) is not None
        ):
            for i in range(ai_index + 1, len(messages)):
                if isinstance(messages[i], ToolMessage):
                    modified |= self._rewrite(messages, new, i)
        return {"messages": new} if modified else None

    @hook_config(can_jump_to=["end"])
    async def abefore_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self.before_model(state, runtime)

    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        messages = state["messages"]
        if not self.apply_to_output or not messages:
            return None
        i = _last_index(messages, AIMessage)
        new = list(messages)
        return {"messages": new} if i is not None and self._rewrite(messages, new, i) else None

    async def aafter_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self.after_model(state, runtime)


__all__ = [
    "PIIDetectionError",
    "PIIPatternTimeout",
    "PIIMatch",
    "PIIMiddleware",
    "detect_credit_card",
    "detect_email",
    "detect_ip",
    "detect_mac_address",
    "detect_url",
]
