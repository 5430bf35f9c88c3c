"""Property-based tests: random and mutated spec JSON fed to the loader, validator and compiler.

The only outcomes allowed are success or an error that lists each problem with its JSON path;
never a crash, a hang or a partially written file. `CI=true` selects the `superstep-ci` profile
(1000 examples per target); local runs use `superstep-dev` (fewer).
"""

from __future__ import annotations

import ast
import copy
import json
import os
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphspec.compiler import compile_spec
from graphspec.errors import (
    Finding,
    SpecCompileError,
    SpecError,
    SpecValidationError,
    UntrustedCodeError,
)
from graphspec.export import export
from graphspec.io import dumps_spec, load_spec, read_spec, save_spec
from graphspec.validator import validate
from tests.graphspec.helpers import TEMPLATE_NAMES, TEMPLATES

_COMMON = dict(
    deadline=timedelta(seconds=5),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)
settings.register_profile("superstep-ci", max_examples=1000, derandomize=True, **_COMMON)
settings.register_profile("superstep-dev", max_examples=60, **_COMMON)
FUZZ = settings.get_profile("superstep-ci" if os.environ.get("CI") == "true" else "superstep-dev")

TEMPLATE_DOCS = [json.loads((TEMPLATES / f"{n}.json").read_text()) for n in TEMPLATE_NAMES]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

NAMES = ["a", "b", "c", "total", "items", "x", "__start__", "__end__", "END", "bad name", ""]
EXPRESSIONS = [
    "total + 1", "['a']", "'b' if total > 1 else 'c'", "END", "x.upper()", "len(items)",
    "[i for i in items]", "item", "total +", "__import__('os')", "'a' * 3", "1 / 0", "state['x']",
]  # fmt: skip
names = st.sampled_from(NAMES)
expressions = st.sampled_from(EXPRESSIONS)

state_keys = st.fixed_dictionaries(
    {"name": names},
    optional={
        "type": st.sampled_from(["any", "int", "list", "dict", "messages", "remaining_steps", "x"]),
        "reducer": st.sampled_from(["none", "add", "merge", "add_messages", "custom", "y"]),
        "input": st.booleans(),
        "output": st.booleans(),
    },
)
nodes = st.one_of(
    st.fixed_dictionaries(
        {"id": names, "kind": st.just("set_state"), "values": st.dictionaries(names, expressions, max_size=3)},
        optional={"goto": expressions, "destinations": st.lists(names, max_size=2)},
    ),
    st.fixed_dictionaries(
        {"id": names, "kind": st.just("interrupt"), "resume_key": names},
        optional={"payload": expressions},
    ),
    st.fixed_dictionaries(
        {"id": names, "kind": st.just("function"), "code": st.just("def f(s):\n    return {}\n"),
         "function": st.just("f")},
        optional={"writes": st.lists(names, max_size=2)},
    ),
    st.fixed_dictionaries({"id": names, "kind": st.just("subgraph"), "subgraph": names}),
    st.fixed_dictionaries({"id": names, "kind": st.just("agent"), "agent": names}),
    st.fixed_dictionaries({"id": names, "kind": st.sampled_from(["model", "tools", "nope"])}),
)  # fmt: skip
routers = st.one_of(
    st.fixed_dictionaries({"kind": st.just("expression"), "expression": expressions}),
    st.fixed_dictionaries(
        {"kind": st.just("send"), "target": names, "over": expressions},
        optional={"input": st.dictionaries(names, expressions, max_size=2)},
    ),
    st.fixed_dictionaries(
        {"kind": st.just("code"), "import_path": st.just("tests.graphspec.example_graphs:route")}
    ),
)
spec_docs = st.fixed_dictionaries(
    {"version": st.just(2)},
    optional={
        "state": st.lists(state_keys, max_size=4),
        "nodes": st.lists(nodes, max_size=5),
        "edges": st.lists(
            st.fixed_dictionaries(
                {"id": names, "sources": st.lists(names, min_size=1, max_size=3), "target": names}
            ),
            max_size=5,
        ),
        "conditional_edges": st.lists(
            st.fixed_dictionaries(
                {"id": names, "source": names, "router": routers},
                optional={"path_map": st.lists(names, max_size=3) | st.dictionaries(names, names, max_size=3)},
            ),
            max_size=3,
        ),
        "entry": st.lists(names, max_size=2),
        "finish": st.lists(names, max_size=2),
        "subgraphs": st.lists(
            st.fixed_dictionaries({"id": names, "graph": st.just({"state": [{"name": "x"}]})}),
            max_size=1,
        ),
        "breakpoints": st.fixed_dictionaries({}, optional={"before": st.lists(names, max_size=2)}),
        "recursion_limit": st.integers(0, 30),
    },
)  # fmt: skip


@st.composite
def mutated_templates(draw):
    """A template document with a few random edits: keys dropped, values replaced, lists grown."""
    doc = copy.deepcopy(draw(st.sampled_from(TEMPLATE_DOCS)))
    for _ in range(draw(st.integers(1, 4))):
        parent, key = _pick_place(draw, doc)
        action = draw(st.sampled_from(["delete", "replace", "duplicate", "swap_kind"]))
        if action == "delete" and isinstance(parent, dict):
            parent.pop(key, None)
        elif action == "duplicate" and isinstance(parent, list) and parent:
            parent.append(copy.deepcopy(parent[key]))
        elif action == "swap_kind" and isinstance(parent, dict) and "kind" in parent:
            parent["kind"] = draw(st.sampled_from(["function", "set_state", "interrupt", "x"]))
        else:
            parent[key] = draw(json_values | names | expressions)
    return doc


