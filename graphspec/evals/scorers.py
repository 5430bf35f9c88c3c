"""Scorers: how well one example's run did, as a number from 0 to 1 (1 or above half passes).

A scorer is named by a short text, on the command line (`--scorer`) and in a dataset file:

    exact:KEY                output[KEY] equals the example's expected KEY (or reference's)
    contains:KEY[=TEXT]      the text of output[KEY] contains TEXT (default: the expected KEY)
    regex:KEY=PATTERN        the text of output[KEY] matches PATTERN (re.search)
    jsonpath:PATH[=JSON]     the value at PATH ($.a.b[0]) equals JSON (default: expected PATH)
    number:KEY[~TOL]         output[KEY] is within TOL (default 1e-9) of the expected KEY
    trajectory[:A,B,C]       the nodes run, in this order (default: expected "trajectory")
    trajectory-set[:A,B]     the nodes run, as a set
    tools[:A,B]              the tools the model called, in order (default: expected "tools")
    judge:PROVIDER:MODEL     a chat model grades the output against the input and reference
    python:FILE.py:FUNCTION  FUNCTION(output, example) -> bool | number (runs code: trusted)

The text of a value is itself for a string, a message's content, the last message's content for
a list of messages, else its JSON.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphspec.errors import BadInput
from graphspec.evals.datasets import Example

PASS = 0.5
"""A score at or above this passes."""
KINDS = ("exact", "contains", "regex", "jsonpath", "number", "trajectory", "trajectory-set",
         "tools", "judge", "python")  # fmt: skip


@dataclass
class Run:
    """What a scorer sees of one example's run."""

    output: Any
    trajectory: list[str]
    tools: list[str]


class ScoreError(Exception):
    """The scorer could not score this example (a missing expected value, a judge's failure)."""


@dataclass
class Scorer:
    name: str
    """The text it was made from: the column the results show."""
    score: Callable[[Run, Example], float]
    needs_trust: bool = False


