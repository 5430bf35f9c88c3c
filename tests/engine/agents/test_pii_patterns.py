"""A spec's custom PII pattern runs with a timeout (issue 10.5): a backtracking pattern fails the
run in about a second instead of hanging it; ordinary patterns match exactly as `re` does."""

from __future__ import annotations

import re
import time

import pytest

from engine.agents.middleware.pii import PIIMiddleware, PIIPatternTimeout, resolve_detector
from graphspec.compiler import compile_spec
from tests.graphspec.helpers import graph

BACKTRACKS = r"(a|a)+$"  # exponential in `re`: 2**40 paths on "a" * 40 + "b"
HOSTILE_TEXT = "a" * 40 + "b"


def test_a_backtracking_pattern_times_out_with_a_clear_error():
    detect = resolve_detector("secret", BACKTRACKS)
    # this process's CPU seconds: the matching stopped after about a second of work, whatever
    # other processes on the machine did to the wall clock meanwhile
    start = time.process_time()
    with pytest.raises(
        PIIPatternTimeout, match=r"the secret pattern .* took more than 1 s on a text of 41"
    ):
        detect(HOSTILE_TEXT)
    assert time.process_time() - start < 5


def test_a_spec_agent_with_a_backtracking_pattern_fails_the_run_instead_of_hanging():
    spec = graph(
        state=[{"name": "messages", "type": "messages", "reducer": "add_messages"}],
        agents=[{
            "id": "helper",
            "model": {"responses": [{"content": "ok"}]},
            "middleware": [{"kind": "prebuilt", "name": "pii",
                            "settings": {"pii_type": "secret", "detector": BACKTRACKS}}],
        }],
        nodes=[{"id": "assistant", "kind": "agent", "agent": "helper"}],
        entry=["assistant"],
        finish=["assistant"],
    )  # fmt: skip
    start = time.process_time()
    with pytest.raises(PIIPatternTimeout):
        compile_spec(spec).invoke({"messages": [("user", HOSTILE_TEXT)]})
    assert time.process_time() - start < 10


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (r"sk-[A-Za-z0-9]{16}", "key sk-ABCDEF1234567890 and sk-short, sk-0123456789abcdefXYZ"),
        (r"\b\d{3}-\d{2}-\d{4}\b", "ssn 123-45-6789, not 1234-56-7890"),
        (r"(?i)secret\s*[:=]\s*(\S+)", "Secret: hunter2 and SECRET=abc"),
        (r"[\w.]+@[\w.]+", "a.b@c.d e@f"),
        (r"(?<=id=)\d+", "id=12 id=x id=345"),
        (r"", "abc"),
        (r"a|ab", "abab"),
        (r"(\w)\1", "aabbcd"),
    ],
)
def test_ordinary_patterns_match_as_re_does(pattern, text):
    expected = [(m.group(), m.start(), m.end()) for m in re.finditer(pattern, text)]
    found = resolve_detector("custom", pattern)(text)
    assert [(m["value"], m["start"], m["end"]) for m in found] == expected
    redacted = PIIMiddleware("custom", detector=pattern)._process_content(text)[0]
    assert isinstance(redacted, str)


def test_a_bad_pattern_fails_as_with_re():
    with pytest.raises(re.error):
        PIIMiddleware("custom", detector="(unclosed")
