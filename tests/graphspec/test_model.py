"""Spec models and their on-disk form: byte-stable JSON, migrations, problems by JSON path."""

from __future__ import annotations

import json

import pytest

from graphspec.errors import SpecValidationError
from graphspec.io import (
    SCHEMA_PATH,
    dumps_json_schema,
    dumps_spec,
    load_spec,
    read_spec,
    save_spec,
)
from graphspec.model import SPEC_VERSION, GraphSpec

DOC = {
    "version": SPEC_VERSION,
    "name": "sample",
    "state": [
        {"name": "total", "type": "int"},
        {"name": "visited", "type": "list", "reducer": "add"},
    ],
    "nodes": [
        {
            "id": "a",
            "kind": "set_state",
            "values": {"total": "total + 1", "visited": "['a']"},
            "position": {"x": 10.0, "y": 20.5},
        },
        {"id": "b", "kind": "function", "code": "def b(state):\n    return {}\n", "function": "b"},
        {"id": "ask", "kind": "interrupt", "prompt": "ok?", "resume_key": "total"},
    ],
    "edges": [{"id": "a_b", "sources": ["a"], "target": "b"}],
    "conditional_edges": [
        {
            "id": "route",
            "source": "b",
            "router": {"kind": "expression", "expression": "'ask'"},
            "path_map": ["ask", "__end__"],
        }
    ],
    "entry": ["a"],
    "finish": ["ask"],
}


def test_load_save_is_byte_stable(tmp_path):
    text = dumps_spec(load_spec(json.dumps(DOC)))
    assert dumps_spec(load_spec(text)) == text
    path = tmp_path / "g.json"
    path.write_text(text, encoding="utf-8")
    save_spec(read_spec(path), path)
    assert path.read_text(encoding="utf-8") == text
    # the version leads, defaults are left out, model order is kept
    first = json.loads(text)
    assert list(first)[:3] == ["version", "name", "state"]
    assert "reducer" not in first["state"][0] and first["state"][1]["reducer"] == "add"


def test_round_trip_keeps_every_field():
    spec = load_spec(json.dumps(DOC))
    again = load_spec(dumps_spec(spec))
    assert again == spec
    assert again.node("a").position.y == 20.5
    assert again.conditional_edges[0].router.expression == "'ask'"


def test_version_1_documents_are_migrated():
    old = json.loads(json.dumps(DOC))
    old["version"] = 1
    for node in old["nodes"]:
        node["type"] = node.pop("kind")
    old["edges"] = [{"id": "a_b", "source": "a", "target": "b"}]
    spec = load_spec(json.dumps(old))
    assert spec.version == SPEC_VERSION
    assert spec == load_spec(json.dumps(DOC))


def test_newer_version_is_refused():
    with pytest.raises(SpecValidationError, match="newer Superstep"):
        load_spec(json.dumps({**DOC, "version": SPEC_VERSION + 1}))


def test_problems_carry_json_paths_and_element_ids():
    bad = json.loads(json.dumps(DOC))
    bad["nodes"][0]["values"]["total"] = 3
    bad["nodes"][1]["id"] = "not an id"
    del bad["nodes"][2]["resume_key"]
    bad["edges"][0]["colour"] = "red"
    with pytest.raises(SpecValidationError) as info:
        load_spec(json.dumps(bad))
    found = {(p.path, p.element_id) for p in info.value.problems}
    assert found == {
        ("$.nodes[0].values.total", "a"),
        ("$.nodes[1].id", "not an id"),
        ("$.nodes[2].resume_key", "ask"),
        ("$.edges[0].colour", "a_b"),
    }
    assert info.value.path == "$.nodes[0].values.total"


@pytest.mark.parametrize("text", ["", "[]", "{", '{"nodes": 3}', '{"version": "x"}'])
def test_bad_documents_raise_validation_errors(text):
    with pytest.raises(SpecValidationError) as info:
        load_spec(text)
    assert info.value.problems and all(p.path.startswith("$") for p in info.value.problems)


def test_a_node_without_kind_is_named_in_words():
    with pytest.raises(SpecValidationError) as info:
        load_spec(json.dumps({"nodes": [{"id": "a"}]}))
    (problem,) = info.value.problems
    assert (problem.path, problem.element_id) == ("$.nodes[0]", "a")
    assert problem.message == "has no 'kind' field saying what kind of element it is"


def test_code_ref_needs_exactly_one_source():
    with pytest.raises(SpecValidationError, match="exactly one"):
        load_spec(json.dumps({"nodes": [{"id": "f", "kind": "function"}]}))


def test_reserved_names_are_refused():
    with pytest.raises(SpecValidationError) as info:
        load_spec(json.dumps({"state": [{"name": "END"}, {"name": "class"}]}))
    assert [p.path for p in info.value.problems] == ["$.state[0].name", "$.state[1].name"]


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_save_failure_leaves_the_old_file(tmp_path):
    path = tmp_path / "g.json"
    path.write_text("old", encoding="utf-8")
    spec = GraphSpec()
    spec.__dict__["name"] = 5  # bypass validate_assignment: the save must refuse it
    with pytest.raises(ValueError):
        save_spec(spec, path)
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_published_json_schema_is_current():
    assert SCHEMA_PATH.read_text(encoding="utf-8") == dumps_json_schema(), (
        "graphspec/schema.json is stale: run `python -m graphspec.io`"
    )