def text_of(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and _is_message(value[-1]):
        return text_of(value[-1])
    if _is_message(value):
        content = value["content"]
        if isinstance(content, list):  # content blocks
            return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
        return str(content)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _is_message(value: Any) -> bool:
    return isinstance(value, dict) and "content" in value and "type" in value


def _expected(example: Example, key: str) -> Any:
    if key in example.expected:
        return example.expected[key]
    if isinstance(example.reference, dict) and key in example.reference:
        return example.reference[key]
    raise ScoreError(f"example {example.id!r} has no expected value for {key!r}")


def _output(run: Run, key: str) -> Any:
    if not isinstance(run.output, dict) or key not in run.output:
        raise ScoreError(f"the output has no key {key!r}")
    return run.output[key]


_PATH_PART = re.compile(r"\.([A-Za-z_][\w-]*)|\[(\d+)\]|\[['\"]([^'\"]+)['\"]\]")


def json_path(value: Any, path: str) -> Any:
    """The value at `$.a.b[0]` (dots, indexes, ['quoted keys']); ScoreError when absent."""
    rest = path[1:] if path.startswith("$") else f".{path}"
    pos = 0
    while pos < len(rest):
        match = _PATH_PART.match(rest, pos)
        if match is None:
            raise ScoreError(f"cannot read the JSON path {path!r} at {rest[pos:]!r}")
        key, index, quoted = match.groups()
        try:
            value = value[int(index)] if index is not None else value[key or quoted]
        except (KeyError, IndexError, TypeError):
            raise ScoreError(f"the output has nothing at {path}") from None
        pos = match.end()
    return value


def _split(arg: str, sep: str) -> tuple[str, str | None]:
    head, found, tail = arg.partition(sep)
    return head, tail if found else None


def _names(arg: str | None, example: Example, key: str) -> list[str]:
    if arg:
        return [n.strip() for n in arg.split(",") if n.strip()]
    value = _expected(example, key)
    if not isinstance(value, list):
        raise ScoreError(f"example {example.id!r}: expected {key!r} must be a list of names")
    return [str(v) for v in value]


def parse_scorer(text: str, *, base_dir: Path | None = None, trusted: bool = False) -> Scorer:
    """The scorer a text names; BadInput saying what is wrong and what is known."""
    kind, _, arg = text.partition(":")
    kind = kind.strip()
    if kind not in KINDS:
        raise BadInput(f"unknown scorer {text!r} (known: {', '.join(KINDS)})")
    needs_arg = kind in ("exact", "contains", "regex", "jsonpath", "number", "judge", "python")
    if needs_arg and not arg:
        raise BadInput(f"scorer {text!r} needs an argument: {kind}:… (see superstep eval --help)")
    make = {"exact": _exact, "contains": _contains, "regex": _regex, "jsonpath": _jsonpath,
            "number": _number, "trajectory": _trajectory, "trajectory-set": _trajectory,
            "tools": _trajectory, "judge": _judge}  # fmt: skip
    if kind == "python":
        return Scorer(text, _python(arg, base_dir or Path.cwd(), trusted, text), True)
    return Scorer(text, make[kind](kind, arg, text))


def _exact(kind: str, key: str, text: str) -> Callable:
    return lambda run, ex: float(_output(run, key) == _expected(ex, key))


def _contains(kind: str, arg: str, text: str) -> Callable:
    key, wanted = _split(arg, "=")

    def score(run: Run, ex: Example) -> float:
        needle = wanted if wanted is not None else text_of(_expected(ex, key))
        return float(needle.casefold() in text_of(_output(run, key)).casefold())

    return score


def _regex(kind: str, arg: str, text: str) -> Callable:
    key, pattern = _split(arg, "=")
    if not pattern:
        raise BadInput(f"scorer {text!r}: give regex:KEY=PATTERN")
    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        raise BadInput(f"scorer {text!r}: not a regular expression: {exc}") from None
    return lambda run, ex: float(compiled.search(text_of(_output(run, key))) is not None)


def _jsonpath(kind: str, arg: str, text: str) -> Callable:
    path, wanted = _split(arg, "=")
    try:
        value = None if wanted is None else json.loads(wanted)
    except ValueError:
        value = wanted  # a bare word compares as text

    def score(run: Run, ex: Example) -> float:
        expected = value if wanted is not None else json_path(ex.expected or ex.reference, path)
        return float(json_path(run.output, path) == expected)

    return score


def _number(kind: str, arg: str, text: str) -> Callable:
    key, tol = _split(arg, "~")
    try:
        tolerance = 1e-9 if tol is None else float(tol)
    except ValueError:
        raise BadInput(f"scorer {text!r}: the tolerance after ~ must be a number") from None

    def score(run: Run, ex: Example) -> float:
        got, want = _output(run, key), _expected(ex, key)
        try:
            return float(abs(float(got) - float(want)) <= tolerance)
        except (TypeError, ValueError):
            raise ScoreError(f"{key!r}: {got!r} or {want!r} is not a number") from None

    return score


def _trajectory(kind: str, arg: str, text: str) -> Callable:
    key = "tools" if kind == "tools" else "trajectory"

    def score(run: Run, ex: Example) -> float:
        wanted = _names(arg, ex, key)
        got = run.tools if kind == "tools" else run.trajectory
        if kind == "trajectory-set":
            return float(set(got) == set(wanted))
        return float(got == wanted)

    return score


JUDGE_PROMPT = """You grade the output of an AI system. Reply with one line: a score from 0 to 1
(1: fully correct), then a short reason.

Input: {input}
Reference (may be empty): {reference}
Output: {output}"""


def _judge(kind: str, arg: str, text: str) -> Callable:
    provider, _, model_name = arg.partition(":")
    if not model_name:
        raise BadInput(f"scorer {text!r}: give judge:PROVIDER:MODEL (e.g. judge:openai:gpt-4o)")
    from graphspec.errors import SpecError
    from graphspec.providers import init_provider_model

    try:
        model = init_provider_model(provider, model_name, {})
    except SpecError as exc:
        raise BadInput(f"scorer {text!r}: {exc.line()}") from None

    def score(run: Run, ex: Example) -> float:
        reference = ex.reference if ex.reference is not None else ex.expected
        prompt = JUDGE_PROMPT.format(input=text_of(ex.input), output=text_of(run.output),
                                     reference=text_of(reference) if reference else "")  # fmt: skip
        try:
            reply = model.invoke(prompt)
        except Exception as exc:  # noqa: BLE001 - a provider's failure scores nothing
            raise ScoreError(f"the judge failed: {type(exc).__name__}: {exc}") from None
        found = re.search(r"\d+(?:\.\d+)?", text_of(reply.content))
        if found is None or not 0 <= float(found.group()) <= 1:
            raise ScoreError(f"the judge's reply has no score from 0 to 1: {reply.content!r}")
        return float(found.group())

    return score


def _python(arg: str, base_dir: Path, trusted: bool, text: str) -> Callable:
    file, _, function = arg.rpartition(":")
    if not file or not function:
        raise BadInput(f"scorer {text!r}: give python:FILE.py:FUNCTION")
    if not trusted:
        raise BadInput(f"scorer {text!r} runs Python code from {file}: pass --trust to allow it")
    path = (base_dir / file).resolve()
    spec = importlib.util.spec_from_file_location(f"superstep_scorer_{path.stem}", path)
    if spec is None or spec.loader is None or not path.is_file():
        raise BadInput(f"scorer {text!r}: no Python file {path}")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)  # trusted: the user passed --trust
    except Exception as exc:  # noqa: BLE001
        raise BadInput(
            f"scorer {text!r}: {path} failed to load: {type(exc).__name__}: {exc}"
        ) from None
    fn = getattr(module, function, None)
    if not callable(fn):
        raise BadInput(f"scorer {text!r}: {path} has no function {function!r}")

    def score(run: Run, ex: Example) -> float:
        value = fn(run.output, ex)
        if isinstance(value, bool) or isinstance(value, (int, float)):
            return float(value)
        raise ScoreError(f"{function} returned {type(value).__name__}, not a bool or number")

    return score


def code_files(names: list[str], base_dir: Path) -> list[Path]:
    """The Python files the `python:` scorers among `names` would run."""
    files = []
    for name in names:
        kind, _, arg = name.partition(":")
        if kind.strip() == "python" and (file := arg.rpartition(":")[0]):
            files.append((base_dir / file).resolve())
    return files


def default_scorers(examples: list[Example]) -> list[str]:
    """Without scorers named: exact match on every expected key, and the trajectory when one
    is expected."""
    keys: list[str] = []
    for example in examples:
        keys += [k for k in example.expected if k not in keys]
    return [k if k in ("trajectory", "tools") else f"exact:{k}" for k in keys]


__all__ = ["PASS", "Run", "ScoreError", "Scorer", "code_files", "default_scorers", "json_path",
           "parse_scorer", "text_of"]  # fmt: skip