def _pick_place(draw, doc):
    """A (container, key) somewhere in the document, walking down a random path."""
    parent, key = doc, draw(st.sampled_from(sorted(doc)))
    while isinstance(parent[key], (dict, list)) and parent[key] and draw(st.booleans()):
        child = parent[key]
        parent, key = (
            child,
            draw(
                st.sampled_from(sorted(child))
                if isinstance(child, dict)
                else st.integers(0, len(child) - 1)
            ),
        )
    return parent, key


def _check_problems(error: SpecValidationError) -> None:
    assert error.problems
    for problem in error.problems:
        assert problem.path.startswith("$") and problem.message


def _load_or_problems(text: str):
    try:
        return load_spec(text)
    except SpecValidationError as exc:
        _check_problems(exc)
        return None


def _check_findings(findings: list[Finding]) -> None:
    for finding in findings:
        assert finding.severity in ("error", "warning")
        assert finding.path.startswith("$") and finding.message


def _compile_or_error(spec) -> None:
    try:
        compile_spec(spec)
    except SpecCompileError as exc:
        assert exc.findings and all(f.severity == "error" for f in exc.findings)
        _check_findings(exc.findings)
    except UntrustedCodeError as exc:
        assert exc.sites and exc.element_id
    except SpecError as exc:
        assert exc.element_id or exc.path, exc


# ------------------------------------------------------------------ targets


any_docs = st.one_of(spec_docs, mutated_templates())


def _byte_stable(spec) -> None:
    text = dumps_spec(spec)
    assert dumps_spec(load_spec(text)) == text


@FUZZ
@given(st.one_of(st.text(max_size=200), json_values.map(json.dumps)))
def test_loader_on_random_json(text):
    if (spec := _load_or_problems(text)) is not None:
        _byte_stable(spec)


@FUZZ
@given(any_docs)
def test_loader_on_spec_shaped_and_mutated_json(doc):
    if (spec := _load_or_problems(json.dumps(doc))) is not None:
        _byte_stable(spec)


@FUZZ
@given(any_docs)
def test_validator_never_raises(doc):
    if (spec := _load_or_problems(json.dumps(doc))) is not None:
        _check_findings(validate(spec))


@FUZZ
@given(any_docs)
def test_compiler_succeeds_or_names_the_problem(doc):
    if (spec := _load_or_problems(json.dumps(doc))) is not None:
        _compile_or_error(spec)


@pytest.fixture(scope="module")
def spec_file(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz") / "graph.json"


@FUZZ
@given(any_docs)
def test_saving_is_all_or_nothing(spec_file, doc):
    original = (TEMPLATES / "hello_world.json").read_text()
    spec_file.write_text(original)
    spec = _load_or_problems(json.dumps(doc))
    if spec is None:
        assert spec_file.read_text() == original
        return
    save_spec(spec, spec_file)
    assert spec_file.read_text() == dumps_spec(spec)
    assert read_spec(spec_file) == spec
    assert [p.name for p in spec_file.parent.iterdir()] == ["graph.json"]


def test_a_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "graph.json"
    path.write_text("old")

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        save_spec(load_spec(json.dumps(TEMPLATE_DOCS[0])), path)
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["graph.json"]


@FUZZ
@given(any_docs)
def test_export_succeeds_or_names_the_problem(doc):
    """Every format either exports (langgraph code that parses, Mermaid without stray line
    breaks) or raises a SpecError."""
    if (spec := _load_or_problems(json.dumps(doc))) is None:
        return
    for fmt in ("langgraph", "mermaid", "json-schema"):
        try:
            text = export(spec, fmt)
        except SpecError as exc:
            assert str(exc)
            continue
        if fmt == "langgraph":
            ast.parse(text)
        elif fmt == "mermaid":
            assert len(text.splitlines()) == text.count("\n")


# ------------------------------------------------------------------ hostile JSON text


HOSTILE_TOKENS = [
    "NaN", "Infinity", "-Infinity", "1e400", "-1e999", "1e-400", "-0", "9" * 400, "1" * 5000,
    "[" * 100_000 + "]" * 100_000, '{"a":' * 3000 + "1" + "}" * 3000, json.dumps("\ud800"),
    json.dumps("<b>x</b>\u202e\x00\ufeff"), json.dumps("x" * 200_000), '"\\u0000"', "[[[[1]]]]",
]  # fmt: skip


@st.composite
def hostile_texts(draw):
    """A spec-shaped document with raw tokens JSON forbids or Python reads oddly (NaN, 1e400,
    a 5000-digit integer, deep nesting, lone surrogates...) put in place of a few values."""
    doc = draw(st.sampled_from(TEMPLATE_DOCS).map(copy.deepcopy) | any_docs)
    numbers = _number_places(doc)  # positions, zoom, retry...: where a number is expected
    tokens = {}
    for i in range(draw(st.integers(1, 3))):
        if numbers and draw(st.booleans()):
            parent, key = draw(st.sampled_from(numbers))
        else:
            parent, key = _pick_place(draw, doc)
        parent[key] = mark = f"@@hostile{i}@@"
        tokens[json.dumps(mark)] = draw(st.sampled_from(HOSTILE_TOKENS) | st.floats().map(repr))
    text = json.dumps(doc)
    for quoted, token in tokens.items():
        text = text.replace(quoted, token)
    return text


def _number_places(doc) -> list:
    places, stack = [], [doc]
    while stack:
        node = stack.pop()
        items = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else ()
        )
        for key, value in items:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                places.append((node, key))
            stack.append(value)
    return places


@FUZZ
@given(hostile_texts())
def test_loader_on_hostile_json_gives_a_spec_or_problems(text):
    if (spec := _load_or_problems(text)) is not None:
        _byte_stable(spec)  # and what it saves is JSON: no NaN or Infinity got through
        json.loads(dumps_spec(spec), parse_constant=lambda c: pytest.fail(f"{c} in a loaded spec"))
