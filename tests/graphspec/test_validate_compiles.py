"""The validator and the compiler agree: a spec with no error finding compiles.

Templates are mutated the way a designer's half-finished edits leave them (middleware settings
emptied or blanked, tools and models removed, targets cleared, fields blanked, code broken) and
every mutant that loads and validates with 0 errors must compile (trusted: code is loaded too).
"""

from __future__ import annotations

import copy
import json

from hypothesis import given
from hypothesis import strategies as st

from graphspec.compiler import compile_spec
from graphspec.io import SpecValidationError, load_spec
from graphspec.validator import validate
from tests.graphspec.helpers import TEMPLATES
from tests.graphspec.test_fuzz import FUZZ, TEMPLATE_DOCS

BLANKS = ["", " ", None, 0, [], {}, "x", "not a node", "__end__", "END", "def broken(:\n"]
"""What a field is left holding mid-edit."""


def _places(doc):
    """Every (container, key) in the document, depth first."""
    out, stack = [], [doc]
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
            out.append((node, key))
            stack.append(value)
    return out


def _agents(doc):
    return [a for a in doc.get("agents", [])]


def _middleware(doc):
    return [m for a in _agents(doc) for m in a.get("middleware", [])]


@st.composite
def half_edited_templates(draw):
    doc = copy.deepcopy(draw(st.sampled_from(TEMPLATE_DOCS)))
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(
            ["empty_settings", "drop_setting", "blank_setting", "drop_tools", "drop_model",
             "clear_targets", "blank_field", "drop_field", "break_code", "drop_responses"]
        ))  # fmt: skip
        mws = _middleware(doc)
        agents = _agents(doc)
        if action == "empty_settings" and mws:
            draw(st.sampled_from(mws))["settings"] = {}
        elif action in ("drop_setting", "blank_setting") and mws:
            mw = draw(st.sampled_from(mws))
            if mw.get("settings"):
                key = draw(st.sampled_from(sorted(mw["settings"])))
                if action == "drop_setting":
                    del mw["settings"][key]
                else:
                    mw["settings"][key] = draw(st.sampled_from(BLANKS))
        elif action == "drop_tools":
            holders = [a for a in agents if a.get("tools")] + [
                n for n in doc.get("nodes", []) if n.get("tools")
            ]
            if holders:
                holder = draw(st.sampled_from(holders))
                holder["tools"] = holder["tools"][: draw(st.integers(0, len(holder["tools"]) - 1))]
        elif action == "drop_model":
            holders = [a for a in agents if "model" in a] + [
                n for n in doc.get("nodes", []) if "model" in n
            ]
            if holders:
                draw(st.sampled_from(holders)).pop("model")
        elif action == "drop_responses":
            holders = [
                x.get("model", {})
                for x in agents + doc.get("nodes", [])
                if x.get("model", {}).get("responses")
            ]
            if holders:
                model = draw(st.sampled_from(holders))
                model["responses"] = model["responses"][:1] or []
        elif action == "clear_targets":
            edges = doc.get("conditional_edges", []) + doc.get("edges", [])
            if edges:
                edge = draw(st.sampled_from(edges))
                for key in ("path_map", "target", "sources"):
                    if key in edge:
                        edge[key] = draw(st.sampled_from([[], {}, None, "", ["__end__"]]))
        elif action == "break_code":
            codes = [(p, k) for p, k in _places(doc) if k == "code" and isinstance(p[k], str)]
            if codes:
                parent, key = draw(st.sampled_from(codes))
                parent[key] = draw(st.sampled_from(
                    ["def broken(:\n", "x = 1\n", parent[key].replace("def ", "def other_", 1), ""]
                ))  # fmt: skip
        else:
            places = [(p, k) for p, k in _places(doc) if not isinstance(p[k], (dict, list))]
            if places:
                parent, key = draw(st.sampled_from(places))
                if action == "drop_field" and isinstance(parent, dict):
                    del parent[key]
                else:
                    parent[key] = draw(st.sampled_from(BLANKS))
    return doc


def _errors(spec):
    return [f for f in validate(spec, base_dir=TEMPLATES) if f.severity == "error"]


@FUZZ
@given(half_edited_templates())
def test_a_spec_without_errors_compiles(doc):
    try:
        spec = load_spec(json.dumps(doc))
    except SpecValidationError:
        return  # refused at load, with its problems: nothing to compile
    if _errors(spec):
        return
    compile_spec(spec, trusted=True, base_dir=TEMPLATES)  # must not raise


def test_every_template_validates_clean_and_compiles():
    for doc in TEMPLATE_DOCS:
        spec = load_spec(json.dumps(doc))
        assert _errors(spec) == [], spec.name
        compile_spec(spec, trusted=True, base_dir=TEMPLATES)
